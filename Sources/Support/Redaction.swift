import Foundation
import Synchronization

/// The one redaction step for whatever LangBench records or prints: URLs lose their user, password,
/// query and fragment (any of which may carry a credential), and every secret this process has read
/// (an API key from the environment, a URL's credentials from the command line) is replaced by
/// `<redacted>`. Command lines, provenance, detector specs, error messages, replies and both standard
/// streams pass through it before they reach a file or a terminal.
package enum Redaction {
    package static let placeholder = "<redacted>"

    /// Registers a secret to be redacted from everything that passes through `text` from now on.
    /// Short values are not registered: replacing a two-letter "key" would garble every report.
    package static func register(secret: String) {
        guard secret.count >= minimumSecretLength else { return }
        secrets.withLock { $0.insert(secret) }
    }

    /// Registers the credentials of every URL in `text` (user-info, password, query, fragment: as written and
    /// percent-decoded), so they are redacted wherever they turn up later, however a later text cuts the URL.
    package static func registerCredentials(in text: String) {
        for url in URLSpan.all(in: text) {
            for part in [url.userInfo, url.password, url.query] {
                guard let part, !part.isEmpty else { continue }
                register(secret: part)
                if let decoded = part.removingPercentEncoding, decoded != part { register(secret: decoded) }
                if let encoded = part.addingPercentEncoding(withAllowedCharacters: .urlUserAllowed), encoded != part { register(secret: encoded) }
            }
        }
    }

    /// What a refusal of `url` adds when the URL holds a user-info: the characters that must be percent-encoded there
    /// (the refusal shows the URL without it, which alone would read as a good URL refused).
    package static func encodingAdvice(_ url: String) -> String {
        url.contains("@") ? " (a user or password holding / ? # @ or a space must be percent-encoded, e.g. / as %2F)" : ""
    }

    /// `text` with every URL's credentials stripped and every registered secret replaced.
    package static func text(_ text: String) -> String {
        secrets(in: urls(in: text))
    }

    /// `text` with every registered secret replaced, URLs left as they are.
    package static func secrets(in text: String) -> String {
        secrets.withLock { known in
            // Longest first: a password registered alone must not cut a longer user-info that holds it in two.
            known.sorted { $0.count > $1.count }.reduce(text) { $0.replacingOccurrences(of: $1, with: placeholder) }
        }
    }

    /// `text` with every http(s) URL in it reduced to scheme, host, port and path. The user-info ends at the last `@`
    /// before the authority's end, as the HTTP client reads it: a raw `@`, space or quote in a password cannot end it early.
    package static func urls(in text: String) -> String {
        guard text.contains("://") else { return text }
        var out = ""
        var copied = text.startIndex
        for url in URLSpan.all(in: text) {
            out += text[copied..<url.authorityStart]
            out += text[url.hostStart..<url.pathEnd]
            copied = url.end
        }
        return out + text[copied...]
    }

    /// A spec that names a command as outputs may show it: an `exec:` command by `CommandLabel` (its executable and
    /// files, a hash of the rest), any other spec with its URLs redacted. The values of credential-like flags and URLs
    /// are registered as secrets, and the spec itself so `command(for:)` gives it back to whoever runs it.
    package static func label(ofCommand spec: String) -> String {
        // A label given again (a config built from a labelled spec) stays itself and keeps the spec it stands for.
        if commands.withLock({ $0[spec] != nil }) { return spec }
        registerCredentials(in: spec)
        for secret in CommandLabel.flagSecrets(in: spec) { register(secret: secret) }
        let label = CommandLabel.of(spec) ?? text(spec)
        if label != spec { commands.withLock { $0[label] = spec } }
        return label
    }

    /// The spec `label(ofCommand:)` was given for `label`, or `label` itself when it had nothing to redact.
    package static func command(for label: String) -> String {
        commands.withLock { $0[label] } ?? label
    }

    /// A secret shorter than this is never registered (see `register`).
    static let minimumSecretLength = 6
    private static let secrets = Mutex<Set<String>>([])
    private static let commands = Mutex<[String: String]>([:])
}

/// Where one http(s) URL lies in a text: its user-info (dropped), host and path (kept), query and fragment (dropped).
struct URLSpan {
    var authorityStart: String.Index
    var hostStart: String.Index
    var pathEnd: String.Index
    var end: String.Index
    var userInfo: String?
    var password: String?
    var query: String?

    static func all(in text: String) -> [URLSpan] {
        var spans: [URLSpan] = []
        var searchFrom = text.startIndex
        while let marker = text.range(of: "://", options: [], range: searchFrom..<text.endIndex) {
            searchFrom = marker.upperBound
            var schemeStart = marker.lowerBound
            while schemeStart > text.startIndex, text[text.index(before: schemeStart)].isASCII, text[text.index(before: schemeStart)].isLetter {
                schemeStart = text.index(before: schemeStart)
            }
            let scheme = text[schemeStart..<marker.lowerBound].lowercased()
            guard scheme.hasSuffix("http") || scheme.hasSuffix("https") else { continue }
            let start = marker.upperBound
            // The authority ends where the client ends it (/ ? #), or at a line's end or the next URL in free text.
            var authorityEnd = text[start...].firstIndex { "/?#\n\r".contains($0) } ?? text.endIndex
            if let next = text.range(of: "://", options: [], range: start..<authorityEnd) { authorityEnd = next.lowerBound }
            var span = URLSpan(authorityStart: start, hostStart: start, pathEnd: start, end: start)
            // A raw `/`, `?` or `#` in a password ends the authority early, so the client refuses the URL and the refusal
            // quotes it: a `user:…@` the client would not read is taken as a user-info too (up to the token's last `@`).
            let tokenEnd = text[start...].firstIndex { $0.isWhitespace || "\"'<>".contains($0) } ?? text.endIndex
            if !text[start..<authorityEnd].contains("@"), let at = text[start..<tokenEnd].lastIndex(of: "@"), text[start..<at].contains(":") {
                authorityEnd = text.index(after: at)
            }
            if let at = text[start..<authorityEnd].lastIndex(of: "@") {
                let info = String(text[start..<at])
                span.userInfo = info
                span.password = info.firstIndex(of: ":").map { String(info[info.index(after: $0)...]) }
                span.hostStart = text.index(after: at)
            }
            span.pathEnd = text[span.hostStart...].firstIndex { $0.isWhitespace || "\"'<>?#".contains($0) } ?? text.endIndex
            span.end = span.pathEnd
            if span.end < text.endIndex, "?#".contains(text[span.end]) {
                span.end = text[span.end...].firstIndex { $0.isWhitespace || "\"'<>".contains($0) } ?? text.endIndex
                span.query = String(text[text.index(after: span.pathEnd)..<span.end])
            }
            spans.append(span)
            searchFrom = span.end
        }
        return spans
    }
}
