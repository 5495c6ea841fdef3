import Foundation
import Generation
import Suite

/// `langbench generate`: time direct vs pivot replies through llama.cpp and count fallbacks by reason.
struct GenerateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "generate",
        abstract: "Time direct vs pivot reply generation through llama-server, with honest fallbacks.",
        discussion: """
        For each message: detect its language (default config constrained+priors), check support against the \
        profile at runtime, reply directly or through an English pivot, check the reply's language, and fall back to \
        the canned bank with the real reason when a stage fails. With several configs (--configs, --oracle) every \
        message is detected with each; the first makes every figure, and the served funnel compares them all. Writes generation-items.csv, generation-summary.csv, \
        generation.md, generation.json, diagnostics.jsonl (metadata only), replies.jsonl and the server log to --out.
        """,
        groups: [
            OptionGroup("Input", [.repeated("corpus", "path", help: "A corpus of chat messages (repeatable).")] + CorpusOptions.group.options),
            GenerationOptions.group,
            DetectorOptions.group,
            BackendOptions.group,
            OutputOptions.group,
        ]
    )

    let corpora: [String]
    let corpus: CorpusOptions
    let generation: GenerationOptions
    let detectors: DetectorOptions
    let backend: BackendOptions
    let output: OutputOptions

    init(_ arguments: ParsedArguments) throws {
        corpora = arguments.values("corpus")
        corpus = try CorpusOptions(arguments)
        generation = try GenerationOptions(arguments)
        detectors = try DetectorOptions(arguments)
        backend = try BackendOptions(arguments)
        output = try OutputOptions(arguments, defaultPrefix: "generate")
    }

    func validate() throws {
        if corpora.isEmpty { throw UsageError("--corpus is required (e.g. --corpus Corpora/chat-prompts.tsv)", command: "langbench generate") }
        try detectors.validate(command: "langbench generate")
    }

    func run(_ context: CommandContext) async throws -> ExitStatus {
        let loaded = try GenerationSetup.corpus(corpora, loader: corpus.loader)
        let profile = try ModelProfile.load(detectors.profilePath)
        let configs = try detectors.pipelineConfigs(oracle: generation.oracle)
        var setup = GenerationSetup(plan: generation.plan, detection: configs[0], factory: detectors.factory,
                                    server: backend.source, profile: profile, directory: output.directory, environment: context.environment)
        setup.configs = Array(configs.dropFirst())
        setup.secondJudge = generation.judge
        let report = try await setup.run(corpus: loaded, command: context.commandLine, resume: output.resume,
                                         progress: context.progress(quiet: output.quiet))
        try RunPage.write(detection: nil, generation: report, to: output.directory)
        let rows = report.variants.map { sections in sections.flatMap { section in section.summary.map { ("\(section.name) ", $0) } } }
            ?? report.summary.map { ("", $0) }
        for (variant, row) in rows where row.slice == "all" {
            let p50 = row.latency.map { String(format: "p50 %.0f ms", $0.p50) } ?? "no model replies"
            context.stdout.write(String(format: "%@%@: n=%d, %@, fallback %.1f%%, served in own language %.1f%%\n", variant, row.route.rawValue, row.n, p50,
                                        row.fallbackRate * 100, row.servedRate * 100))
        }
        context.stdout.write("wrote \(output.directory.path)/\(GenerationOutput.markdownFile)\n")
        if let unsteady = report.machineSteadiness?.sentence { context.stderr.write("warning: \(unsteady.replacingOccurrences(of: "`", with: "'"))\n") }
        return .success
    }
}
