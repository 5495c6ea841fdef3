import Support
import Foundation

/// A file written through an in-memory byte buffer in large blocks: the writer for files with one line
/// per item (the results log, the per-item CSV), where a `write(2)` or a `String` per line was the cost.
/// `atomic` files are written beside their name and renamed into place by `finish()`, so a reader or a
/// crash never sees half of one; the others are appended to in place and survive a crash up to the
/// last `flush()`.
package final class BufferedFileWriter {
    package let url: URL
    private let path: String
    private let handle: FileHandle
    private let atomic: Bool
    /// The bytes not written yet: `count` of `capacity` (a block and some room, more when one line is longer).
    // Inlinable into the encoders of other modules: the per-line path is a few stores, not a call.
    @usableFromInline var storage: UnsafeMutablePointer<UInt8>
    @usableFromInline var capacity: Int
    @usableFromInline var count = 0
    @usableFromInline let blockSize: Int
    private var finished = false
    private var open = true

    /// Opens `url`: for appending when `append` is true, else truncated (atomic: a fresh temporary file).
    package init(url: URL, append: Bool = false, atomic: Bool = false, blockSize: Int = 1 << 20) throws(ReportError) {
        self.url = url
        self.atomic = atomic
        self.blockSize = blockSize
        capacity = blockSize + 4096
        storage = .allocate(capacity: capacity)
        let directory = url.deletingLastPathComponent()
        path = atomic ? directory.appendingPathComponent(".\(url.lastPathComponent).partial.\(ProcessInfo.processInfo.processIdentifier)").path : url.path
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            if !append || !FileManager.default.fileExists(atPath: path) {
                guard FileManager.default.createFile(atPath: path, contents: nil) else {
                    throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
                }
            }
            handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
            if append { try handle.seekToEnd() }
        } catch {
            storage.deallocate()
            throw ReportError.writeFailure(url, error)
        }
    }

    deinit {
        storage.deallocate()
        if open { try? handle.close() }  // an abandoned writer; `finish` reports real close failures
        if atomic && !finished { try? FileManager.default.removeItem(atPath: path) }  // an abandoned partial file
    }

    @inlinable package func append(_ text: String) {
        var text = text
        text.withUTF8 { put(ByteView($0)) }
    }

    @inlinable package func append(_ text: Substring) {
        var text = text
        text.withUTF8 { put(ByteView($0)) }
    }

    @inlinable package func append(byte: UInt8) {
        reserve(1)
        storage[count] = byte
        count += 1
    }

    @inlinable package func append(bytes: [UInt8]) {
        bytes.withBytes { put($0) }
    }

    @inlinable package func append(bytes: ArraySlice<UInt8>) {
        bytes.withBytes { put($0) }
    }

    @usableFromInline func put(_ bytes: ByteView) {
        reserve(bytes.count)
        bytes.withRaw { raw in
            guard let base = raw.baseAddress else { return }
            (storage + count).update(from: base.assumingMemoryBound(to: UInt8.self), count: raw.count)
        }
        count += bytes.count
    }

    /// Room for `bytes` more after `count`.
    @inlinable func reserve(_ bytes: Int) {
        guard capacity - count < bytes else { return }
        let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: count + bytes + blockSize)
        grown.moveInitialize(from: storage, count: count)
        storage.deallocate()
        storage = grown
        capacity = count + bytes + blockSize
    }

    /// Lets `encode` write at most `bound` bytes in place through a cursor (a line written without a
    /// buffer of its own or a check per append), then writes the buffer when it has grown past a block.
    @inlinable package func write(bound: Int, _ encode: (inout ByteCursor) -> Void) throws(ReportError) {
        reserve(bound)
        var cursor = ByteCursor(start: storage + count, end: storage + count + bound)
        encode(&cursor)
        count = cursor.position - storage
        if count >= blockSize { try flush() }
    }

    /// Writes the buffer when it has grown past a block (call between lines).
    @inlinable package func flushIfFull() throws(ReportError) {
        if count >= blockSize { try flush() }
    }

    /// Writes everything buffered so far.
    package func flush() throws(ReportError) {
        guard count > 0 else { return }
        let fd = handle.fileDescriptor
        var failure: Int32?
        var offset = 0
        while offset < count {
            let written = RawIO.write(fd, storage + offset, count: count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                failure = errno
                break
            }
            offset += written
        }
        count = 0
        if let failure {
            throw .cannotWrite(path: url.path, reason: String(cString: strerror(failure)))
        }
    }

    /// Flushes and closes; an atomic file is renamed into place.
    package func finish() throws(ReportError) {
        try flush()
        do {
            open = false
            try handle.close()
            if atomic, rename(path, url.path) != 0 { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        } catch {
            throw ReportError.writeFailure(url, error)
        }
        finished = true
    }
}
