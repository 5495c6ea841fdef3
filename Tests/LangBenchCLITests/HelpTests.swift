import Foundation
import Testing
import TestSupport
@testable import LangBenchCLI

/// Pins `--help` of every command (golden files in Snapshots/help-*.txt).
struct HelpTests {
    static func allCommandPaths() -> [[String]] {
        var paths: [[String]] = [[]]
        func walk(_ command: any ParsableCommand.Type, _ prefix: [String]) {
            for sub in command.configuration.subcommands {
                let path = prefix + [sub.configuration.name]
                paths.append(path)
                walk(sub, path)
            }
        }
        walk(LangBenchCommand.self, [])
        return paths
    }

    @Test func everyCommandHasHelp() async {
        for path in Self.allCommandPaths() {
            let result = await runCommand(path + ["--help"])
            #expect(result.status == .success, "\(path)")
            #expect(result.stdout.hasPrefix("OVERVIEW: "), "\(path)")
            Snapshot.assert(result.stdout, named: "help-\((["langbench"] + path).joined(separator: "-")).txt")
        }
    }

    @Test func versionPrintsVersionCommitAndResources() async {
        let result = await runCommand(["--version"])
        let commit = try? Shell.run("/usr/bin/env", ["git", "rev-parse", "HEAD"], in: CommandFixtures.repository,
                                    environment: ProcessInfo.processInfo.environment).stdout
        // Run from the checkout's build: the resources are the checkout, the commit its HEAD.
        #expect(result.stdout == "langbench 0.1.0\ncommit: \(commit ?? "")resources: \(CommandFixtures.repository.standardizedFileURL.path)\n")
    }

    @Test func unknownSubcommandIsUsageError() async {
        let result = await runCommand(["frobnicate"])
        #expect(result.status == .usage)
        #expect(result.stderr.hasPrefix("error: unknown subcommand 'frobnicate'"))
    }
}
