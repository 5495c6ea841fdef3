import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension FileHandle {
    /// Up to `count` bytes from the current offset — fewer only at the end of the file, empty there —
    /// read with as few `read(2)` calls as the kernel allows. swift-corelibs-foundation's
    /// `read(upToCount:)` reads 4 KiB per call on Linux: 36,000 system calls for a 1 M-item `detect`.
    package func readBlock(upTo count: Int) throws -> Data {
        var data = Data()
        _ = try readBlock(into: &data, at: 0, count: max(1, count))
        return data
    }

    /// `readBlock(upTo: count)` into `data` from its byte `offset` on: its bytes before are kept, and it is
    /// cut to what was read. Returns how many bytes were read.
    package func readBlock(into data: inout Data, at offset: Int, count: Int) throws -> Int {
        data.count = offset + count
        let fd = fileDescriptor
        var filled = 0
        while filled < count {
            let read = SystemCall.read(fd, into: &data, at: offset + filled, count: count - filled)
            if read < 0 {
                if errno == EINTR { continue }
                throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
            }
            if read == 0 { break }
            filled += read
        }
        data.count = offset + filled
        return filled
    }
}

extension FileHandle {
    /// Calls `body` with each block of up to `blockSize` bytes of the file at `url`, in order (how the
    /// content hashes read a file).
    package static func forEachBlock(ofFileAt url: URL, blockSize: Int = 1 << 20, _ body: (Data) throws -> Void) throws {
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }  // closing a read handle cannot lose data
        while case let block = try handle.readBlock(upTo: blockSize), !block.isEmpty {
            try body(block)
        }
    }
}
