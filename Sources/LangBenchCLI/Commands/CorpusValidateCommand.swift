import Corpus

/// `langbench corpus validate PATH...`: every problem as `file:line: message`, exit 65 when any.
struct CorpusValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "validate",
        abstract: "Check corpus files and report every problem as file:line: message.",
        discussion: """
        Checks: header columns, language codes, empty text, duplicate ids (across all paths), invalid UTF-8, \
        text over \(CorpusLimits.maxTextLength) characters, malformed history. A BOM and CRLF line ends are accepted. \
        Markdown and dot files are skipped. Exit 0 when clean, 65 when any problem is found.
        """,
        arguments: [ArgumentSpec("paths", help: "Corpus files or folders.", repeating: true)],
        groups: [CorpusOptions.group]
    )

    let paths: [String]
    let corpus: CorpusOptions

    init(_ arguments: ParsedArguments) throws {
        paths = arguments.positionals
        corpus = try CorpusOptions(arguments)
    }

    func run(_ context: CommandContext) async throws -> ExitStatus {
        let outcome = try corpus.loader.read(paths)
        for path in outcome.skippedPaths { context.note("note: skipped \(path) (not a corpus file)") }
        if outcome.skippedRows > 0 { context.note("note: skipped \(outcome.skippedRows) row(s) with undetermined language") }
        for problem in outcome.problems { context.stdout.write("\(problem)\n") }
        let files = outcome.corpus.sources.count
        if outcome.problems.isEmpty && files == 0 { throw CorpusError.empty(paths: paths) }
        if outcome.problems.isEmpty {
            context.stdout.write("ok: \(outcome.corpus.items.count) items in \(files) file(s)\n")
            return .success
        }
        context.stderr.write("\(outcome.problems.count) problem(s) in \(files) file(s)\n")
        return .dataError
    }
}
