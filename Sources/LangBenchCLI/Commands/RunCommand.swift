import Detection
import Foundation
import Generation
import Corpus
import Provenance
import Suite

/// `langbench run`: the whole suite from one config file into `Reports/<run-id>/`.
struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "run",
        abstract: "Run detection then generation from a config file and write one run directory.",
        discussion: """
        Reads bench.json in the working directory unless --config names another; paths inside a suite file are \
        relative to that file, so a suite runs the same from any directory. Writes every file of detect and generate \
        plus report.md (read it first) and report.json. Results are appended as they are produced, so --resume \
        continues an interrupted run; --shard K/N runs a deterministic slice that 'langbench merge' combines.
        """,
        groups: [
            OptionGroup("Suite", [
                .value("config", "file", help: "Suite config.", default: BenchConfig.defaultPath),
                .value("shard", "K/N", help: "Run only shard K of N (items hashed by id)."),
                .value("run-id", "id", help: "Name of the run directory under Reports/.", computedDefault: "a UTC timestamp"),
            ]),
            // The suite config names the detection configs; only the detector's own options apply here.
            OptionGroup("Detection", DetectorFactoryOptions.options),
            DetectCommand.performance,
            BackendOptions.group,
            OutputOptions.group,
        ]
    )

    let configPath: String
    let shard: Shard?
    let detectors: DetectorFactoryOptions
    let jobs: Int
    let backend: BackendOptions
    let output: OutputOptions

    init(_ arguments: ParsedArguments) throws {
        configPath = try arguments.string("config")
        do {
            shard = try arguments.value("shard").map(Shard.init)
        } catch {
            throw UsageError("--shard \(error)", command: arguments.command)
        }
        detectors = try DetectorFactoryOptions(arguments)
        jobs = try DetectCommand.jobs(arguments)
        backend = try BackendOptions(arguments)
        var output = try OutputOptions(arguments, defaultPrefix: "run")
        if arguments.value("out") == nil {
            let id = arguments.value("run-id") ?? OutputOptions.stamp()
            output.directory = URL(fileURLWithPath: "Reports/\(id)" + (shard.map { "-shard\($0.index)of\($0.count)" } ?? ""))
        }
        self.output = output
    }

    func validate() throws {
        try detectors.validate(command: "langbench run")
    }

    func run(_ context: CommandContext) async throws -> ExitStatus {
        let runner = SuiteRunner(config: try BenchConfig.load(configPath), shard: shard, factory: detectors.factory, server: backend.source,
                                 directory: output.directory, environment: context.environment, command: context.commandLine,
                                 resume: output.resume, jobs: jobs)
        let report = try await runner.run(progress: context.progress(quiet: output.quiet))
        context.stdout.write("wrote \(output.directory.path)/\(SuiteReport.markdownFile)\n")
        for path in report.provenance.missingCorpora ?? [] { context.stderr.write("warning: \(MissingCorpus.sentence(path))\n") }
        if let unsteady = report.machineSteadiness?.sentence { context.stderr.write("warning: \(unsteady.replacingOccurrences(of: "`", with: "'"))\n") }
        // As in `detect`: a detector that failed most items is unavailable, not 0% accurate.
        for failed in report.failedDetectorConfigs { context.stderr.write("error: \(failed.sentence.replacingOccurrences(of: "`", with: "'"))\n") }
        return report.failedDetectorConfigs.isEmpty ? .success : .unavailable
    }
}
