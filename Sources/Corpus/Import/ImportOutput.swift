import Foundation
import Support

/// The files `corpus import` writes and the table it prints.
package enum ImportOutput {
    /// The corpus (`id lang text tags`) and the ambiguity list (`id langs text sources`), both TSV with a header.
    package static func write(_ result: CorpusImport.Result, corpus: String, ambiguous: String) throws(ReportError) {
        var text = "id\tlang\ttext\ttags\n"
        for item in result.items { text += "\(item.id)\t\(item.lang.identifier)\t\(item.text)\t\(item.sortedTags.joined(separator: ";"))\n" }
        try AtomicFile.write(text, to: URL(fileURLWithPath: corpus))
        var shared = "id\tlangs\ttext\tsources\n"
        for (index, entry) in result.ambiguous.enumerated() {
            shared += "amb-\(index + 1)\t\(entry.languages.map(\.identifier).joined(separator: ";"))\t\(entry.text)\t\(entry.sources.joined(separator: ";"))\n"
        }
        try AtomicFile.write(shared, to: URL(fileURLWithPath: ambiguous))
    }

    /// Per language: the items written by source and length slice, the unique candidates there were, and the
    /// strings left out by reason.
    package static func table(_ result: CorpusImport.Result) -> ReportTable {
        let sources = Set(result.available.values.flatMap(\.keys)).sorted()
        let slices = ["single-words", "word-pairs", "sentences"]
        var table = ReportTable(title: "Imported items per language", columns: [ReportTable.Column("lang"), .numeric("items")]
            + sources.map { .numeric("source_\($0)", title: $0) } + slices.map { .numeric($0) }
            + [.numeric("candidates"), ReportTable.Column("left_out")])
        let languages = Set(result.available.keys).union(result.rejected.keys).sorted()
        for language in languages {
            let items = result.items.filter { $0.lang == language }
            let row: [ReportCell] = [.text(language.identifier), .int(items.count)]
                + sources.map { source in .int(items.filter { $0.hasTag("source:\(source)") }.count) }
                + slices.map { slice in .int(items.filter { $0.hasTag(slice) }.count) }
                + [.int(result.available[language]?.values.reduce(0, +) ?? 0),
                   .text((result.rejected[language] ?? [:]).sorted { ($1.value, $0.key) < ($0.value, $1.key) }
                        .map { "\($0.key) \($0.value)" }.joined(separator: ", "))]
            table.append(row)
        }
        return table
    }

    package static func summary(_ result: CorpusImport.Result) -> String {
        MarkdownWriter.render(table(result)) + "\n\(result.ambiguous.count) texts found in more than one language (not in the corpus).\n"
    }
}
