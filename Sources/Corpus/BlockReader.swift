import Foundation


/// Turns one block of a file's lines into valid items and problems: the work `CorpusLoader` does per
/// block, the same whether blocks are read one after the other or several at once on worker threads.
enum BlockReader {
    /// What one block yields.
    struct Outcome: Sendable {
        var items: [CorpusItem] = []
        /// The order of the valid items' ids instead of the items, when read for ids only.
        var ids = IDRun()
        /// In the order a serial read finds them: invalid UTF-8, then the format's, then validation's.
        var problems: [CorpusProblem] = []
        /// Rows the format skips by definition (Tatoeba's undetermined language).
        var skipped = 0
        /// Whether the block held a record or a problem (a file with neither is reported empty).
        var sawRecordOrProblem = false
        /// Whether the block held a line that is not blank.
        var sawText = false
        /// `codes` as given, with the codes first met in this block.
        var codes: ItemValidator.CodeCache = [:]

        /// Adds what the block right after this one yields (read with this outcome's `codes`).
        mutating func append(_ next: Outcome) {
            items += next.items
            ids.append(next.ids)
            problems += next.problems
            skipped += next.skipped
            sawRecordOrProblem = sawRecordOrProblem || next.sawRecordOrProblem
            sawText = sawText || next.sawText
            codes = next.codes
        }
    }

    /// Reads `block` of `path` with `reader`, as `read(TextLines(block), …)` does: straight from its bytes
    /// when it holds only plain TSV rows (`PlainTSVRows`), else line by line. A TSV's first block is read
    /// as two, its first line (the header, line by line) and the rest (which may then be plain rows), as
    /// a block boundary after the first line would cut it. `onlyIDs` gives the order of the valid items'
    /// ids in place of the items (plain rows then make no item at all).
    static func read(_ block: LineBlock, path: String, with reader: inout RecordReader, codes: ItemValidator.CodeCache,
                     onlyIDs: Bool = false) -> Outcome {
        if let layout = reader.tsvLayout,
           let outcome = PlainTSVRows.read(block, path: path, layout: layout, codes: codes, onlyIDs: onlyIDs) {
            return outcome
        }
        if block.fileStart, reader.format == .tsv, reader.tsvLayout == nil, let (head, rest) = block.cutAfterFirstLine() {
            var outcome = read(TextLines(head), path: path, with: &reader, codes: codes, onlyIDs: onlyIDs)
            outcome.append(read(rest, path: path, with: &reader, codes: outcome.codes, onlyIDs: onlyIDs))
            return outcome
        }
        return read(TextLines(block), path: path, with: &reader, codes: codes, onlyIDs: onlyIDs)
    }

    /// Reads `lines` of `path` with `reader` (which carries state from block to block when its format
    /// has any), validating each record; `codes` caches normalised language codes.
    static func read(_ lines: TextLines, path: String, with reader: inout RecordReader, codes: ItemValidator.CodeCache,
                     onlyIDs: Bool = false) -> Outcome {
        var outcome = Outcome(codes: codes)
        outcome.problems = lines.invalidUTF8.map { CorpusProblem(SourceLocation(file: path, line: $0), "invalid UTF-8") }
        let (result, skipped) = reader.read(lines.lines)
        outcome.skipped = skipped
        outcome.problems += result.problems
        outcome.sawRecordOrProblem = !result.records.isEmpty || !outcome.problems.isEmpty
        outcome.sawText = lines.lines.contains { !$0.text.trimmingCharacters(in: .whitespaces).isEmpty }
        outcome.items.reserveCapacity(result.records.count)
        for record in result.records {
            if let item = ItemValidator.validate(record, problems: &outcome.problems, codes: &outcome.codes) {
                outcome.items.append(item)
            }
        }
        if onlyIDs {
            outcome.ids = IDRun(outcome.items.map(\.id))
            outcome.items = []
        }
        return outcome
    }
}
