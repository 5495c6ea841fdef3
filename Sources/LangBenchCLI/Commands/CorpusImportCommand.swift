import Corpus
import Foundation
import Support

/// `langbench corpus import [SOURCE:]LANG=PATH...`: localisation files into a detection corpus and an ambiguity list.
struct CorpusImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "import",
        abstract: "Turn localisation files (.po, .mo, .ftl, CLDR annotations, .xcstrings, .strings) into a detection corpus.",
        discussion: """
        Each input is [SOURCE:]LANG=PATH (a file or a folder searched for those formats); a String Catalog may be \
        given as [SOURCE:]PATH to take every language in it. Strings are kept when they are 1 to --max-words words \
        (Japanese and Chinese: up to --max-characters characters), every letter is in the language's script, and \
        they hold no digit, no --reject-characters character and no copy of the English source. A text found in \
        more than one language goes to --ambiguous, never into the corpus. Each language's items are dealt evenly \
        across sources (none above --max-source-share) and length buckets, in an order keyed on the text and \
        --seed. Items are tagged source:NAME, cluster:NAME (emoji code points, .ftl file, gettext domain), the \
        length slice (single-words, word-pairs, sentences), corpus:NAME with --corpus-tag and, for the Cyrillic languages, unique-letter or \
        no-unique-letter. Exit 0 when written; 64 for a malformed input spec; 65 for an unreadable, malformed or \
        empty input, naming the file and line.
        """,
        arguments: [ArgumentSpec("inputs", help: "[SOURCE:]LANG=PATH, or [SOURCE:]PATH for a String Catalog.", repeating: true)],
        groups: [OptionGroup("Output", [
            .value("out", "FILE", help: "The corpus TSV to write (id lang text tags)."),
            .value("ambiguous", "FILE", help: "Where texts found in several languages go (id langs text sources).", computedDefault: "OUT with .ambiguous.tsv"),
            .value("per-language", "N", help: "Items wanted per language.", default: "2000"),
            .value("max-source-share", "FRACTION", help: "Largest share of a language's items one source may give.", default: "0.5"),
            .value("seed", "N", help: "Seed of the order items are drawn in.", default: "42"),
            .value("id-prefix", "TEXT", help: "Prefix of every item id.", default: "out"),
            .value("corpus-tag", "NAME", help: "Tag every item corpus:NAME, so a report slices the corpus on its own (letters, digits, -)."),
        ]), OptionGroup("Filters", [
            .value("max-words", "N", help: "Longest phrase in words.", default: "6"),
            .value("max-characters", "N", help: "Longest Japanese or Chinese phrase in characters.", default: "20"),
            .value("reject-characters", "CHARS", help: "Characters that mark a placeholder, markup or shortcut.",
                   default: String(PhraseFilter().rejectCharacters.sorted())),
            .value("skip-context", "PREFIXES", help: "Comma-separated gettext contexts or Fluent ids to skip.",
                   default: PhraseFilter().skipContexts.joined(separator: ",")),
        ])]
    )

    let importer: CorpusImport
    let out: String
    let ambiguous: String

    init(_ arguments: ParsedArguments) throws {
        let command = "langbench corpus import"
        guard !arguments.positionals.isEmpty else { throw UsageError("give at least one [SOURCE:]LANG=PATH input", command: command) }
        importer = try Self.importer(arguments, command: command)
        guard let out = arguments.value("out") else { throw UsageError("--out FILE is required", command: command) }
        self.out = out
        ambiguous = arguments.value("ambiguous") ?? (out.hasSuffix(".tsv") ? String(out.dropLast(4)) : out) + ".ambiguous.tsv"
    }

    static func importer(_ arguments: ParsedArguments, command: String) throws -> CorpusImport {
        var importer = CorpusImport(inputs: try arguments.positionals.map { try input($0, command: command) })
        importer.perLanguage = try arguments.int("per-language", range: 1...10_000_000)
        importer.seed = UInt64(try arguments.int("seed"))
        importer.idPrefix = try arguments.string("id-prefix")
        if let tag = arguments.value("corpus-tag") {
            guard !tag.isEmpty, tag.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }) else {
                throw UsageError("--corpus-tag must be letters, digits or '-', not '\(tag)'", command: command)
            }
            importer.corpusTag = tag
        }
        let share = try arguments.double("max-source-share")
        guard share > 0, share <= 1 else { throw UsageError("--max-source-share must be above 0 and at most 1, not \(share)", command: command) }
        importer.maxSourceShare = share
        importer.filter.maxWords = try arguments.int("max-words", range: 1...100)
        importer.filter.maxCharacters = try arguments.int("max-characters", range: 1...1000)
        importer.filter.rejectCharacters = Set(try arguments.string("reject-characters"))
        if arguments.isGiven("skip-context") { importer.filter.skipContexts = arguments.list("skip-context") }
        return importer
    }

    /// `[SOURCE:]LANG=PATH` or `[SOURCE:]PATH`.
    static func input(_ spec: String, command: String) throws -> CorpusImport.Input {
        var rest = Substring(spec), source: String?
        if let colon = rest.firstIndex(of: ":"), rest.firstIndex(of: "=").map({ colon < $0 }) ?? !rest[..<colon].contains("/") {
            source = String(rest[..<colon])
            rest = rest[rest.index(after: colon)...]
        }
        var language: LanguageCode?
        if let equals = rest.firstIndex(of: "=") {
            let code = String(rest[..<equals])
            do { language = try LanguageCode(code) } catch {
                throw UsageError("input '\(spec)': unknown language '\(code)'", command: command)
            }
            rest = rest[rest.index(after: equals)...]
        }
        let path = String(rest)
        guard !path.isEmpty else { throw UsageError("input '\(spec)': no path after LANG=", command: command) }
        guard language != nil || LocalisationFormat(path: path) == .xcstrings else {
            throw UsageError("input '\(spec)': give its language as LANG=PATH (only a String Catalog names its own)", command: command)
        }
        let name = source ?? LocalisationFormat(path: path)?.rawValue ?? "import"
        guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }) else {
            throw UsageError("input '\(spec)': a source name is letters, digits, '-' and '_'", command: command)
        }
        return CorpusImport.Input(source: name, language: language, path: path)
    }

    func run(_ context: CommandContext) async throws -> ExitStatus {
        let result = try importer.run()
        try ImportOutput.write(result, corpus: out, ambiguous: ambiguous)
        context.stdout.write(ImportOutput.summary(result))
        context.note("wrote \(result.items.count) items to \(out) and \(result.ambiguous.count) shared texts to \(ambiguous)")
        return .success
    }
}
