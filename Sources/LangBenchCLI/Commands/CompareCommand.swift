import Support
import Checks
import Foundation
import Generation
import Suite
import Comparison

/// `langbench compare BASE CURRENT`: regression verdicts a CI job can trust.
struct CompareCommand: ParsableCommand {
    enum Format: String, CaseIterable { case md, json, junit, html }

    static let configuration = CommandConfiguration(
        name: "compare",
        abstract: "Compare two runs and report regressions and improvements with their statistics.",
        discussion: "Exit 0: no regression; 1: at least one regression; 65: the runs are not comparable (corpora, items, route, profile, model, seed, sampling, server threads, concurrency, repeats, packs or cache policy differ, each difference named; or machines whose calibrations differ by more than ×1.25 — see docs/ci.md). A run whose machine was unsteady (machine_steady false: its calibration spans more than ×1.5 or drifted beyond ×1.25, or over 5% of its requests collapsed) has its latency not judged, said at the top, and every other check still runs: a regression among them exits 1, else 65 (latency could not be judged; --latency skip compares without it).",
        arguments: [ArgumentSpec("base", help: "Base run, detect or generate directory (or its JSON file)."),
                    ArgumentSpec("current", help: "Current run to check against the base.")],
        groups: [OptionGroup("Comparison", [
            .value("thresholds", "preset-or-file", help: "strict, default, relaxed, or a JSON file of thresholds.", default: "default"),
            .value("alpha", "a", help: "The compare's family-wise α, in place of the thresholds' (a CI job that runs two compares gives each its share)."),
            .flag("allow-mismatch", help: "Compare even when the runs' settings differ (each difference is named in the report)."),
            .value("latency", "basis", help: "calibrated (scale by each run's machine calibration; refuse beyond ×1.25), same-runner (both runs measured interleaved on this runner: raw), or skip.", default: "calibrated"),
            .value("format", "format", help: "md, json, junit or html.", default: "md"),
            .value("out", "file", help: "Write the report to a file instead of stdout."),
            .repeated("also", "format=file", help: "Also write the same comparison in another format (e.g. junit=compare.xml); repeat for more."),
        ])]
    )

    let base: String
    let current: String
    let thresholds: String
    let alpha: Double?
    let allowMismatch: Bool
    let latency: LatencyBasis
    let format: Format
    let out: String?
    /// More formats of the same comparison, each to its file (`--also`): a CI job renders its verdict once.
    let also: [(Format, String)]

    init(_ arguments: ParsedArguments) throws {
        base = arguments.positionals[0]
        current = arguments.positionals[1]
        thresholds = try arguments.string("thresholds")
        allowMismatch = arguments.flag("allow-mismatch")
        if arguments.value("alpha") != nil {
            let value = try arguments.double("alpha")
            guard value > 0 && value < 1 else { throw UsageError("--alpha takes a number between 0 and 1 (exclusive), not '\(value)'", command: "langbench compare") }
            alpha = value
        } else {
            alpha = nil
        }
        latency = try arguments.choice("latency", as: LatencyBasis.self)
        format = try arguments.choice("format", as: Format.self)
        out = arguments.value("out")
        also = try arguments.values("also").map { spec in
            let parts = spec.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, let format = Format(rawValue: parts[0]), !parts[1].isEmpty else {
                throw UsageError("--also '\(spec)': expected FORMAT=FILE, FORMAT one of md, json, junit, html", command: "langbench compare")
            }
            return (format, parts[1])
        }
    }

    func run(_ context: CommandContext) async throws -> ExitStatus {
        var chosen = try Thresholds.named(thresholds)
        if let alpha { chosen.alpha = alpha }
        let comparison = try Comparison(base: try RunResults.load(base), current: try RunResults.load(current), thresholds: chosen,
                                        allowMismatch: allowMismatch, latency: latency)
        let render = { (format: Format) -> String in
            switch format {
            case .md: comparison.markdown
            case .json: comparison.json
            case .junit: comparison.junit
            case .html: comparison.html
            }
        }
        for (format, file) in also { try AtomicFile.write(render(format), to: URL(fileURLWithPath: file)) }
        if let out { try AtomicFile.write(render(format), to: URL(fileURLWithPath: out)) } else { context.stdout.write(render(format)) }
        for mismatch in comparison.mismatches { context.note("warning: mismatch allowed: \(mismatch)") }
        context.note("\(comparison.verdict): \(comparison.regressions.count) regression(s), \(comparison.improvements.count) improvement(s) in \(comparison.checks.count) checks")
        if !comparison.regressions.isEmpty { return .checkFailed }
        // Latency left unjudged is not a pass: the job must not go green on a comparison it could not make.
        if let unjudged = comparison.latencyNotJudged {
            context.stderr.write("error: \(unjudged.note); nothing else regressed, but latency was not judged: "
                                 + "measure again on a steady machine, or compare with --latency skip\n")
            return .dataError
        }
        return .success
    }
}
