import Support
import Foundation
import ByteIO

/// A corpus file read a block at a time: whole lines only, numbered on across blocks, with the SHA-256
/// of every byte (computed on another thread, `BlockHasher`). Memory is a few blocks plus the line it
/// cut, whatever the size of the file.
struct FileChunks {
    /// Bytes read at a time (small enough that a few blocks parsed at once stay a few tens of MB).
    static let defaultBlockSize = 1 << 20

    private let path: String
    private let handle: FileHandle
    private let blockSize: Int
    /// The bytes after the last line end read so far (a line cut by the block boundary).
    private var carry = Data()
    private var nextLine = 1
    private var atStart = true
    private var ended = false
    /// Nil when not hashing.
    private let hasher: BlockHasher?

    /// Opens `path`, which must be a regular file (a FIFO or a device would block or never end).
    /// `hashing` false skips the SHA-256 (a file read again, whose hash is known).
    init(path: String, blockSize: Int = defaultBlockSize, hashing: Bool = true) throws {
        self.path = path
        self.blockSize = max(1, blockSize)
        hasher = hashing ? BlockHasher() : nil
        do {
            if let kind = FileKind.notRegular(path) { throw CorpusError.unreadable(path: path, reason: "\(kind); pass a corpus file or folder") }
            handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
        } catch let error as CorpusError {
            throw error
        } catch {
            throw CorpusError.unreadable(path: path, reason: FileKind.reason(error, path: path))
        }
    }

    /// The next run of whole lines (the last line of the file need not end in a newline), or nil at the
    /// end of the file.
    mutating func next() throws -> TextLines? {
        try nextBlock().map(TextLines.init)
    }

    /// The same run of lines, numbered but not yet decoded (decoding can then run on another thread).
    mutating func nextBlock() throws -> LineBlock? {
        while !ended {
            // A line longer than a block grows in place (appending is amortised); otherwise the next bytes
            // are read straight after a copy of the carry, into memory that is not zero-filled first and
            // that the block then owns (no second copy of what was read).
            let (buffer, fresh) = try carry.count > blockSize ? readAppendingToCarry() : readAfterCarry()
            if fresh.isEmpty {
                ended = true
                try? handle.close()  // read-only: nothing to lose on close
                return buffer.isEmpty ? nil : lines(of: buffer)
            }
            guard let lastNewline = buffer[fresh].lastIndex(of: 0x0A) else {
                carry = buffer  // no line ends yet: a long line, keep reading
                continue
            }
            carry = buffer[(lastNewline + 1)...]
            return lines(of: buffer[...lastNewline])
        }
        return nil
    }

    /// The carried bytes and up to `blockSize` bytes read after them (handed to the hasher), in one buffer
    /// indexed from 0; and where the bytes just read are in it.
    private mutating func readAfterCarry() throws -> (Data, Range<Int>) {
        let kept = carry.count
        var buffer = Data(capacity: kept + blockSize)
        buffer.append(carry)
        let read: Int
        do {
            read = try handle.readBlock(into: &buffer, at: kept, count: blockSize)
        } catch {
            throw unreadable(error)
        }
        carry = Data()
        if read > 0 { hasher?.update(buffer[kept...]) }
        return (buffer, kept..<(kept + read))
    }

    /// The same for a carry longer than a block: the bytes read appended to it.
    private mutating func readAppendingToCarry() throws -> (Data, Range<Int>) {
        let block: Data
        do {
            block = try handle.readBlock(upTo: blockSize)
        } catch {
            throw unreadable(error)
        }
        if !block.isEmpty { hasher?.update(block) }  // not a slice of the buffer, which would then be shared
        var buffer = carry.startIndex == 0 ? carry : Data(carry)
        carry = Data()  // the buffer's only owner, so appending grows it in place
        let kept = buffer.count
        buffer.append(block)
        return (buffer, kept..<buffer.count)
    }

    private func unreadable(_ error: any Error) -> CorpusError {
        CorpusError.unreadable(path: path, reason: FileKind.reason(error, path: path))
    }

    /// The SHA-256 of the bytes read so far (of the whole file once `next()` returned nil); only of a
    /// file read with `hashing`.
    var sha256: String {
        guard let hasher else { preconditionFailure("\(path) was read without hashing") }
        return hasher.digest
    }

    /// Whether the bytes are hashed as they are read.
    var hashes: Bool { hasher != nil }

    private mutating func lines(of data: Data) -> LineBlock {
        let block = LineBlock(data: data, firstLine: nextLine, fileStart: atStart)
        atStart = false
        nextLine += TextLines.lineCount(of: data, fileStart: block.fileStart)
        return block
    }
}

/// Whole lines of a file as read, before decoding: `data` starts at line `firstLine`, and at the start
/// of the file when `fileStart`.
struct LineBlock: Sendable {
    var data: Data
    var firstLine: Int
    var fileStart: Bool

    /// The block's first line and the lines after it, as two blocks; nil when it holds one line.
    func cutAfterFirstLine() -> (head: LineBlock, rest: LineBlock)? {
        guard let newline = data.firstIndex(of: 0x0A), newline + 1 < data.endIndex else { return nil }
        return (LineBlock(data: data[...newline], firstLine: firstLine, fileStart: fileStart),
                LineBlock(data: data[(newline + 1)...], firstLine: firstLine + 1, fileStart: false))
    }
}
