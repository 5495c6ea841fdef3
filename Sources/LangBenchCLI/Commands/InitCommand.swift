import Support
import Foundation
import Suite

/// `langbench init [DIR]`: a suite of your own that runs as written.
struct InitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "init",
        abstract: "Write a minimal suite (bench.json, a profile, two small corpora, thresholds, a README) into a directory.",
        discussion: """
        The suite runs as written: 'langbench run --config DIR/bench.json' from any directory. Its corpora are drawn \
        from LangBench's authored ones; the profile is a copy of the default one, to hold your app's prompts. \
        Writes nothing when any of its files is already there (exit 64). Exit 69 when LangBench's own files are \
        not found ('langbench --version' says where it looks).
        """,
        arguments: [ArgumentSpec("dir", help: "Directory to write the suite into (created if needed).", optional: true)]
    )

    let directory: URL

    init(_ arguments: ParsedArguments) throws {
        directory = URL(fileURLWithPath: arguments.positionals.first ?? ".")
    }

    func run(_ context: CommandContext) async throws -> ExitStatus {
        guard let resources = ToolResources.root else {
            context.stderr.write("error: LangBench's resources were not found; reinstall with scripts/install, or set \(ToolResources.environmentKey)\n")
            return .unavailable
        }
        let files = try SuiteTemplate.files(resources: resources)
        let existing = files.map { directory.appendingPathComponent($0.path) }.filter { FileManager.default.fileExists(atPath: $0.path) }
        guard existing.isEmpty else {
            let more = existing.count > 1 ? " (and \(existing.count - 1) more of the suite's files)" : ""
            throw UsageError("\(existing[0].path) already exists\(more); init writes a new suite only where none is (choose another directory)",
                             command: "langbench init")
        }
        // All or nothing: a suite missing a file would fail later, far from the cause; what was written is taken back.
        var written: [URL] = []
        do {
            for file in files {
                let url = directory.appendingPathComponent(file.path)
                try ReportError.writing(url) {
                    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                    try Data(file.contents.utf8).write(to: url, options: .withoutOverwriting)
                }
                written.append(url)
            }
        } catch {
            // try?: taking back is best effort; the write's error is the one to report.
            for url in written { try? FileManager.default.removeItem(at: url) }
            throw error
        }
        context.stdout.write("wrote a suite into \(directory.standardizedFileURL.path): \(files.map(\.path).joined(separator: ", "))\n")
        context.stdout.write("next: langbench run --config \(directory.appendingPathComponent(SuiteTemplate.suiteFile).standardizedFileURL.path)\n")
        return .success
    }
}
