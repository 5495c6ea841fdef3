import Foundation

/// One record of a spool file as its bytes (`ItemCoding`: length, then payload), with what merging needs
/// read in place: the sequence number, file number, line and id. Refilled in place as its run is read
/// on (`SpoolReader.next(into:)`), so that merging allocates nothing per record.
struct SpoolRecord {
    /// The whole record, length prefix included: written out as is.
    private(set) var bytes: [UInt8]
    /// Whether the id is ASCII, where comparing bytes is comparing `String`s (checked once per record,
    /// not at every comparison).
    private var idIsASCII = true

    /// Payload offsets (after the 4-byte length): sequence 0, file 8, line 12, id length 16, id 20.
    private static let idStart = 4 + 20

    /// `bytes` holds a whole record, or none (a record to be filled by `replace`).
    init(bytes: [UInt8] = []) {
        self.bytes = bytes
        if !bytes.isEmpty { idIsASCII = isIDASCII }
    }

    /// Replaces the record with `record` (a whole record's bytes), reusing this one's storage.
    mutating func replace(with record: UnsafeRawBufferPointer) {
        bytes.removeAll(keepingCapacity: true)
        bytes.append(contentsOf: record)
        idIsASCII = isIDASCII
    }

    var sequence: UInt64 { integer(at: 4, UInt64.self) }
    var file: Int { Int(integer(at: 12, UInt32.self)) }
    var line: Int { Int(integer(at: 16, UInt32.self)) }
    private var idRange: Range<Int> { Self.idStart..<(Self.idStart + Int(integer(at: 20, UInt32.self))) }

    /// Where the record's item was read from.
    func source(_ files: [String]) -> SourceLocation {
        ItemCoding.location(file: file, line: line, files: files)
    }

    /// The id, decoded (for messages).
    var id: String { String(decoding: bytes[idRange], as: UTF8.self) }

    /// Whether the ids are equal as `String`s are (canonical equivalence): by bytes when both are ASCII.
    func hasSameID(as other: SpoolRecord) -> Bool {
        if compareIDBytes(other) == 0 { return true }
        if idIsASCII && other.idIsASCII { return false }
        return id == other.id
    }

    /// Canonical order, as `ItemSpool.before` orders items: by id as `String`s compare (by bytes when both
    /// are ASCII, where the two orders agree), then by file order.
    func isBefore(_ other: SpoolRecord) -> Bool {
        if idIsASCII && other.idIsASCII {
            let order = compareIDBytes(other)
            return order == 0 ? sequence < other.sequence : order < 0
        }
        let idA = id, idB = other.id
        return idA == idB ? sequence < other.sequence : idA < idB
    }

    /// The ids' byte order: negative, zero or positive as this id's bytes come before, equal or after.
    private func compareIDBytes(_ other: SpoolRecord) -> Int {
        let a = idRange, b = other.idRange
        let common = min(a.count, b.count)
        let order = bytes.withUnsafeBytes { mine in
            other.bytes.withUnsafeBytes { theirs in
                common == 0 ? 0 : Int(memcmp(mine.baseAddress! + a.lowerBound, theirs.baseAddress! + b.lowerBound, common))
            }
        }
        return order != 0 ? order : a.count - b.count
    }

    private var isIDASCII: Bool {
        bytes[idRange].allSatisfy { $0 < 0x80 }
    }

    private func integer<T: FixedWidthInteger>(at offset: Int, _: T.Type) -> T {
        bytes.withUnsafeBytes { T(littleEndian: $0.loadUnaligned(fromByteOffset: offset, as: T.self)) }
    }
}
