import Foundation
import ByteIO

/// One record of a spool file as its bytes (`ItemCoding`: length, then payload), with what merging needs
/// read in place: the sequence number, file number, line and id. Refilled in place as its run is read
/// on (`SpoolReader.next(into:)`), so that merging allocates nothing per record.
struct SpoolRecord {
    /// The whole record, length prefix included: written out as is.
    private(set) var bytes: [UInt8]
    /// Whether the id is ASCII (checked once per record, not at every comparison).
    private var idIsASCII = true

    /// Payload offsets (after the 4-byte length): sequence 0, file 8, line 12, id length 16, id 20.
    fileprivate static let idStart = 4 + 20

    /// `bytes` holds a whole record, or none (a record to be filled by `replace`).
    init(bytes: [UInt8] = []) {
        self.bytes = bytes
        if !bytes.isEmpty { idIsASCII = bytes.withBytes { Key(record: $0).isASCII } }
    }

    /// Replaces the record with `record` (a whole record's bytes), reusing this one's storage.
    mutating func replace(with record: ByteView) {
        bytes.removeAll(keepingCapacity: true)
        bytes.append(contentsOf: record)
        idIsASCII = Key(record: record).isASCII
    }

    var sequence: UInt64 { integer(at: 4, UInt64.self) }
    var file: Int { Int(integer(at: 12, UInt32.self)) }
    var line: Int { Int(integer(at: 16, UInt32.self)) }

    /// Where the record's item was read from.
    func source(_ files: [String]) -> SourceLocation {
        ItemCoding.location(file: file, line: line, files: files)
    }

    /// The id, decoded (for messages).
    var id: String { withKeys(self) { key, _ in key.id } }

    /// Whether the ids are equal as `String`s are (canonical equivalence).
    func hasSameID(as other: SpoolRecord) -> Bool { withKeys(other) { $0.hasSameID(as: $1) } }

    /// Canonical order, as `ItemSpool.before` orders items: by id as `String`s compare, then by file order.
    func isBefore(_ other: SpoolRecord) -> Bool { withKeys(other) { $0.isBefore($1) } }

    private func withKeys<T>(_ other: SpoolRecord, _ body: (Key, Key) -> T) -> T {
        bytes.withBytes { mine in
            other.bytes.withBytes { theirs in
                body(Key(record: mine, idIsASCII: idIsASCII), Key(record: theirs, idIsASCII: other.idIsASCII))
            }
        }
    }

    private func integer<T: FixedWidthInteger>(at offset: Int, _: T.Type) -> T {
        bytes.withBytes { $0.load(littleEndian: T.self, at: offset) }
    }

    /// What orders a record, read in place from its bytes (valid while they are): its id's bytes and
    /// sequence number. Ids compare by bytes when both are ASCII, where byte order and `String` order
    /// agree, and as `String`s otherwise.
    struct Key {
        let idBytes: ByteView
        let isASCII: Bool
        let sequence: UInt64
        /// The id's first 8 bytes as a big-endian integer, zero-padded: ids whose prefixes differ are
        /// ordered by them as by their bytes, with no call to `memcmp` (most comparisons of a sort).
        let prefix: UInt64

        /// The key of the record that starts `record`; `idIsASCII` when already known.
        init(record: ByteView, idIsASCII: Bool? = nil) {
            sequence = record.load(littleEndian: UInt64.self, at: 4)
            let count = Int(record.load(littleEndian: UInt32.self, at: 20))
            idBytes = record[SpoolRecord.idStart..<(SpoolRecord.idStart + count)]
            isASCII = idIsASCII ?? idBytes.allSatisfy { $0 < 0x80 }
            var prefix: UInt64 = 0
            for k in 0..<8 { prefix = prefix << 8 | UInt64(k < count ? idBytes[k] : 0) }
            self.prefix = prefix
        }

        var id: String { idBytes.string }

        func hasSameID(as other: Key) -> Bool {
            if compareBytes(other) == 0 { return true }
            if isASCII && other.isASCII { return false }
            return id == other.id
        }

        func isBefore(_ other: Key) -> Bool {
            if isASCII && other.isASCII {
                if prefix != other.prefix { return prefix < other.prefix }
                let order = compareBytes(other)
                return order == 0 ? sequence < other.sequence : order < 0
            }
            let a = id, b = other.id
            return a == b ? sequence < other.sequence : a < b
        }

        /// Negative, zero or positive as this id's bytes come before, equal or after the other's.
        private func compareBytes(_ other: Key) -> Int {
            idBytes.compare(other.idBytes)
        }
    }
}
