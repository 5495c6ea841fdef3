import Foundation
import ByteIO

/// The spool's binary form of an item, read back exactly: a UInt32 payload length, then the payload —
/// sequence number (UInt64: the item's place in file order), file number and line (UInt32 each), id,
/// language and text (UInt32 length + UTF-8 each), tags (UInt16 count, sorted, each as a string) and
/// history (UInt16 count, each a role byte and a string). Little-endian throughout.
enum ItemCoding {
    /// Appends the record of `item` to `bytes`.
    static func encode(_ item: CorpusItem, sequence: UInt64, file: UInt32, into bytes: inout [UInt8]) {
        let lengthAt = bytes.count
        put(UInt32(0), into: &bytes)  // patched below
        put(sequence, into: &bytes)
        put(file, into: &bytes)
        put(UInt32(clamping: item.source.line), into: &bytes)
        put(item.id, into: &bytes)
        put(item.lang.identifier, into: &bytes)
        put(item.text, into: &bytes)
        let tags = item.sortedTags
        put(UInt16(clamping: tags.count), into: &bytes)
        for tag in tags.prefix(Int(UInt16.max)) { put(tag, into: &bytes) }
        put(UInt16(clamping: item.history.count), into: &bytes)
        for turn in item.history.prefix(Int(UInt16.max)) {
            bytes.append(turn.role == .user ? 0 : 1)
            put(turn.text, into: &bytes)
        }
        let length = UInt32(bytes.count - lengthAt - 4)
        for k in 0..<4 { bytes[lengthAt + k] = UInt8(truncatingIfNeeded: length >> (8 * UInt32(k))) }
    }

    /// What decoding remembers from one record to the next: the items of a corpus share a handful of
    /// language codes and tag lists, which are then decoded once and shared (no array per item).
    struct Memo {
        fileprivate var lang: (bytes: [UInt8], code: LanguageCode)?
        fileprivate var tags: (bytes: [UInt8], tags: [String])?

        /// Whether `remembered` are the bytes of `field` (a comparison run per record: `memcmp`).
        fileprivate static func holds(_ remembered: [UInt8]?, _ field: ByteView) -> Bool {
            remembered.map(field.equals) ?? false
        }
    }

    /// The item of one record's payload (the bytes after its length), with its sequence number;
    /// `files` names the file numbers.
    static func decode(_ payload: ByteView, files: [String]) -> (item: CorpusItem, sequence: UInt64) {
        var memo = Memo()
        return decode(payload, files: files, memo: &memo)
    }

    /// `decode(_:files:)`, reusing what `memo` remembers of the records before.
    static func decode(_ payload: ByteView, files: [String], memo: inout Memo) -> (item: CorpusItem, sequence: UInt64) {
        var reader = Reader(bytes: payload)
        let sequence = reader.integer(UInt64.self)
        let file = Int(reader.integer(UInt32.self))
        let line = Int(reader.integer(UInt32.self))
        let id = reader.string()
        let langBytes = reader.field { $0.skipString() }
        if !Memo.holds(memo.lang?.bytes, langBytes) {
            var field = Reader(bytes: langBytes)
            memo.lang = (Array(langBytes), LanguageCode(normalised: field.string()))
        }
        let text = reader.string()
        let tagBytes = reader.field { tags in
            for _ in 0..<Int(tags.integer(UInt16.self)) { tags.skipString() }
        }
        if !Memo.holds(memo.tags?.bytes, tagBytes) {
            var field = Reader(bytes: tagBytes)
            let count = Int(field.integer(UInt16.self))
            var tags: [String] = []
            if count > 0 { tags.reserveCapacity(count) }
            for _ in 0..<count { tags.append(field.string()) }  // written sorted and unique (`sortedTags`)
            memo.tags = (Array(tagBytes), tags)
        }
        let lang = memo.lang!.code, tags = memo.tags!.tags
        var history: [Turn] = []
        for _ in 0..<Int(reader.integer(UInt16.self)) {
            let role: Turn.Role = reader.integer(UInt8.self) == 0 ? .user : .assistant
            history.append(Turn(role: role, text: reader.string()))
        }
        let source = location(file: file, line: line, files: files)
        return (CorpusItem(id: id, lang: lang, text: text, sortedTags: tags, history: history, source: source), sequence)
    }

    /// Where a record's item was read from, given its file number and line.
    static func location(file: Int, line: Int, files: [String]) -> SourceLocation {
        SourceLocation(file: file < files.count ? files[file] : "<spool>", line: line)
    }

    /// The payload length a record starts with, read from its first four bytes.
    static func payloadLength(_ bytes: ByteView) -> Int {
        var reader = Reader(bytes: bytes)
        return Int(reader.integer(UInt32.self))
    }

    private static func put<T: FixedWidthInteger>(_ value: T, into bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }  // one copy, not a byte at a time
    }

    private static func put(_ text: String, into bytes: inout [UInt8]) {
        var text = text
        text.withUTF8 { utf8 in
            put(UInt32(utf8.count), into: &bytes)
            bytes.append(contentsOf: utf8)
        }
    }

    private struct Reader {
        let bytes: ByteView
        var offset = 0

        mutating func integer<T: FixedWidthInteger>(_: T.Type) -> T {
            var value: T = 0
            for k in 0..<(T.bitWidth / 8) { value |= T(bytes[offset + k]) << (8 * k) }
            offset += T.bitWidth / 8
            return value
        }

        /// The bytes that `read` moves over (a field whose decoding is remembered by its bytes).
        mutating func field(_ read: (inout Reader) -> Void) -> ByteView {
            let start = offset
            read(&self)
            return bytes[start..<offset]
        }

        mutating func skipString() {
            offset += Int(integer(UInt32.self))
        }

        mutating func string() -> String {
            let count = Int(integer(UInt32.self))
            defer { offset += count }
            return bytes.string(offset..<(offset + count))
        }
    }
}
