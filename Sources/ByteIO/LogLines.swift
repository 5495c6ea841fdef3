import Support
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The complete lines of a JSON-lines file read a block at a time, each lent until the next call: how
/// every log of a run is read back. Empty lines are skipped and a torn final line (the one being written
/// when the process died) is dropped; memory is a block plus the longest line. With `length`, only the
/// file's first `length` bytes are read (a log appended to while its earlier results are read back);
/// with `from`, reading starts at that byte and line (one segment of a log, `DetectionStore`).
package final class LogLines {
    static let blockSize = 1 << 20

    private let url: URL
    private let handle: FileHandle
    private var buffer: UnsafeMutableRawBufferPointer
    private var start = 0, end = 0
    private var atEnd = false
    /// Bytes still to read (nil: to the end of the file).
    private var remaining: Int?
    /// The file offset of the buffer's first byte.
    private var bufferOffset = 0
    /// The number of the line `next` returned last (counting empty lines).
    package private(set) var lineNumber = 0
    /// The file offset of the line `next` returned last.
    package private(set) var lineOffset = 0

    /// Lines of the file at `url` from byte `from.offset` (the start of line `from.line`) up to byte `length`.
    package init(_ url: URL, from: (offset: Int, line: Int) = (0, 1), length: Int? = nil) throws {
        self.url = url
        remaining = length.map { $0 - from.offset }
        lineNumber = from.line - 1
        bufferOffset = from.offset
        handle = try ReportError.reading(url) { try FileHandle(forReadingFrom: url) }
        buffer = .allocate(byteCount: Self.blockSize, alignment: 1)
        if from.offset > 0 { try ReportError.reading(url) { try handle.seek(toOffset: UInt64(from.offset)) } }
    }

    /// The numbers of the lines of `url` that `matches` (an error path naming where a bad line is; reads the whole file).
    package static func numbers(in url: URL, where matches: (String) -> Bool) -> [Int] {
        // try?: called while reporting another error; a log that cannot be read again names no line, and that error stands.
        guard let lines = try? LogLines(url) else { return [] }
        var found: [Int] = []
        while let line = try? lines.next() {
            if matches(line.string) { found.append(lines.lineNumber) }
        }
        return found
    }

    deinit {
        buffer.deallocate()
        try? handle.close()  // read-only: nothing to lose on close
    }

    /// The next complete, non-empty line without its newline, or nil at the end.
    package func next() throws -> ByteView? {
        while true {
            if start < end, let found = memchr(buffer.baseAddress! + start, 0x0A, end - start) {
                let newline = buffer.baseAddress!.distance(to: found)
                let line = ByteView(UnsafeRawBufferPointer(rebasing: buffer[start..<newline]))
                lineOffset = bufferOffset + start
                start = newline + 1
                lineNumber += 1
                if line.isEmpty { continue }
                return line
            }
            if atEnd { return nil }  // what is left is a torn final line
            try fill()
        }
    }

    /// Moves the unread bytes to the front (growing the buffer when one line fills it) and reads on.
    private func fill() throws {
        let unread = end - start
        if unread == buffer.count {
            let larger = UnsafeMutableRawBufferPointer.allocate(byteCount: buffer.count * 2, alignment: 1)
            larger.copyMemory(from: UnsafeRawBufferPointer(buffer))
            buffer.deallocate()
            buffer = larger
        } else if start > 0 {
            if unread > 0 { memmove(buffer.baseAddress!, buffer.baseAddress! + start, unread) }
        }
        bufferOffset += start
        start = 0
        end = unread
        let room = min(buffer.count - end, remaining ?? .max)
        let read = room == 0 ? 0 : try ReportError.reading(url) { try RawIO.read(handle.fileDescriptor, into: buffer.baseAddress! + end, count: room) }
        remaining = remaining.map { $0 - read }
        if read == 0 { atEnd = true } else { end += read }
    }
}
