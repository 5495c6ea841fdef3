import Foundation
import Synchronization

/// The one redaction step for whatever LangBench records or prints: URLs lose their user, password,
/// query and fragment (any of which may carry a credential), and every secret this process has read
/// (an API key from the environment) is replaced by `<redacted>`. Command lines, provenance, error
/// messages and replies pass through it before they reach a file or a terminal.
public enum Redaction {
    public static let placeholder = "<redacted>"

    /// Registers a secret to be redacted from everything that passes through `text` from now on.
    /// Short values are not registered: replacing a two-letter "key" would garble every report.
    public static func register(secret: String) {
        guard secret.count >= minimumSecretLength else { return }
        secrets.withLock { $0.insert(secret) }
    }

    /// `text` with every URL's credentials stripped and every registered secret replaced.
    public static func text(_ text: String) -> String {
        secrets(in: urls(in: text))
    }

    /// `text` with every registered secret replaced, URLs left as they are; `redacted` says whether any was.
    public static func secrets(in text: String) -> String {
        secrets.withLock { known in known.reduce(text) { $0.replacingOccurrences(of: $1, with: placeholder) } }
    }

    /// `text` with every http(s) URL in it reduced to scheme, host, port and path.
    public static func urls(in text: String) -> String {
        guard text.contains("://") else { return text }
        let range = NSRange(text.startIndex..., in: text)
        return urlPattern.stringByReplacingMatches(in: text, range: range, withTemplate: "$1$3$4")
    }

    /// A secret shorter than this is never registered (see `register`).
    static let minimumSecretLength = 6
    private static let secrets = Mutex<Set<String>>([])
    // scheme, user-info (dropped), host and port, path, then query and fragment (dropped); a URL ends at whitespace or a quote.
    // try!: a literal pattern, checked by the tests; it cannot fail at run time.
    nonisolated(unsafe) private static let urlPattern = try! NSRegularExpression(
        pattern: #"(?i)(https?://)([^\s/?#@"'<>]*@)?([^\s/?#"'<>]*)([^\s?#"'<>]*)(\?[^\s#"'<>]*)?(#[^\s"'<>]*)?"#)
}
