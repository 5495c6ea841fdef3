/// Everything LangBench knows about one model: its file, the languages it declares supported (the
/// list the router checks at runtime), server and sampling settings, and its prompt templates.
/// Loaded from `Profiles/<name>.json`; see Profiles/README.md for every key.
public struct ModelProfile: Sendable, Hashable, Codable {
    public var schemaVersion: Int
    public var name: String
    public var model: ModelFile
    public var supportedLanguages: [LanguageCode]
    public var server: ServerSettings
    public var sampling: Sampling
    public var translationSampling: Sampling
    public var prompts: PromptTemplates

    /// The model file and how to check it.
    public struct ModelFile: Sendable, Hashable, Codable {
        public var file: String
        public var sha256: String
        public var package: String
    }

    /// How `llama-server` is started for this model.
    public struct ServerSettings: Sendable, Hashable, Codable {
        public var contextSize: Int
        public var threads: Int
        public var parallelSlots: Int
        public var swaFull: Bool

        enum CodingKeys: String, CodingKey {
            case contextSize = "context_size", threads, parallelSlots = "parallel_slots", swaFull = "swa_full"
        }
    }

    /// Generation settings, always sent explicitly and echoed into reports.
    public struct Sampling: Sendable, Hashable, Codable {
        public var temperature: Double
        public var topK: Int
        public var topP: Double
        public var minP: Double
        public var seed: Int
        public var nPredict: Int
        public var stop: [String]
        public var cachePrompt: Bool
        /// Generate `nPredict` tokens whatever the model samples (timing and timeout tests); false in profiles.
        public var ignoreEOS: Bool

        enum CodingKeys: String, CodingKey {
            case temperature, topK = "top_k", topP = "top_p", minP = "min_p", seed, nPredict = "n_predict", stop, cachePrompt = "cache_prompt"
            case ignoreEOS = "ignore_eos"
        }

        public init(from decoder: Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            temperature = try c.decode(Double.self, forKey: .temperature)
            topK = try c.decode(Int.self, forKey: .topK)
            topP = try c.decode(Double.self, forKey: .topP)
            minP = try c.decode(Double.self, forKey: .minP)
            seed = try c.decode(Int.self, forKey: .seed)
            nPredict = try c.decode(Int.self, forKey: .nPredict)
            stop = try c.decode([String].self, forKey: .stop)
            cachePrompt = try c.decode(Bool.self, forKey: .cachePrompt)
            ignoreEOS = try c.decodeIfPresent(Bool.self, forKey: .ignoreEOS) ?? false
        }
    }

    enum CodingKeys: String, CodingKey {
        case schemaVersion = "schema_version", name, model, supportedLanguages = "supported_languages", server, sampling
        case translationSampling = "translation_sampling", prompts
    }

    public init(from decoder: Decoder) throws {
        try StrictJSON.rejectUnknownKeys(in: decoder, allowed: ["schema_version", "name", "model", "supported_languages", "server",
                                                                "sampling", "translation_sampling", "prompts"])
        let container = try decoder.container(keyedBy: CodingKeys.self)
        schemaVersion = try container.decodeIfPresent(Int.self, forKey: .schemaVersion) ?? 1
        try StrictJSON.checkSchemaVersion(schemaVersion)
        name = try container.decode(String.self, forKey: .name)
        model = try container.decode(ModelFile.self, forKey: .model)
        supportedLanguages = try container.decode([LanguageCode].self, forKey: .supportedLanguages)
        server = try container.decode(ServerSettings.self, forKey: .server)
        sampling = try container.decode(Sampling.self, forKey: .sampling)
        translationSampling = try container.decodeIfPresent(Sampling.self, forKey: .translationSampling) ?? sampling
        prompts = try container.decode(PromptTemplates.self, forKey: .prompts)
    }

    /// Whether the model declares `language` supported, with locale equivalence (`en-AU` counts as `en`).
    public func supports(_ language: LanguageCode) -> Bool {
        supportedLanguages.contains { $0.isEquivalent(to: language) }
    }

    public static func load(_ path: String) throws -> ModelProfile {
        try StrictJSON.loadEverySection(ModelProfile.self, from: path)
    }

    /// The profile the embedded default run uses.
    public static let defaultPath = "Profiles/gemma3-270m.json"
}
