import Detection
import Foundation
import Generation
import Suite

/// `langbench detect`: detection accuracy with and without constraints and priors.
struct DetectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "detect",
        abstract: "Measure language detection accuracy per config, language, length and tag.",
        discussion: """
        Without --configs, --candidates or --hints, runs three configs: unconstrained, constrained \
        (candidates: \(DetectionConfig.seedCandidates.description)) and constrained+priors (hints ru=0.5,en=0.35). \
        Writes detection-items.csv, detection-summary.csv, detection.md, detection.json and SVG charts to --out.
        """,
        groups: [
            OptionGroup("Input", [
                .repeated("corpus", "path", help: "A corpus file or folder (repeatable)."),
            ] + CorpusOptions.group.options),
            DetectorOptions.group,
            DetectCommand.performance,
            OutputOptions.group,
        ]
    )

    let corpora: [String]
    let corpus: CorpusOptions
    let detectors: DetectorOptions
    let output: OutputOptions
    let jobs: Int

    init(_ arguments: ParsedArguments) throws {
        corpora = arguments.values("corpus")
        corpus = try CorpusOptions(arguments)
        detectors = try DetectorOptions(arguments)
        output = try OutputOptions(arguments, defaultPrefix: "detect")
        jobs = try Self.jobs(arguments)
    }

    /// `--jobs`, shared with `run`, whose detection half goes through the same job.
    static let performance = OptionGroup("Performance", [
        .value("jobs", "n", help: "Tasks that run the built-in recognizer at once; reports are byte-identical for any value.",
               computedDefault: "the core count"),
    ])

    static func jobs(_ arguments: ParsedArguments) throws -> Int {
        try arguments.optionalInt("jobs", range: 1...1024) ?? ProcessInfo.processInfo.activeProcessorCount
    }

    func validate() throws {
        if corpora.isEmpty { throw UsageError("--corpus is required (e.g. --corpus Corpora/short-phrases.tsv)", command: "langbench detect") }
        try detectors.validate(command: "langbench detect")
    }

    func run(_ context: CommandContext) async throws -> ExitStatus {
        // Read in canonical order with bounded memory when the run starts: a corpus past
        // ItemSpool.defaultItemsInMemory items is read again from its files when its ids are in order,
        // else sorted through files in $TMPDIR.
        // The profile is read only when a config's candidates name it (`profile:supported`).
        let configs = try detectors.configs()
        let supported = configs.usesProfile ? try ModelProfile.load(detectors.profilePath).supportedLanguages : []
        let job = DetectionJob(items: .reading(corpora, corpus.loader), configs: configs, supported: supported,
                               factory: detectors.factory, directory: output.directory, command: context.commandLine,
                               resume: output.resume, jobs: jobs)
        let report = try await job.run(progress: context.progress(quiet: output.quiet))
        try RunPage.write(detection: report, generation: nil, to: output.directory)
        for config in report.configs {
            if let m = report.metrics(config: config.name) {
                context.stdout.write(String(format: "%@: accuracy %.1f%% (%@), macro-F1 %.3f, n=%d\n", config.name, m.accuracy * 100,
                                            DetectionReport.percentInterval(m.ci95), m.macroF1, m.n))
            }
        }
        context.stdout.write("wrote \(output.directory.path)/\(DetectionOutput.markdownFile)\n")
        // A detector that failed most items (missing, crashing) is unavailable, not 0% accurate.
        for failed in report.failedConfigs { context.stderr.write("error: \(failed.sentence.replacingOccurrences(of: "`", with: "'"))\n") }
        for partly in report.partlyFailedConfigs { context.stderr.write("warning: \(partly.sentence.replacingOccurrences(of: "`", with: "'"))\n") }
        return report.failedConfigs.isEmpty ? .success : .unavailable
    }
}
