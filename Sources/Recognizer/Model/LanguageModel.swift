import Support
import Foundation

/// A loaded recognizer model: immutable, `Sendable`, loaded once and shared by every `LanguageRecognizer`.
///
/// Holds one trained `ScriptModel` per trained script (Latin, Cyrillic, CJK) plus the languages that are
/// recognised by their script alone (see `Script.singleLanguage`).
public final class LanguageModel: Sendable {
    /// Every language the model can return, trained ones first (in script order), then script-only ones.
    public let languages: [String]
    /// Provenance and training settings recorded in the file (sources, licences, parameters).
    public let metadata: ModelMetadata
    /// Recognition settings stored with the model (tuned on held-out training words).
    public let parameters: RecognitionParameters

    let scriptModels: [ScriptModel?]
    /// For each script model, the global language index of each of its rows.
    let globalIndex: [[Int]]
    /// Global language index of each script-only language, by script.
    let singleLanguageIndex: [Int?]
    let indexOfLanguage: [String: Int]
    /// Model code by `language-Script` key (see `language(matching:)`).
    let languageByScriptKey: [String: String]
    /// For each script model, the per-word bias of each of its rows (`RecognitionParameters.languageBias`).
    let biasRows: [[Float]]
    /// For each script model, the char-LM offset of each of its rows (`RecognitionParameters.unlistedBias`).
    let unlistedRows: [[Float]]

    init(scriptModels models: [ScriptModel], parameters: RecognitionParameters, metadata: ModelMetadata) {
        var languages: [String] = []
        var byScript = [ScriptModel?](repeating: nil, count: Script.allCases.count)
        for model in models.sorted(by: { $0.script < $1.script }) {
            byScript[Int(model.script.rawValue)] = model
            languages += model.languages
        }
        var single = [Int?](repeating: nil, count: Script.allCases.count)
        for script in Script.allCases where byScript[Int(script.rawValue)] == nil {
            guard let code = script.singleLanguage else { continue }
            if let existing = languages.firstIndex(of: code) {
                single[Int(script.rawValue)] = existing
            } else {
                single[Int(script.rawValue)] = languages.count
                languages.append(code)
            }
        }
        var index: [String: Int] = [:]
        for (i, code) in languages.enumerated() where index[code] == nil { index[code] = i }
        self.languages = languages
        self.indexOfLanguage = index
        self.languageByScriptKey = Self.scriptKeys(languages)
        self.scriptModels = byScript
        self.singleLanguageIndex = single
        self.globalIndex = byScript.map { model in model?.languages.map { index[$0]! } ?? [] }
        self.biasRows = byScript.map { model in model?.languages.map { parameters.languageBias[$0] ?? 0 } ?? [] }
        self.unlistedRows = byScript.map { model in model?.languages.map { parameters.unlistedBias[$0] ?? 0 } ?? [] }
        self.parameters = parameters
        self.metadata = metadata
    }

    /// The same tables with other recognition settings (for tuning; the tables are shared, not copied).
    public func with(parameters: RecognitionParameters) -> LanguageModel {
        LanguageModel(scriptModels: scriptModels.compactMap { $0 }, parameters: parameters, metadata: metadata)
    }

    /// Loads a model file (see `docs/recognizer.md` for the format).
    public convenience init(contentsOf url: URL) throws {
        let data: Data
        do {
            data = try Data(contentsOf: url, options: .alwaysMapped)
        } catch {
            throw ModelError.unreadable(path: url.path, reason: error.localizedDescription)
        }
        try self.init(data: data, path: url.path)
    }

    /// Decodes a model from the bytes of a model file.
    public convenience init(data: Data, path: String = "<data>") throws {
        let decoded = try ModelFile.decode(data, path: path)
        self.init(scriptModels: decoded.scripts, parameters: decoded.parameters, metadata: decoded.metadata)
    }

    /// The script whose model (or single language) covers a language, if any.
    public func script(of language: String) -> Script? {
        for case let model? in scriptModels where model.languages.contains(language) { return model.script }
        return Script.allCases.first { $0.singleLanguage == language }
    }

