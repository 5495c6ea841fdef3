import Support
import Foundation
import ByteIO

extension CorpusLoader {
    /// Reads the valid items of one file into `sink` in file order, adding what else it learns to
    /// `pass`. Blocks that read alike on any thread (past a TSV's header; every block of JSONL, lines and
    /// Tatoeba) are parsed and validated `workers` at a time while this thread reads the file on and
    /// hands items over in order; what comes out is what reading one block after another gives.
    func readItems(of file: CorpusFile, into pass: inout Pass, codes: inout ItemValidator.CodeCache, _ sink: ItemSink) throws {
        // The ids-only pass of `loadSorted` does not hash: a replay hashes the files as detection reads them.
        var chunks = try FileChunks(path: file.path, blockSize: blockSize, hashing: !sink.onlyIDs)
        var reader: RecordReader?
        var tally = FileTally()
        // One block more in flight than workers, so that this thread reads on while both parse: loading
        // 1 M items alone took 0.20 s of CPU instead of 0.22 (16 alternations on two cores).
        let work = OrderedWork<BlockReader.Outcome>(width: workers > 1 ? workers + 1 : 1)
        func take(_ outcome: BlockReader.Outcome) throws {
            // Only a cache (same value for a spelling wherever it is computed): a block's new codes are
            // kept when it knows more than this thread does, which is enough to stop repeated look-ups.
            if outcome.codes.count > codes.count { codes.merge(outcome.codes) { kept, _ in kept } }
            try tally.add(outcome, into: &pass, sink)
        }
        while let block = try chunks.nextBlock() {
            if reader == nil { reader = try makeReader(for: file) { TextLines(block).lines.first?.text } }
            if workers > 1, reader!.readsBlocksIndependently {
                let copy = reader!, known = codes, path = file.path, onlyIDs = sink.onlyIDs
                work.submit {
                    var reader = copy
                    return BlockReader.read(block, path: path, with: &reader, codes: known, onlyIDs: onlyIDs)
                }
                if work.isFull, let done = work.next() { try take(done) }
            } else {
                try take(BlockReader.read(block, path: file.path, with: &reader!, codes: codes, onlyIDs: sink.onlyIDs))
            }
        }
        while let done = work.next() { try take(done) }
        if reader == nil { reader = try makeReader(for: file) { nil } }
        tally.finish(file, reader: reader!, sha256: chunks.hashes ? chunks.sha256 : "", into: &pass)
    }

    /// The reader of `file` in the forced format, else the one its path implies, else the one its
    /// extension and first line (asked only if needed) suggest.
    func makeReader(for file: CorpusFile, firstLine: () -> String?) throws -> RecordReader {
        guard let format = format ?? file.impliedFormat ?? CorpusFormat.detect(at: URL(fileURLWithPath: file.path), firstLine: firstLine()) else {
            throw CorpusError.unknownFormat(path: file.path)
        }
        return RecordReader(file: file, format: format)
    }
}

/// What reading one file has found so far besides its problems.
private struct FileTally {
    var items = 0
    var skipped = 0
    var sawRecordOrProblem = false
    var sawText = false

    /// Adds a block's problems to `pass` and hands its items (or their ids' order) to `sink`.
    mutating func add(_ outcome: BlockReader.Outcome, into pass: inout CorpusLoader.Pass, _ sink: ItemSink) throws {
        pass.problems += outcome.problems
        skipped += outcome.skipped
        sawRecordOrProblem = sawRecordOrProblem || outcome.sawRecordOrProblem
        sawText = sawText || outcome.sawText
        switch sink {
        case .items(let body):
            for item in outcome.items {
                try body(item)
                items += 1
            }
        case .ids(let body):
            try body(outcome.ids)
            items += outcome.ids.count
        }
    }

    /// Adds what only the end of the file tells, and the file as a source.
    func finish(_ file: CorpusFile, reader: RecordReader, sha256: String, into pass: inout CorpusLoader.Pass) {
        let ending = reader.finish()
        pass.problems += ending
        pass.skippedRows += skipped
        // A file that holds nothing is a mistake (a wrong path, a truncated export), not "ok: 0 items".
        if !sawRecordOrProblem && ending.isEmpty && skipped == 0 {
            pass.problems.append(CorpusProblem(SourceLocation(file: file.path, line: 1), sawText ? "a header but no items" : "no items (empty file)"))
        }
        pass.sources.append(CorpusSource(path: file.path, format: reader.format, sha256: sha256, items: items,
                                         packages: SourcePackage.listed(beside: file.path)))
    }
}
