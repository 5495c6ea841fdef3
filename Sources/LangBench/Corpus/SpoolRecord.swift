/// One record of a spool file as its bytes (`ItemCoding`: length, then payload), with what merging needs
/// read in place: the sequence number, file number, line and id.
struct SpoolRecord {
    /// The whole record, length prefix included: written out as is.
    let bytes: [UInt8]

    /// Payload offsets (after the 4-byte length): sequence 0, file 8, line 12, id length 16, id 20.
    private static let idStart = 4 + 20

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
        let a = bytes[idRange], b = other.bytes[other.idRange]
        if a.elementsEqual(b) { return true }
        if Self.isASCII(a) && Self.isASCII(b) { return false }
        return id == other.id
    }

    /// Canonical order, as `ItemSpool.before` orders items: by id as `String`s compare (by bytes when both
    /// are ASCII, where the two orders agree), then by file order.
    func isBefore(_ other: SpoolRecord) -> Bool {
        let a = bytes[idRange], b = other.bytes[other.idRange]
        if Self.isASCII(a) && Self.isASCII(b) {
            if a.elementsEqual(b) { return sequence < other.sequence }
            return a.lexicographicallyPrecedes(b)
        }
        let idA = id, idB = other.id
        return idA == idB ? sequence < other.sequence : idA < idB
    }

    private static func isASCII(_ bytes: ArraySlice<UInt8>) -> Bool {
        bytes.allSatisfy { $0 < 0x80 }
    }

    private func integer<T: FixedWidthInteger>(at offset: Int, _: T.Type) -> T {
        var value: T = 0
        for k in 0..<(T.bitWidth / 8) { value |= T(bytes[offset + k]) << (8 * k) }
        return value
    }
}
