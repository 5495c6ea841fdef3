#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Support
import Foundation

/// `read(2)` and `write(2)` on memory this target owns (the file writer's buffer, the log reader's), and
/// the addresses a host name resolves to, under one name on Linux (Glibc) and macOS (Darwin).
package enum RawIO {
    /// Fills `count` bytes at `buffer` from `fd` (fewer only at the end of the file), retrying interrupted reads.
    package static func read(_ fd: Int32, into buffer: UnsafeMutableRawPointer, count: Int) throws -> Int {
        var filled = 0
        while filled < count {
            #if canImport(Glibc)
            let read = Glibc.read(fd, buffer + filled, count - filled)
            #else
            let read = Darwin.read(fd, buffer + filled, count - filled)
            #endif
            if read < 0 {
                if errno == EINTR { continue }
                throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
            }
            if read == 0 { break }
            filled += read
        }
        return filled
    }

    /// One `write(2)` of `count` bytes at `buffer`: how many were written, or -1 (`errno`).
    package static func write(_ fd: Int32, _ buffer: UnsafeRawPointer, count: Int) -> Int {
        #if canImport(Glibc)
        Glibc.write(fd, buffer, count)
        #else
        Darwin.write(fd, buffer, count)
        #endif
    }

    /// The stream-socket addresses `host`:`port` resolves to (`getaddrinfo`), in its order, held until the
    /// list is released; nil when it does not resolve.
    package final class Addresses {
        private let list: UnsafeMutablePointer<addrinfo>
        /// Each address; its `ai_addr` points into the list, valid while this is alive.
        package let entries: [addrinfo]

        package init?(host: String, port: Int) {
            var hints = addrinfo()
            hints.ai_family = AF_UNSPEC
            hints.ai_socktype = SystemCall.streamType
            var list: UnsafeMutablePointer<addrinfo>?
            guard getaddrinfo(host, String(port), &hints, &list) == 0, let first = list else { return nil }
            self.list = first
            var entries: [addrinfo] = [], entry = list
            while let address = entry?.pointee {
                entries.append(address)
                entry = address.ai_next
            }
            self.entries = entries
        }

        deinit { freeaddrinfo(list) }
    }
}
