import ByteIO

/// Items in their spool encoding (`ItemCoding`), one record after another in one buffer, in the order
/// they were added: what `ItemSpool` keeps of a run before it is written. Encoding on arrival keeps no
/// item (and none of its strings) alive, and a run in order is written as it is, in one copy.
struct EncodedRun {
    private(set) var bytes: [UInt8] = []
    /// Where each record starts in `bytes`.
    private(set) var starts: [Int] = []

    var count: Int { starts.count }

    mutating func append(_ item: CorpusItem, sequence: UInt64, file: UInt32) {
        starts.append(bytes.count)
        ItemCoding.encode(item, sequence: sequence, file: file, into: &bytes)
    }

    /// The items back, each with its sequence number, in the order added.
    func decoded(files: [String]) -> [(item: CorpusItem, sequence: UInt64)] {
        var memo = ItemCoding.Memo()
        return bytes.withBytes { raw in
            starts.map { start in
                let length = ItemCoding.payloadLength(raw[start..<(start + 4)])
                return ItemCoding.decode(raw[(start + 4)..<(start + 4 + length)], files: files, memo: &memo)
            }
        }
    }

    /// The positions of the records in canonical order (id as `String`s compare, then sequence), found by
    /// comparing their bytes in place, as merging does (`SpoolRecord.isBefore`).
    func canonicalOrder() -> [Int] {
        bytes.withBytes { raw in
            let keys = starts.map { SpoolRecord.Key(record: raw[$0...]) }
            return keys.indices.sorted { keys[$0].isBefore(keys[$1]) }
        }
    }

    /// The bytes of the record at `position`.
    func record(_ position: Int) -> ArraySlice<UInt8> {
        bytes[starts[position]..<(position + 1 < starts.count ? starts[position + 1] : bytes.count)]
    }
}
