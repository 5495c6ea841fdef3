#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// The C library calls whose Swift names or constant types differ between Linux (Glibc) and macOS
/// (Darwin), under one name, so the package builds on both.
package enum SystemCall {
    /// One `write(2)` of `data`'s bytes from `offset` on: how many were written, or -1 (`errno`).
    package static func write(_ fd: Int32, _ data: Data, from offset: Int) -> Int {
        data.withUnsafeBytes { raw in
            #if canImport(Glibc)
            Glibc.write(fd, raw.baseAddress! + offset, raw.count - offset)
            #else
            Darwin.write(fd, raw.baseAddress! + offset, raw.count - offset)
            #endif
        }
    }

    /// One `read(2)` of up to `count` bytes into `data` at `offset` (which it must have room for): how
    /// many were read, or -1 (`errno`).
    package static func read(_ fd: Int32, into data: inout Data, at offset: Int, count: Int) -> Int {
        data.withUnsafeMutableBytes { raw in
            #if canImport(Glibc)
            Glibc.read(fd, raw.baseAddress! + offset, count)
            #else
            Darwin.read(fd, raw.baseAddress! + offset, count)
            #endif
        }
    }

    /// `connect(2)` of `fd` to a resolved address.
    package static func connect(_ fd: Int32, to address: addrinfo) -> Int32 {
        #if canImport(Glibc)
        Glibc.connect(fd, address.ai_addr, address.ai_addrlen)
        #else
        Darwin.connect(fd, address.ai_addr, address.ai_addrlen)
        #endif
    }

    /// `send(2)` of `bytes` that never raises SIGPIPE on a closed peer (it fails with EPIPE instead):
    /// MSG_NOSIGNAL on Linux; on macOS the socket carries SO_NOSIGPIPE (`streamSocket` sets it).
    package static func send(_ fd: Int32, _ bytes: ArraySlice<UInt8>) -> Int {
        bytes.withUnsafeBytes { raw in
            #if canImport(Glibc)
            Glibc.send(fd, raw.baseAddress, raw.count, Int32(MSG_NOSIGNAL))
            #else
            Darwin.send(fd, raw.baseAddress, raw.count, 0)
            #endif
        }
    }

    /// SOCK_STREAM as `socket(2)` and `addrinfo.ai_socktype` take it.
    package static var streamType: Int32 {
        #if canImport(Glibc)
        Int32(SOCK_STREAM.rawValue)
        #else
        SOCK_STREAM
        #endif
    }

    /// A TCP socket of `family` (`AF_INET`, or an address's `ai_family`) that does not raise SIGPIPE.
    package static func streamSocket(family: Int32, protocol: Int32 = 0) -> Int32 {
        let fd = socket(family, streamType, `protocol`)
        if fd >= 0 { noSignalOnClosedPeer(fd) }
        return fd
    }

    /// Makes `send` on `fd` fail with EPIPE instead of raising SIGPIPE (macOS: SO_NOSIGPIPE; Linux
    /// passes MSG_NOSIGNAL on every `send`). Also for sockets from `accept`.
    package static func noSignalOnClosedPeer(_ fd: Int32) {
        #if canImport(Darwin)
        var on: Int32 = 1
        _ = setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
        #endif
    }

    /// This process's peak resident set size so far, in bytes: on Linux `VmHWM` of /proc/self/status
    /// (Linux's `getrusage` keeps, across `exec`, the peak of the process that forked: the parent's
    /// size, for a child started with `Process`); elsewhere `getrusage(RUSAGE_SELF)`.
    package static func peakResidentBytes() -> Int? {
        #if canImport(Glibc)
        // nil (the peak unknown; the benchmark prints -1) is the answer when /proc is not mounted,
        // and the read error would add nothing a reader of a memory figure could act on.
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
              let kib = Int(line.dropFirst("VmHWM:".count).trimmingCharacters(in: .whitespaces).split(separator: " ").first ?? "") else { return nil }
        return kib * 1024
        #else
        var usage = rusage()
        guard getrusage(RUSAGE_SELF, &usage) == 0 else { return nil }
        return Int(usage.ru_maxrss)
        #endif
    }

    /// The largest maximum resident set size of the child processes waited for so far, in bytes
    /// (`getrusage(RUSAGE_CHILDREN)`: Linux reports KiB, macOS bytes).
    package static func childrenPeakResidentBytes() -> Int? {
        var usage = rusage()
        #if canImport(Glibc)
        guard getrusage(RUSAGE_CHILDREN.rawValue, &usage) == 0 else { return nil }
        return Int(usage.ru_maxrss) * 1024
        #else
        guard getrusage(RUSAGE_CHILDREN, &usage) == 0 else { return nil }
        return Int(usage.ru_maxrss)
        #endif
    }

    /// User + system CPU seconds of this process (`who: .self`) or of its waited-for children (`.children`):
    /// a measure of work that load from other processes does not inflate the way it inflates wall time.
    package static func cpuSeconds(children: Bool) -> Double? {
        var usage = rusage()
        #if canImport(Glibc)
        let who = children ? RUSAGE_CHILDREN.rawValue : RUSAGE_SELF.rawValue
        #else
        let who = children ? RUSAGE_CHILDREN : RUSAGE_SELF
        #endif
        guard getrusage(who, &usage) == 0 else { return nil }
        let seconds = { (t: timeval) in Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }

    /// CPU seconds the calling thread has used (`CLOCK_THREAD_CPUTIME_ID`), or nil when the clock cannot
    /// be read. Unlike wall time between two readings, the difference leaves out the time the thread was
    /// not running (other threads on its core).
    package static func threadCPUSeconds() -> Double? {
        var time = timespec()
        guard clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time) == 0 else { return nil }
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
