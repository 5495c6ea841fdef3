import Foundation

/// Where a run writes, and how loudly.
struct OutputOptions {
    static let group = OptionGroup("Output", [
        .value("out", "dir", help: "Output directory.", computedDefault: "Reports/<command>-<timestamp>"),
        .flag("resume", help: "Continue an interrupted run in --out: keep recorded results, do the rest."),
        .flag("quiet", short: "q", help: "No progress on stderr."),
    ])

    var directory: URL
    var resume: Bool
    var quiet: Bool

    init(_ arguments: ParsedArguments, defaultPrefix: String) throws {
        resume = arguments.flag("resume")
        quiet = arguments.flag("quiet")
        if let out = arguments.value("out") {
            directory = URL(fileURLWithPath: out)
        } else if resume {
            throw UsageError("--resume needs --out <dir> naming the run to continue", command: arguments.command)
        } else {
            directory = URL(fileURLWithPath: "Reports/\(defaultPrefix)-\(Self.stamp())")
        }
    }

    static func stamp(_ date: Date = Date()) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd-HHmmss"
        return formatter.string(from: date)
    }
}
