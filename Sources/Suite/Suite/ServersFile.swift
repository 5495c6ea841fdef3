import Support
import Foundation

/// A `--servers-file`: one server URL per line; blank lines and `#` comments (a whole line, or after
/// whitespace) are ignored; CRLF line endings read as LF. Parsing only; each URL goes through `ServerSource.parseURL`.
package enum ServersFile {
    /// The URL text of every line that holds one, with its 1-based line number.
    package static func entries(_ text: String) -> [(line: Int, text: String)] {
        // "\r\n" is one Character in Swift: split on the scalar, so CRLF files have lines too, then drop each line's CR.
        text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false).map { String(String.UnicodeScalarView($0)) }.enumerated().compactMap { index, raw -> (line: Int, text: String)? in
            var line = Substring(raw.hasSuffix("\r") ? String(raw.dropLast()) : raw)
            if let hash = line.indices.first(where: { line[$0] == "#" && ($0 == line.startIndex || line[line.index(before: $0)].isWhitespace) }) {
                line = line[..<hash]
            }
            let entry = line.trimmingCharacters(in: .whitespacesAndNewlines)
            // A URL read from a file is a URL typed on the command line: its credentials are secrets from here on.
            Redaction.registerCredentials(in: entry)
            return entry.isEmpty ? nil : (index + 1, entry)
        }
    }
}
