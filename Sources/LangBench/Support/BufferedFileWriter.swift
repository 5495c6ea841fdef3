import BenchSupport
import Foundation

/// A file written through an in-memory byte buffer in large blocks: the writer for files with one line
/// per item (the results log, the per-item CSV), where a `write(2)` or a `String` per line was the cost.
/// `atomic` files are written beside their name and renamed into place by `finish()`, so a reader or a
/// crash never sees half of one; the others are appended to in place and survive a crash up to the
/// last `flush()`.
public final class BufferedFileWriter {
    public let url: URL
    private let path: String
    private let handle: FileHandle
    private let atomic: Bool
    private var buffer: [UInt8] = []
    private let blockSize: Int
    private var finished = false
    private var open = true

    /// Opens `url`: for appending when `append` is true, else truncated (atomic: a fresh temporary file).
    public init(url: URL, append: Bool = false, atomic: Bool = false, blockSize: Int = 1 << 20) throws(ReportError) {
        self.url = url
        self.atomic = atomic
        self.blockSize = blockSize
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
            throw .cannotWrite(path: url.path, reason: (error as NSError).localizedDescription)
        }
        buffer.reserveCapacity(blockSize + 4096)
    }

    deinit {
        if open { try? handle.close() }  // an abandoned writer; `finish` reports real close failures
        if atomic && !finished { try? FileManager.default.removeItem(atPath: path) }  // an abandoned partial file
    }

    @inline(__always) public func append(_ text: String) {
        var text = text
        text.withUTF8 { buffer.append(contentsOf: $0) }
    }

    @inline(__always) public func append(_ text: Substring) {
        buffer.append(contentsOf: text.utf8)
    }

    @inline(__always) public func append(byte: UInt8) {
        buffer.append(byte)
    }

    @inline(__always) public func append(bytes: [UInt8]) {
        buffer.append(contentsOf: bytes)
    }

    @inline(__always) public func append(bytes: ArraySlice<UInt8>) {
        buffer.append(contentsOf: bytes)
    }

    /// Lets `encode` append to the buffer in place (a line written without a buffer of its own), then
    /// writes the buffer when it has grown past a block: `flushIfFull()` in the same access.
    @inline(__always) func write(_ encode: (inout [UInt8]) -> Void) throws(ReportError) {
        let full = { (buffer: inout [UInt8]) in
            encode(&buffer)
            return buffer.count >= blockSize
        }(&buffer)
        if full { try flush() }
    }

    /// Writes the buffer when it has grown past a block (call between lines).
    @inline(__always) public func flushIfFull() throws(ReportError) {
        if buffer.count >= blockSize { try flush() }
    }

    /// Writes everything buffered so far.
    public func flush() throws(ReportError) {
        guard !buffer.isEmpty else { return }
        let fd = handle.fileDescriptor
        let failure: Int32? = buffer.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = SystemCall.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                offset += written
            }
            return nil
        }
        buffer.removeAll(keepingCapacity: true)
        if let failure {
            throw .cannotWrite(path: url.path, reason: String(cString: strerror(failure)))
        }
    }

    /// Flushes and closes; an atomic file is renamed into place.
    public func finish() throws(ReportError) {
        try flush()
        do {
            open = false
            try handle.close()
            if atomic, rename(path, url.path) != 0 { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        } catch {
            throw .cannotWrite(path: url.path, reason: (error as NSError).localizedDescription)
        }
        finished = true
    }
}
