import Foundation

/// A `--servers-file`: one server URL per line; blank lines and `#` comments (a whole line, or after
/// whitespace) are ignored. Parsing only; each URL goes through `ServerSource.parseURL`.
public enum ServersFile {
    /// The URL text of every line that holds one, with its 1-based line number.
    public static func entries(_ text: String) -> [(line: Int, text: String)] {
        text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().compactMap { index, raw -> (line: Int, text: String)? in
            var line = Substring(raw)
            if let hash = line.indices.first(where: { line[$0] == "#" && ($0 == line.startIndex || line[line.index(before: $0)].isWhitespace) }) {
                line = line[..<hash]
            }
            let entry = line.trimmingCharacters(in: .whitespacesAndNewlines)
            return entry.isEmpty ? nil : (index + 1, entry)
        }
    }
}
