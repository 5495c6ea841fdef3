import Support
import Corpus

/// `langbench corpus stats PATH...`: counts per language, tag and length bucket.
struct CorpusStatsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "stats",
        abstract: "Print item counts per language, tag and length bucket.",
        discussion: "Length buckets: 1 word, 2-3, 4-8, 9+ (Japanese and Chinese by characters: 1-2, 3-6, 7-16, 17+).",
        arguments: [ArgumentSpec("paths", help: "Corpus files or folders.", repeating: true)],
        groups: [CorpusOptions.group, OptionGroup("Output", [.flag("json", help: "Print JSON instead of Markdown tables.")])]
    )

    let paths: [String]
    let corpus: CorpusOptions
    let json: Bool

    init(_ arguments: ParsedArguments) throws {
        paths = arguments.positionals
        corpus = try CorpusOptions(arguments)
        json = arguments.flag("json")
    }

    func run(_ context: CommandContext) async throws -> ExitStatus {
        let stats = CorpusStatistics(try corpus.loader.load(paths))
        context.stdout.write(json ? stats.report.json : stats.report.markdown)
        return .success
    }
}
