import Foundation

/// What a llama-server computes with, beyond its model: the settings on its command line and the CPU
/// features its build uses. Two servers that differ here differ in speed (and, for CPU features, in what
/// they sample), so a comparison names the difference instead of calling it "the machine".
package enum ServerEnvironment {
    /// The settings on a server's command line that change what is measured — threads, batch sizes, context, slots,
    /// cache and attention, sampling defaults, placement — and nothing else: `--ctx-size 2048 --threads 2 … --swa-full`.
    /// An allow-list: a flag LangBench does not know (a token, a key file, a URL) is never recorded.
    package static func settings(_ arguments: [String]) -> String {
        var kept: [String] = []
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let argument = arguments[index]
            index += 1
            // `--flag=value` carries its value with it.
            let flag = argument.split(separator: "=", maxSplits: 1).first.map(String.init) ?? argument
            if argument.contains("=") {
                if valued.contains(flag) { kept.append(argument) }
                continue
            }
            if switches.contains(flag) {
                kept.append(argument)
            } else if valued.contains(flag) {
                guard index < arguments.endIndex else { break }
                kept += [argument, arguments[index]]
                index += 1
            } else if flag.hasPrefix("-"), index < arguments.endIndex, !arguments[index].hasPrefix("-") || Double(arguments[index]) != nil {
                index += 1  // an unknown flag's value goes with it
            }
        }
        return kept.joined(separator: " ")
    }

    /// Settings that take a value (the short forms too).
    static let valued: Set<String> = [
        "-t", "--threads", "-tb", "--threads-batch", "-c", "--ctx-size", "-b", "--batch-size", "-ub", "--ubatch-size",
        "-np", "--parallel", "-n", "--n-predict", "--keep", "-ctk", "--cache-type-k", "-ctv", "--cache-type-v", "--cache-reuse",
        "-fa", "--flash-attn", "-dt", "--defrag-thold", "--temp", "--top-k", "--top-p", "--min-p", "--typical", "-s", "--seed",
        "--repeat-penalty", "--repeat-last-n", "--presence-penalty", "--frequency-penalty", "--samplers", "--mirostat",
        "--mirostat-lr", "--mirostat-ent", "--dry-multiplier", "--xtc-probability", "--xtc-threshold", "-ngl", "--n-gpu-layers",
        "--gpu-layers", "-dev", "--device", "-sm", "--split-mode", "--numa", "--prio", "--prio-batch", "--poll", "--poll-batch",
        "-C", "--cpu-mask", "-Cr", "--cpu-range", "--rope-scaling", "--rope-scale", "--rope-freq-base", "--rope-freq-scale",
        "-ot", "--override-tensor", "--cache-ram", "-cram", "--slot-prompt-similarity", "-sps", "--reasoning-budget",
    ]

    /// Settings that are switches.
    static let switches: Set<String> = [
        "--swa-full", "--no-kv-offload", "-nkvo", "--mlock", "--no-mmap", "-cb", "--cont-batching", "-nocb", "--no-cont-batching",
        "--no-cache-prompt", "--kv-unified", "-kvu", "--no-kv-unified", "--cpu-strict", "--cpu-strict-batch", "--no-warmup",
        "--context-shift", "--no-context-shift", "--no-op-offload", "--jinja", "--no-jinja",
    ]

    /// Whether `program` (an executable's file name or path) is llama-server:
    /// a proxy or port-forward owning the port is not, and its settings are not the server's.
    package static func isLlamaServer(program: String) -> Bool {
        URL(fileURLWithPath: program).lastPathComponent.hasPrefix("llama-server")
    }

    /// The CPU features a server's build uses, from the `system_info:` line it logs at start-up
    /// (`CPU : SSE3 = 1 | … | AVX512 = 1 | …`, thread counts left out); nil when the log has none.
    package static func systemInfo(logFile: URL) -> String? {
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

    /// A process listening on a loopback port, found through /proc.
    package struct Listener: Sendable {
        package let pid: String
        /// Its command line after the program.
        package let arguments: [String]
        /// Its /proc link, which reads as the executable's file.
        package var executable: String { "/proc/\(pid)/exe" }
        /// Its working directory (what a relative path on its command line or in its answers is relative to), or nil
        /// when it cannot be read.
        package var workingDirectory: String? {
            // try?: a process that ended since, or one not ours to read, has no directory to name, which is what nil says.
            try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/cwd")
        }
        /// The executable's file name (`llama-server`, `python3.13`), or nil when the process has ended since.
        package var program: String? {
            // try?: a process that ended since the listing has no program to name, which is what nil says.
            let path = (try? FileManager.default.destinationOfSymbolicLink(atPath: executable)) ?? ""
            return path.isEmpty ? nil : URL(fileURLWithPath: path).lastPathComponent
        }
    }

    /// The process listening on loopback `port` (Linux; nil elsewhere or when the process is not readable). One walk of
    /// /proc: ask once and read what is needed from the answer.
    package static func listener(port: Int) -> Listener? {
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
            return Listener(pid: pid, arguments: data.split(separator: 0).dropFirst().map { String(decoding: $0, as: UTF8.self) })
        }
        return nil
    }
}
