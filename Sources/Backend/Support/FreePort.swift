import Support
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Asks the kernel for a TCP port that is free on the loopback interface right now.
enum FreePort {
    /// A port nobody listens on at the moment of the call. Another process could take it before the
    /// server binds; the server then fails to start and says so in its log, which we report.
    static func find() throws -> Int {
        let fd = SystemCall.streamSocket(family: AF_INET)
        guard fd >= 0 else { throw failure("socket") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
                bind(fd, raw, length) == 0 && getsockname(fd, raw, &length) == 0
            }
        }
        guard bound else { throw failure("bind") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    private static func failure(_ call: String) -> BackendError {
        .startFailed(reason: "no free port: \(call)() failed: \(String(cString: strerror(errno)))",
                     logTail: [], logFile: nil)
    }
}
