import LangBench

/// Options shared by every command that reads corpora.
struct CorpusOptions {
    static let group = OptionGroup("Corpus options", [
        .value("format", "format", help: "Read every corpus as this format instead of detecting it: tsv, csv, jsonl, lines, tatoeba."),
    ])

    var format: CorpusFormat?

    init(_ arguments: ParsedArguments) throws {
        format = arguments.value("format") == nil ? nil : try arguments.choice("format", default: CorpusFormat.tsv)
    }

    var loader: CorpusLoader { CorpusLoader(format: format) }
}
