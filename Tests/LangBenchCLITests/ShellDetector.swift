import Foundation

/// Small exec detectors written as sh scripts: real child processes speaking the JSON-lines protocol,
/// each misbehaving in one way on purpose.
enum ShellDetector {
    /// Writes an executable script `name` in `directory` that runs `answer` for every request line, with
    /// `$line` the request and `$id` its id, and returns its `exec:` name.
    static func write(_ name: String, in directory: URL, answer: String) throws -> String {
        let url = directory.appendingPathComponent(name)
        let script = """
        #!/bin/sh
        while IFS= read -r line; do
          id=$(printf '%s\\n' "$line" | sed 's/^.*"id":"\\([^"]*\\)".*$/\\1/')
          \(answer)
        done

        """
        try script.write(to: url, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: url.path)
        return "exec:\(url.path)"
    }

    /// The shell line that answers `lang` with certainty.
    static func answering(_ lang: String) -> String {
        #"printf '{"id":"%s","hypotheses":[{"lang":"\#(lang)","p":1}]}\n' "$id""#
    }
}
