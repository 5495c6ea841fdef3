import Foundation
import LangBench

/// `langbench compare BASE CURRENT`: regression verdicts a CI job can trust.
struct CompareCommand: ParsableCommand {
    enum Format: String, CaseIterable { case md, json, junit }

    static let configuration = CommandConfiguration(
        name: "compare",
        abstract: "Compare two runs and report regressions and improvements with their statistics.",
        discussion: "Exit 0: no regression; 1: at least one regression; 65: the runs are not comparable (different corpora, configs or routes).",
        arguments: [ArgumentSpec("base", help: "Base run, detect or generate directory (or its JSON file)."),
                    ArgumentSpec("current", help: "Current run to check against the base.")],
        groups: [OptionGroup("Comparison", [
            .value("thresholds", "preset-or-file", help: "strict, default, relaxed, or a JSON file of thresholds.", default: "default"),
            .flag("allow-mismatch", help: "Compare even when corpora or configs differ (noted in the report)."),
            .value("format", "format", help: "md, json or junit.", default: "md"),
            .value("out", "file", help: "Write the report to a file instead of stdout."),
        ])]
    )

    let base: String
    let current: String
    let thresholds: String
    let allowMismatch: Bool
    let format: Format
    let out: String?

    init(_ arguments: ParsedArguments) throws {
        base = arguments.positionals[0]
        current = arguments.positionals[1]
        thresholds = try arguments.string("thresholds")
        allowMismatch = arguments.flag("allow-mismatch")
        format = try arguments.choice("format", as: Format.self)
        out = arguments.value("out")
    }

    func run(_ context: CommandContext) async throws -> ExitStatus {
        let comparison: Comparison
        do {
            comparison = try Comparison(base: try RunResults.load(base), current: try RunResults.load(current),
                                        thresholds: try Thresholds.named(thresholds), allowMismatch: allowMismatch)
        } catch let error as ComparisonError {
            context.stderr.write("error: \(error)\n")
            return .dataError
        }
        let text = switch format {
        case .md: comparison.markdown
        case .json: comparison.json
        case .junit: comparison.junit
        }
        if let out { try AtomicFile.write(text, to: URL(fileURLWithPath: out)) } else { context.stdout.write(text) }
        context.note("\(comparison.verdict): \(comparison.regressions.count) regression(s), \(comparison.improvements.count) improvement(s) in \(comparison.checks.count) checks")
        return comparison.regressions.isEmpty ? .success : .checkFailed
    }
}
