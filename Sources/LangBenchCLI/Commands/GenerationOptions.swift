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
        .value("cache-policy", "policy", help: "Prompt cache state of each timed request: cold (whole prompt evaluated) or warm-prefix (instructions cached).", default: "cold"),
        .value("packs", "file", help: "Translation pack states: {\"default\":\"installed\",\"pairs\":{\"kk-en\":\"supported\"}}.", default: "kk missing"),
        .value("fallback-bank", "file", help: "Canned replies.", default: FallbackBank.defaultPath),
        .value("crisis-keywords", "file", help: "Crisis keyword list.", default: CrisisCheck.defaultPath),
        .flag("refuse-unsupported", help: "Refuse direct generation in unsupported languages, as Apple's framework does."),
        .flag("no-replies", help: "Do not write replies.jsonl."),
    ])

    var route: RouteChoice
    var concurrency: Int
    var repeats: Int
    var warmup: Int
    var seed: Int?
    var cachePolicy: CachePolicy
    var packsPath: String?
    var bankPath: String
    var crisisPath: String
    var refuseUnsupported: Bool
    var writeReplies: Bool

    init(_ arguments: ParsedArguments) throws {
        route = try arguments.choice("route", default: RouteChoice.auto)
        concurrency = try arguments.int("concurrency", default: 1, range: 1...64)
        repeats = try arguments.int("repeat", default: 1, range: 1...1000)
        warmup = try arguments.int("warmup", default: 1, range: 0...1000)
        seed = arguments.value("seed") == nil ? nil : try arguments.int("seed", default: 0, range: 0...Int(Int32.max))
        cachePolicy = try arguments.choice("cache-policy", default: CachePolicy.cold)
        packsPath = arguments.value("packs")
        bankPath = arguments.value("fallback-bank") ?? FallbackBank.defaultPath
        crisisPath = arguments.value("crisis-keywords") ?? CrisisCheck.defaultPath
        refuseUnsupported = arguments.flag("refuse-unsupported")
        writeReplies = !arguments.flag("no-replies")
    }

    /// The generation half of a suite config, with the default bank and keyword files.
    init(_ half: BenchConfig.Generation) {
        route = half.route
        concurrency = half.concurrency
        repeats = half.repeats
        warmup = half.warmup
        seed = half.seed
        cachePolicy = half.cachePolicy
        packsPath = nil
        bankPath = FallbackBank.defaultPath
        crisisPath = CrisisCheck.defaultPath
        refuseUnsupported = half.refuseUnsupported
        writeReplies = true
    }

    func packs() throws -> LanguagePacks {
        try packsPath.map { try StrictJSON.load(LanguagePacks.self, from: $0) } ?? .deviceDefault
    }
}
