import Foundation
import Generation
import Items
import LangBench

/// `langbench merge DIR...`: combine shard outputs into one run.
struct MergeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "merge",
        abstract: "Combine the shard directories of run, detect or generate into one run directory.",
        arguments: [ArgumentSpec("shards", help: "Shard output directories.", repeating: true)],
        groups: [OptionGroup("Output", [.value("out", "dir", help: "Merged run directory (required).")])]
    )

    let shards: [String]
    let out: String

    init(_ arguments: ParsedArguments) throws {
        shards = arguments.positionals
        guard let out = arguments.value("out") else { throw UsageError("--out is required", command: arguments.command) }
        self.out = out
    }

    func run(_ context: CommandContext) async throws -> ExitStatus {
        let directory = URL(fileURLWithPath: out)
        let (detection, generation) = try RunMerger.merge(shards, into: directory, command: context.commandLine)
        var provenance = (detection?.provenance ?? generation?.provenance)!
        provenance.finish()
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { !$0.hasPrefix(".") }
        try SuiteReport(runID: directory.lastPathComponent, shard: nil, provenance: provenance, detection: detection, generation: generation,
                        files: files + [SuiteReport.markdownFile, SuiteReport.jsonFile]).write(to: directory)
        context.stdout.write("merged \(shards.count) shard(s) into \(directory.path)\n")
        return .success
    }
}
