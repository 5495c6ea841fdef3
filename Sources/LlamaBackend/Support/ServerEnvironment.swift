import Foundation

/// What a llama-server computes with, beyond its model: the settings on its command line and the CPU
/// features its build uses. Two servers that differ here differ in speed (and, for CPU features, in what
/// they sample), so a comparison names the difference instead of calling it "the machine".
public enum ServerEnvironment {
    /// The arguments that configure a server, without those that only say where it listens or which file it
    /// loads (the model is compared by SHA-256): `--ctx-size 2048 --threads 2 … --swa-full`.
    public static func settings(_ arguments: [String]) -> String {
        let located: Set<String> = ["--port", "--host", "--model", "-m", "--log-file", "--alias", "-a", "--api-key"]
        var kept: [String] = [], skip = false
        for argument in arguments {
            if skip { skip = false; continue }
            if located.contains(argument) { skip = true; continue }
            kept.append(argument)
        }
        return kept.joined(separator: " ")
    }

    /// The CPU features a server's build uses, from the `system_info:` line it logs at start-up
    /// (`CPU : SSE3 = 1 | … | AVX512 = 1 | …`, thread counts left out); nil when the log has none.
    public static func systemInfo(logFile: URL) -> String? {
        guard let handle = try? FileHandle(forReadingFrom: logFile) else { return nil }  // try?: no log, nothing to say
        defer { try? handle.close() }  // try?: a read-only handle has nothing to flush
        // The line comes within the first few kilobytes of start-up output; a log that cannot be read says nothing either.
        let head = String(decoding: (try? handle.read(upToCount: 256 * 1024)) ?? Data(), as: UTF8.self)
        guard let line = head.split(whereSeparator: \.isNewline).first(where: { $0.contains("system_info:") }) else { return nil }
        let fields = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
        // Keep the features that are on; "n_threads = …" is recorded with the settings.
        let features = fields.dropFirst().filter { $0.hasSuffix("= 1") }.map { field in
            field.replacingOccurrences(of: "CPU : ", with: "").replacingOccurrences(of: " = 1", with: "")
        }
        return features.isEmpty ? nil : features.joined(separator: " ")
    }

    /// The command line of the process listening on loopback `port`, found through /proc (Linux; nil elsewhere
    /// or when the process is not readable): how an attached local server was started.
    public static func commandLine(listeningOn port: Int) -> [String]? {
        listener(port: port).map(\.arguments)
    }

    /// The executable of the process listening on loopback `port` (its /proc link, which reads as the file).
    public static func executable(listeningOn port: Int) -> String? {
        listener(port: port).map { "/proc/\($0.pid)/exe" }
    }

    /// The process listening on loopback `port`: its id and command line (arguments after the program).
    static func listener(port: Int) -> (pid: String, arguments: [String])? {
        let hexPort = String(format: "%04X", port)
        var inodes: Set<String> = []
        for table in ["/proc/net/tcp", "/proc/net/tcp6"] {
            guard let text = try? String(contentsOfFile: table, encoding: .utf8) else { continue }  // no such table: none there
            for line in text.split(separator: "\n").dropFirst() {
                let columns = line.split(separator: " ")
                // local_address is HEXIP:HEXPORT; state 0A is LISTEN; the inode is the tenth column.
                guard columns.count > 9, columns[1].hasSuffix(":" + hexPort), columns[3] == "0A" else { continue }
                inodes.insert(String(columns[9]))
            }
        }
        // try?: no /proc (not Linux) means no process to read, which is what nil says.
        guard !inodes.isEmpty, let pids = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return nil }
        for pid in pids where pid.allSatisfy(\.isNumber) {
            guard let fds = try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd") else { continue }  // not ours to read
            let owns = fds.contains { fd in
                // try?: a descriptor closed since the listing is not the socket.
                guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\(fd)") else { return false }
                return target.hasPrefix("socket:[") && inodes.contains(String(target.dropFirst(8).dropLast()))
            }
            guard owns, let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { continue }
            return (pid, data.split(separator: 0).dropFirst().map { String(decoding: $0, as: UTF8.self) })
        }
        return nil
    }
}
