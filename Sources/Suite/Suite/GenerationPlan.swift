import Generation

/// What a generation run does — route, repeats, seed, packs, fallback files — whether it comes from
/// `generate`'s flags or `bench.json`. Its defaults are the only ones: the config decoder and the
/// command-line help both read them from here.
package struct GenerationPlan: Sendable, Equatable {
    package var route: RouteChoice = .auto
    /// Items in flight (as many llama-server slots).
    package var concurrency = 1
    package var repeats = 1
    /// Items run first and excluded from the figures.
    package var warmup = 1
    /// Overrides the profile's sampling seed.
    package var seed: Int?
    /// The prompt-cache state every timed request starts from.
    package var cachePolicy: CachePolicy = .cold
    package var packs: LanguagePacks = .deviceDefault
    /// The engine the pivot translates with; a variant may name its own.
    package var translator: TranslatorSpec = .llm
    /// English references of the corpus's messages (`TranslationReferences`): the translate-in is scored against them.
    package var referencesPath: String?
    /// The thresholds (a preset or a JSON file) whose `translation_lost_chrf` the funnel counts "lost: translation" by.
    package var thresholds = "default"
    package var bankPath = FallbackBank.defaultPath
    package var crisisPath = CrisisCheck.defaultPath
    package var refuseUnsupported = false
    package var writeReplies = true
    /// A variants file (`--variants`, `generation.variants`): every item goes through every variant.
    package var variantsPath: String?

    package init() {}

    /// The values `generate`'s flags and `bench.json` accept alike.
    package static let concurrencyRange = 1...64
    package static let repeatsRange = 1...1000
    package static let warmupRange = 0...1000
    package static let seedRange = 0...Int(Int32.max)
}
