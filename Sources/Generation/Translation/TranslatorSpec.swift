import Support
import Foundation

/// Which engine a pivot translates with (`--translator`, `generation.translator`, a variant's `translator`):
/// `llm` (the reply model, the default), `apertium` (an APy server LangBench starts), `apertium:<url>` (one
/// someone else runs) or `exec:<command>` (`ExecTranslator`'s line protocol).
package enum TranslatorSpec: Sendable, Hashable, CustomStringConvertible {
    case llm
    /// Nil: LangBench starts APy on a free loopback port and stops it when the run ends.
    case apertium(URL?)
    case exec(String)

    /// Parses `value`; the error names `key` (the flag or config key).
    package init(_ value: String, key: String) throws {
        let reason = "must be llm, apertium, apertium:<url> or exec:<command>"
        switch value {
        case "llm": self = .llm
        case "apertium": self = .apertium(nil)
        case let spec where spec.hasPrefix("apertium:"):
            let url = String(spec.dropFirst("apertium:".count))
            guard let parsed = URL(string: url), ["http", "https"].contains(parsed.scheme ?? ""), parsed.host != nil else {
                throw ConfigurationError.invalidValue(name: key, value: Redaction.text(value), reason: "apertium:<url> needs an http(s) URL of an APy server" + Redaction.encodingAdvice(url))
            }
            self = .apertium(parsed)
        case let spec where spec.hasPrefix("exec:"):
            let command = String(spec.dropFirst("exec:".count))
            try CommandLabel.checkRunnable(command, key: key)
            self = .exec(Redaction.command(for: Redaction.label(ofCommand: command)))
        default:
            throw ConfigurationError.invalidValue(name: key, value: Redaction.label(ofCommand: value), reason: reason)
        }
    }

    /// As outputs name it: credentials in a URL or command redacted.
    package var description: String {
        switch self {
        case .llm: "llm"
        case .apertium(nil): "apertium"
        case .apertium(let url?): Redaction.text("apertium:\(url.absoluteString)")
        case .exec(let command): Redaction.label(ofCommand: "exec:\(command)")
        }
    }
}
