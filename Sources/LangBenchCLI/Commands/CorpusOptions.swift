import Corpus

/// Options shared by every command that reads corpora.
struct CorpusOptions {
    static let group = OptionGroup("Corpus options", [
        .value("format", "format", help: "Read every corpus as this format instead of detecting it: tsv, csv, jsonl, lines, tatoeba."),
    ])

    var format: CorpusFormat?

    init(_ arguments: ParsedArguments) throws {
        format = try arguments.optionalChoice("format", as: CorpusFormat.self)
    }

    var loader: CorpusLoader { CorpusLoader(format: format) }
}
