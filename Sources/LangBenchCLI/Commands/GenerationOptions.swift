import Support
import Foundation
import Generation
import Suite

/// Options of the reply pipeline under test.
struct GenerationOptions {
    /// The library's plan defaults are the options' defaults.
    private static let defaults = GenerationPlan()

    static let group = OptionGroup("Generation", [
        .value("route", "route", help: "auto (the router decides), direct, pivot, or both (every item through both).", default: defaults.route.rawValue),
        .value("concurrency", "n", help: "Items in flight (uses as many llama-server slots). Time latency with 1.", default: String(defaults.concurrency)),
        .value("repeat", "k", help: "Run every item k times.", default: String(defaults.repeats)),
        .value("warmup", "n", help: "Items run first and excluded from the figures.", default: String(defaults.warmup)),
        .value("seed", "n", help: "Sampling seed (overrides the profile)."),
        .value("cache-policy", "policy", help: "Prompt cache state of each timed request: cold (whole prompt evaluated) or warm-prefix (instructions cached).",
               default: defaults.cachePolicy.rawValue),
        .value("packs", "file", help: "Translation pack states: {\"default\":\"installed\",\"pairs\":{\"kk-en\":\"supported\"}}.", computedDefault: "every pack installed, kk-en and en-kk downloadable"),
        .value("translator", "engine", help: "What the pivot translates with: llm (the reply model), apertium (APy, started by LangBench), apertium:<url>, or exec:<command>.",
               default: defaults.translator.description),
        .value("references", "file", help: "English references of the corpus's messages (TSV: id, reference_en): the pivot's translate-in is scored against them (chrF)."),
        .value("thresholds", "preset|file", help: "The thresholds whose translation_lost_chrf counts a scored translate-in as lost in translation.",
               default: defaults.thresholds),
        .value("fallback-bank", "file", help: "Canned replies.", computedDefault: "LangBench's \(FallbackBank.defaultResource)"),
        .value("crisis-keywords", "file", help: "Crisis keyword list.", computedDefault: "LangBench's \(CrisisCheck.defaultResource)"),
        .value("variants", "file", help: "Generation variants (Profiles/variants/): every item goes through every variant × route, interleaved."),
        .flag("refuse-unsupported", help: "Refuse direct generation in unsupported languages, as Apple's framework does."),
        .flag("no-replies", help: "Do not write replies.jsonl."),
        .value("judge", "detector", help: "A second judge of served (builtin, exec:<command>, e.g. exec:scripts/detectors/lingua): the report gives the two judges' agreement."),
        .flag("oracle", help: "Also detect every message as its true language (config 'oracle'): the served funnel then says what detection lost."),
    ])

    var plan: GenerationPlan
    /// Whether the `oracle` config runs beside the others.
    var oracle: Bool
    /// The second judge of served, if any.
    var judge: String?

    init(_ arguments: ParsedArguments) throws {
        plan = GenerationPlan()
        plan.route = try arguments.choice("route")
        plan.concurrency = try arguments.int("concurrency", range: GenerationPlan.concurrencyRange)
        plan.repeats = try arguments.int("repeat", range: GenerationPlan.repeatsRange)
        plan.warmup = try arguments.int("warmup", range: GenerationPlan.warmupRange)
        plan.seed = try arguments.optionalInt("seed", range: GenerationPlan.seedRange)
        plan.cachePolicy = try arguments.choice("cache-policy")
        if let packsPath = arguments.value("packs") { plan.packs = try StrictJSON.load(LanguagePacks.self, from: packsPath) }
        if let translator = arguments.value("translator") {
            do { plan.translator = try TranslatorSpec(translator, key: "--translator") } catch { throw UsageError("\(error)", command: arguments.command) }
        }
        plan.referencesPath = arguments.value("references")
        plan.thresholds = arguments.value("thresholds") ?? plan.thresholds
        plan.bankPath = arguments.value("fallback-bank") ?? FallbackBank.defaultPath
        plan.crisisPath = arguments.value("crisis-keywords") ?? CrisisCheck.defaultPath
        plan.variantsPath = arguments.value("variants")
        plan.refuseUnsupported = arguments.flag("refuse-unsupported")
        plan.writeReplies = !arguments.flag("no-replies")
        oracle = arguments.flag("oracle")
        judge = arguments.value("judge").map(Redaction.label(ofCommand:))
    }
}