    /// One line per trained script: languages, table slots and bytes.
    public var tableSummary: [String] {
        scriptModels.compactMap { $0 }.map { m in
            let perOrder = m.ngrams.orders.map { o in String(o.keys.buffer.filter { $0 != 0 }.count) }.joined(separator: "/")
            let postings = m.words.slots.buffer.filter { $0 != 0 }.count
            let forms = m.words.formSets.map { "\(m.languages[$0.language]) \($0.slots.buffer.filter { $0 != 0 }.count)" }
            return "\(m.script): \(m.languages.count) languages, alphabet \(m.alphabet.count), "
                + "n-grams by order \(perOrder) (\(m.ngrams.byteCount >> 20) MiB), "
                + "word postings \(postings) (\((m.words.slots.count * 4) >> 20) MiB)"
                + (forms.isEmpty ? "" : ", form sets " + forms.joined(separator: ", "))
        }
    }

    /// The default model, `Models/recognizer.lbrm` in the tool's resources (`ToolResources`: `LANGBENCH_HOME`, the
    /// install, or the checkout the executable was built in — never the working directory);
    /// `LANGBENCH_RECOGNIZER_MODEL` overrides the path.
    public static func defaultModelURL() -> URL? {
        let env = ProcessInfo.processInfo.environment["LANGBENCH_RECOGNIZER_MODEL"]
        if let env, !env.isEmpty { return URL(fileURLWithPath: env) }
        return ToolResources.root?.appendingPathComponent(ToolResources.marker)
    }
}

/// Settings applied at recognition time, stored in the model file.
public struct RecognitionParameters: Sendable, Equatable, Codable {
    /// Weight of the word list against the character LM per token: log(λ·P_list + (1−λ)·P_charLM).
    public var lambda: Float = 0.99
    /// A single token can lower a language's score by at most this many nats below the best language,
    /// so that one name or loanword cannot outvote the rest of the text (our choice).
    public var tokenEvidenceCap: Float = 24
    /// Nats added to a language's score per word (after the cap): a per-language calibration fitted on the
    /// tuning half of the held-out training words (`BiasCalibration`). Languages absent get 0.
    public var languageBias: [String: Float] = [:]
    /// Nats added to a language's character-LM term, i.e. to what a word its list lacks is worth (in effect
    /// a per-language λ: a small list misses more of its language's words). Fitted with `languageBias`.
    public var unlistedBias: [String: Float] = [:]

    public init(lambda: Float = 0.99, tokenEvidenceCap: Float = 24, languageBias: [String: Float] = [:],
                unlistedBias: [String: Float] = [:]) {
        self.lambda = lambda
        self.tokenEvidenceCap = tokenEvidenceCap
        self.languageBias = languageBias
        self.unlistedBias = unlistedBias
    }
}

/// Provenance recorded in a model file.
public struct ModelMetadata: Sendable, Equatable, Codable {
    /// One line per language: code, kind, word count, sha256 and source, as in the export manifest.
    public var sources: [String]
    /// Trainer settings, as `key=value` strings.
    public var training: [String]
    public var licence: String

    public init(sources: [String] = [], training: [String] = [], licence: String = "") {
        self.sources = sources
        self.training = training
        self.licence = licence
    }
}

/// Why a model could not be loaded or built.
public enum ModelError: Error, Equatable, CustomStringConvertible {
    case unreadable(path: String, reason: String)
    case malformed(path: String, reason: String)
    case unsupportedVersion(path: String, version: UInt32)
    case noModelFound

    public var description: String {
        switch self {
        case let .unreadable(path, reason): "cannot read model \(path): \(reason)"
        case let .malformed(path, reason): "model \(path) is damaged (\(reason)); regenerate it with scripts/train-model"
        case let .unsupportedVersion(path, version):
            "model \(path) has format version \(version), this build reads 1 to \(ModelFile.version); regenerate it with scripts/train-model"
        case .noModelFound:
            "no recognizer model found: LangBench's resources (Models/recognizer.lbrm) are neither in LANGBENCH_HOME, beside an installed langbench (../share/langbench) nor in the checkout it was built in; reinstall with scripts/install, set LANGBENCH_HOME, or set LANGBENCH_RECOGNIZER_MODEL"
        }
    }
}
