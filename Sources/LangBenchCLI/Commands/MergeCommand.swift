import Detection
import Foundation
import Generation
import LangBench
import Reports
import RunProvenance

/// `langbench merge DIR...`: combine shard outputs into one run.
struct MergeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "merge",
        abstract: "Combine the shard directories of run, detect or generate into one run directory.",
        arguments: [ArgumentSpec("shards", help: "Shard output directories.", repeating: true)],
        groups: [OptionGroup("Output", [
            .value("out", "dir", help: "Merged run directory (required)."),
            .flag("rejudge", help: "Judge again from replies.jsonl, with the built-in recognizer, whether each person was served in their own language."),
        ])]
    )

    let shards: [String]
    let out: String
    let rejudge: Bool

    init(_ arguments: ParsedArguments) throws {
        shards = arguments.positionals
        guard let out = arguments.value("out") else { throw UsageError("--out is required", command: arguments.command) }
        self.out = out
        rejudge = arguments.flag("rejudge")
    }

    func run(_ context: CommandContext) async throws -> ExitStatus {
        let directory = URL(fileURLWithPath: out)
        let (detection, merged) = try RunMerger.merge(shards, into: directory, command: context.commandLine)
        var generation = merged
        if rejudge, let merged {
            let factory = DetectorFactory()
            let outcome: Rejudge.Outcome
            do {
                outcome = try await Rejudge.apply(merged, replies: try GenerationStore.replies(in: directory), judge: try factory.judge("builtin"),
                                                  detector: try await factory.make("builtin"))
            } catch let failure as Rejudge.Failure {
                context.stderr.write("error: \(failure)\n")
                return .dataError
            }
            try GenerationStore.write(outcome.report.allRecords, to: directory)
            try GenerationOutput.write(outcome.report, to: directory)
            generation = outcome.report
            context.note("re-judged \(outcome.judged) model replies with \(outcome.report.settings.judge ?? "the built-in recognizer"): \(outcome.changed) verdict(s) changed")
        }
        var provenance = (detection?.provenance ?? generation?.provenance)!
        provenance.finish()
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { !$0.hasPrefix(".") }
        try SuiteReport(runID: directory.lastPathComponent, shard: nil, provenance: provenance, detection: detection, generation: generation,
                        files: Array(Set(files + [SuiteReport.markdownFile, SuiteReport.jsonFile, RunPage.file])).sorted()).write(to: directory)
        context.stdout.write("merged \(shards.count) shard(s) into \(directory.path)\n")
        return .success
    }
}
