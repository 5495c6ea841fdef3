import Detection
import Foundation
import Suite

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
        let factory = DetectorFactory()
        let judge = rejudge ? (name: try factory.judge(DetectorKind.builtin.spec), detector: try await factory.make(DetectorKind.builtin.spec)) : nil
        let merged = try await RunMerger.mergeRun(shards, into: URL(fileURLWithPath: out), command: context.commandLine, rejudgeWith: judge)
        if let rejudged = merged.rejudged { context.note("re-judged \(rejudged.judged) model replies with \(rejudged.judge): \(rejudged.changed) verdict(s) changed") }
        context.stdout.write("merged \(shards.count) shard(s) into \(URL(fileURLWithPath: out).path)\n")
        return .success
    }
}
