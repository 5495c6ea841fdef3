import Foundation
import LangBench

/// Options of the reply pipeline under test.
struct GenerationOptions {
    static let group = OptionGroup("Generation", [
        .value("route", "route", help: "auto (the router decides), direct, pivot, or both (every item through both).", default: "auto"),
        .value("concurrency", "n", help: "Items in flight (uses as many llama-server slots). Time latency with 1.", default: "1"),
        .value("repeat", "k", help: "Run every item k times.", default: "1"),
        .value("warmup", "n", help: "Items run first and excluded from the figures.", default: "1"),
        .value("seed", "n", help: "Sampling seed (overrides the profile)."),
        .value("cache-policy", "policy", help: "Prompt cache state of each timed request: cold (whole prompt evaluated) or warm-prefix (instructions cached).",
               default: GenerationPlan().cachePolicy.rawValue),
        .value("packs", "file", help: "Translation pack states: {\"default\":\"installed\",\"pairs\":{\"kk-en\":\"supported\"}}.", default: "kk missing"),
        .value("fallback-bank", "file", help: "Canned replies.", default: FallbackBank.defaultPath),
        .value("crisis-keywords", "file", help: "Crisis keyword list.", default: CrisisCheck.defaultPath),
        .flag("refuse-unsupported", help: "Refuse direct generation in unsupported languages, as Apple's framework does."),
        .flag("no-replies", help: "Do not write replies.jsonl."),
    ])

    var plan: GenerationPlan

    init(_ arguments: ParsedArguments) throws {
        plan = GenerationPlan()
        plan.route = try arguments.choice("route", default: plan.route)
        plan.concurrency = try arguments.int("concurrency", default: plan.concurrency, range: 1...64)
        plan.repeats = try arguments.int("repeat", default: plan.repeats, range: 1...1000)
        plan.warmup = try arguments.int("warmup", default: plan.warmup, range: 0...1000)
        plan.seed = arguments.value("seed") == nil ? nil : try arguments.int("seed", default: 0, range: 0...Int(Int32.max))
        plan.cachePolicy = try arguments.choice("cache-policy", default: plan.cachePolicy)
        if let packsPath = arguments.value("packs") { plan.packs = try StrictJSON.load(LanguagePacks.self, from: packsPath) }
        plan.bankPath = arguments.value("fallback-bank") ?? plan.bankPath
        plan.crisisPath = arguments.value("crisis-keywords") ?? plan.crisisPath
        plan.refuseUnsupported = arguments.flag("refuse-unsupported")
        plan.writeReplies = !arguments.flag("no-replies")
    }
}
