import Foundation

/// How outputs name an `exec:` command: its executable's name, the names of the files among its arguments, and a hash
/// of the rest (`exec:python3 lingua.py #1f0c9a2e4b7d`). The argument list itself — where a `--token` or an
/// `--api-key` would be — never reaches a record, a report or the page.
package enum CommandLabel {
    /// The label of `spec` (`exec:COMMAND`), or nil when it is not an exec spec or names no command.
    package static func of(_ spec: String) -> String? {
        guard spec.hasPrefix("exec:") else { return nil }
        let words = shellWords(String(spec.dropFirst("exec:".count)))
        guard let executable = words.first else { return nil }
        var named = [(executable as NSString).lastPathComponent], hidden: [String] = []
        for word in words.dropFirst() {
            if !word.hasPrefix("-"), word.contains("/") || word.contains("."), FileManager.default.fileExists(atPath: word) {
                named.append((word as NSString).lastPathComponent)
            } else {
                hidden.append(word)
            }
        }
        guard !hidden.isEmpty else { return "exec:" + named.joined(separator: " ") }
        var hash = FNV1a64()
        for word in hidden { hash.add(word); hash.separate() }
        return "exec:" + named.joined(separator: " ") + " #" + FNV1a64.hex(hash.value).prefix(12)
    }

    /// The values of credential-like flags in a command line (`--api-key V`, `--token=V`, `-p V` is not one), so they
    /// are redacted wherever a child repeats them.
    package static func flagSecrets(in command: String) -> [String] {
        let words = shellWords(command)
        var secrets: [String] = []
        for (index, word) in words.enumerated() where word.hasPrefix("-") {
            let flag = word.drop { $0 == "-" }.prefix { $0 != "=" }.lowercased().replacingOccurrences(of: "_", with: "-")
            guard secretFlags.contains(where: { flag == $0 || flag.hasSuffix("-" + $0) }) else { continue }
            if let equals = word.firstIndex(of: "=") {
                secrets.append(String(word[word.index(after: equals)...]))
            } else if index + 1 < words.count {
                secrets.append(words[index + 1])
            }
        }
        return secrets.filter { !$0.isEmpty }
    }

    static let secretFlags = ["key", "api-key", "apikey", "token", "password", "passwd", "secret", "auth", "credentials", "bearer"]

    /// `command` split as a POSIX shell splits plain words: whitespace outside quotes, '…' and "…" kept whole.
    static func shellWords(_ command: String) -> [String] {
        var words: [String] = [], current = "", quote: Character?, inWord = false
        for character in command {
            if let open = quote {
                if character == open { quote = nil } else { current.append(character) }
            } else if character == "'" || character == "\"" {
                quote = character
                inWord = true
            } else if character.isWhitespace {
                if inWord { words.append(current); current = ""; inWord = false }
            } else {
                current.append(character)
                inWord = true
            }
        }
        if inWord { words.append(current) }
        return words
    }
}

/// An `exec:` command that cannot run: refused before any work (exit 64 for a blank one, 69 for a missing program).
package enum ExecCommandError: Error, Sendable, CustomStringConvertible {
    case blank(key: String)
    case notFound(key: String, program: String)

    package var description: String {
        switch self {
        case .blank(let key): "\(key): exec: needs a command, e.g. exec:scripts/detectors/lingua"
        case .notFound(let key, let program):
            "\(key): '\(program)' is not an executable file\(program.contains("/") ? "" : " on the PATH"); check the exec: command"
        }
    }
}

extension CommandLabel {
    /// Throws unless `command` starts with a program that exists and may be run (a path, or a name on the PATH).
    package static func checkRunnable(_ command: String, key: String) throws(ExecCommandError) {
        guard let program = shellWords(command).first else { throw .blank(key: key) }
        guard locate(program) != nil else { throw .notFound(key: key, program: program) }
    }

    /// The program `name` names: itself when it holds a `/`, else the first match on the PATH; nil unless it is a
    /// regular executable file (a directory is "executable" too, being searchable).
    package static func locate(_ name: String) -> String? {
        let files = FileManager.default
        func program(_ path: String) -> Bool {
            var isDirectory: ObjCBool = false
            return files.fileExists(atPath: path, isDirectory: &isDirectory) && !isDirectory.boolValue && files.isExecutableFile(atPath: path)
        }
        guard !name.isEmpty else { return nil }
        if name.contains("/") { return program(name) ? name : nil }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(name)" }.first(where: program)
    }
}
