import Support
import Foundation
import Backend

/// The root command: `langbench <subcommand>`.
package struct LangBenchCommand: ParsableCommand {
    package static let configuration = CommandConfiguration(
        name: "langbench",
        abstract: "Measure short-text language detection and direct-vs-pivot reply generation for on-device LLM features.",
        discussion: "Exit codes: 0 success, 1 a check failed, 64 usage error, 65 bad input data, 69 a required service or file is unavailable, 70 internal error, 129/130/143 stopped by SIGHUP/SIGINT/SIGTERM (resumable).",
        groups: [OptionGroup("Options", [.flag("version", help: "Print the LangBench version, the commit it was built from and where its resources are.")])],
        subcommands: LangBenchCommand.subcommands
    )

    /// Every top-level command; add new ones here.
    static let subcommands: [any ParsableCommand.Type] = [
        RunCommand.self, DetectCommand.self, GenerateCommand.self, CompareCommand.self, MergeCommand.self, InitCommand.self,
        IdentifyCommand.self, CorpusCommand.self, DoctorCommand.self, TrainCommand.self, BenchCommand.self,
    ]

    let version: Bool

    package init(_ arguments: ParsedArguments) throws {
        version = arguments.flag("version")
    }

    package func run(_ context: CommandContext) async throws -> ExitStatus {
        guard version else { throw UsageError("missing subcommand", command: "langbench") }
        context.stdout.write("langbench \(LangBenchVersion.current)\n")
        context.stdout.write("commit: \(ToolResources.commit() ?? "unknown")\n")
        context.stdout.write("resources: \(ToolResources.root?.path ?? "not found (set \(ToolResources.environmentKey), or reinstall with scripts/install)")\n")
        return .success
    }

    /// Runs the process's command line and exits.
    package static func main() async -> Never {
        // Any llama-server a command starts is stopped on Ctrl-C, SIGTERM, SIGHUP and exit().
        ServerReaper.installSignalHandlers()
        let status = await CommandRunner.run(Self.self, arguments: Array(CommandLine.arguments.dropFirst()), context: .process)
        exit(status.rawValue)
    }
}
