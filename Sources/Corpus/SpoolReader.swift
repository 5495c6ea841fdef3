import Support
import Foundation
import ByteIO

/// Reads the records of a spool file (`ItemCoding`) one at a time through a block buffer.
final class SpoolReader {
    private let url: URL
    private let handle: FileHandle
    private let files: [String]
    private let blockSize: Int
    private var buffer: [UInt8] = []
    private var offset = 0
    private var ended = false
    private var memo = ItemCoding.Memo()

    init(url: URL, files: [String], blockSize: Int = 1 << 18) throws {
        self.url = url
        self.files = files
        self.blockSize = blockSize
        do {
            handle = try FileHandle(forReadingFrom: url)
        } catch {
            throw CorpusError.unreadable(path: url.path, reason: "spooled items: \((error as NSError).localizedDescription)")
        }
    }

    deinit { try? handle.close() }  // read-only: nothing to lose on close

    /// The next item and its sequence number, or nil at the end of the file.
    func next() throws -> (item: CorpusItem, sequence: UInt64)? {
        guard try available(4) else { return nil }
        let length = buffer.withBytes { ItemCoding.payloadLength($0[offset..<(offset + 4)]) }
        _ = try available(4 + length)
        let record = buffer.withBytes { ItemCoding.decode($0[(offset + 4)..<(offset + 4 + length)], files: files, memo: &memo) }
        offset += 4 + length
        return record
    }

    /// Reads the next record into `record` (reusing its storage); false at the end of the file.
    func next(into record: inout SpoolRecord) throws -> Bool {
        guard try available(4) else { return false }
        let length = buffer.withBytes { ItemCoding.payloadLength($0[offset..<(offset + 4)]) }
        _ = try available(4 + length)
        buffer.withBytes { record.replace(with: $0[offset..<(offset + 4 + length)]) }
        offset += 4 + length
        return true
    }

    /// Makes at least `count` unread bytes available: false when the file ended cleanly between
    /// records, an error when it ends inside one.
    private func available(_ count: Int) throws -> Bool {
        while buffer.count - offset < count {
            if ended {
                if buffer.count == offset { return false }
                throw CorpusError.unreadable(path: url.path, reason: "spooled items: the file ends inside a record")
            }
            if offset > 0 {
                buffer.removeSubrange(0..<offset)
                offset = 0
            }
            let block: Data
            do {
                block = try handle.readBlock(upTo: max(blockSize, count))
            } catch {
                throw CorpusError.unreadable(path: url.path, reason: "spooled items: \((error as NSError).localizedDescription)")
            }
            if block.isEmpty { ended = true } else { buffer.append(contentsOf: block) }
        }
        return true
    }
}
