import Foundation

/// Reads and writes on raw descriptors that retry on EINTR. Foundation's `FileHandle.availableData`
/// and `write(_:)` trap on any error, and a signal (SIGCHLD from a child, the server reaper's
/// handlers) interrupting a blocking call is an error there — it crashed a test run.
package enum POSIXIO {
    /// Writes all of `data`, retrying interrupted and partial writes.
    package static func write(_ data: Data, to fd: Int32) throws {
        var offset = 0
        while offset < data.count {
            let written = SystemCall.write(fd, data, from: offset)
            if written < 0 {
                if errno == EINTR { continue }
                throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
            }
            offset += written
        }
    }

    /// Up to `count` bytes; empty at end of file.
    package static func read(from fd: Int32, count: Int = 65_536) throws -> Data {
        var buffer = Data(count: count)
        while true {
            let n = SystemCall.read(fd, into: &buffer, at: 0, count: count)
            if n >= 0 { return buffer.prefix(n) }
            if errno != EINTR { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        }
    }
}
