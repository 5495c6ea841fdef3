import Generation

/// What a generation run does — route, repeats, seed, packs, fallback files — whether it comes from
/// `generate`'s flags or `bench.json`. Its defaults are the only ones: the config decoder and the
/// command-line help both read them from here.
public struct GenerationPlan: Sendable, Equatable {
    public var route: RouteChoice = .auto
    /// Items in flight (as many llama-server slots).
    public var concurrency = 1
    public var repeats = 1
    /// Items run first and excluded from the figures.
    public var warmup = 1
    /// Overrides the profile's sampling seed.
    public var seed: Int?
    /// The prompt-cache state every timed request starts from.
    public var cachePolicy: CachePolicy = .cold
    public var packs: LanguagePacks = .deviceDefault
    /// The engine the pivot translates with; a variant may name its own.
    public var translator: TranslatorSpec = .llm
    /// English references of the corpus's messages (`TranslationReferences`): the translate-in is scored against them.
    public var referencesPath: String?
    /// The thresholds (a preset or a JSON file) whose `translation_lost_chrf` the funnel counts "lost: translation" by.
    public var thresholds = "default"
    public var bankPath = FallbackBank.defaultPath
    public var crisisPath = CrisisCheck.defaultPath
    public var refuseUnsupported = false
    public var writeReplies = true
    /// A variants file (`--variants`, `generation.variants`): every item goes through every variant.
    public var variantsPath: String?

    public init() {}

    /// The values `generate`'s flags and `bench.json` accept alike.
    public static let concurrencyRange = 1...64
    public static let repeatsRange = 1...1000
    public static let warmupRange = 0...1000
    public static let seedRange = 0...Int(Int32.max)
}
