import Foundation

/// What a detector's (or judge's, or server's) failure may say once it leaves the detector: never the words it
/// was asked about. A detector that quotes its input in an error would otherwise put a message, or a reply, into
/// the results log, the CSV, the reports, the page and stderr; for a crisis-flagged message nothing of its error is kept.
package enum FailureText {
    /// What stands where the text was.
    package static let placeholder = "<message text>"

    /// `reason` without `text` (as written, and as JSON or a debug print escapes it).
    package static func without(_ text: String, in reason: String) -> String {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard trimmed.count >= 2 else { return reason }
        var out = reason
        for form in Set([text, trimmed, escaped(trimmed)]) where !form.isEmpty {
            out = out.replacingOccurrences(of: form, with: placeholder)
        }
        return out
    }

    /// The reason recorded for a crisis-flagged message: the failure's kind only.
    package static let crisisWithheld = "the detector failed on a crisis-flagged message (its error is withheld: it may quote the message)"

    /// `text` as JSON or Swift's debug description escapes it.
    static func escaped(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
