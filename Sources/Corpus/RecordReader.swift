
/// Turns the lines of one file, a block at a time, into raw records in the file's format; what a
/// format carries from block to block (the header of delimited files, a quoted CSV cell spanning
/// lines) stays here.
struct RecordReader {
    private enum State {
        case delimited(DelimitedReader)
        case jsonl, lines, tatoeba
    }

    let file: CorpusFile
    let format: CorpusFormat
    private var state: State

    init(file: CorpusFile, format: CorpusFormat) {
        self.file = file
        self.format = format
        switch format {
        case .tsv, .csv: state = .delimited(DelimitedReader(file: file.path, format: format))
        case .jsonl: state = .jsonl
        case .lines: state = .lines
        case .tatoeba: state = .tatoeba
        }
    }

    /// The records and problems of `lines`, and the rows the format skips by definition (Tatoeba's
    /// undetermined language).
    mutating func read(_ lines: [TextLines.Line]) -> (result: FileReadResult, skipped: Int) {
        switch state {
        case .delimited(var reader):
            let result = reader.read(lines)
            state = .delimited(reader)
            return (result, 0)
        case .jsonl:
            return (JSONLReader.read(lines: lines, file: file.path), 0)
        case .lines:
            return (LinesReader.read(lines: lines, file: file.path, idPrefix: file.idPrefix ?? file.path, lang: file.lang ?? "", tag: file.tag), 0)
        case .tatoeba:
            return TatoebaReader.read(lines: lines, file: file.path)
        }
    }

    /// Whether blocks from here on read the same on any copy of this reader, in any order: true once a
    /// TSV's header is read and always for line formats; never for CSV (a quoted cell spans lines).
    var readsBlocksIndependently: Bool {
        switch state {
        case .delimited(let reader): return format == .tsv && reader.hasReadHeader
        case .jsonl, .lines, .tatoeba: return true
        }
    }

    /// The columns of a TSV past its accepted header, whose blocks `PlainTSVRows` may read; nil otherwise.
    var tsvLayout: TSVLayout? {
        if case .delimited(let reader) = state { return reader.tsvLayout }
        return nil
    }

    /// Problems only the end of the file reveals (a CSV quoted cell never closed).
    func finish() -> [CorpusProblem] {
        if case .delimited(let reader) = state { return reader.finish() }
        return []
    }
}
