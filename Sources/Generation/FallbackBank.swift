import Support
import Corpus

/// Canned replies per language (Corpora/fallback-bank.tsv): `fallback` lines for failed stages and
/// one `crisis-safe` line for the crisis protocol. English stands in for a language without lines.
package struct FallbackBank: Sendable {
    var replies: [String: [String]]
    var crisisReplies: [String: String]

    package init(_ corpus: Corpus) {
        var replies: [String: [String]] = [:]
        var crisis: [String: String] = [:]
        for item in corpus.items {
            if item.hasTag("crisis-safe") {
                crisis[item.lang.language] = item.text
            } else {
                replies[item.lang.language, default: []].append(item.text)
            }
        }
        self.replies = replies
        crisisReplies = crisis
    }

    /// The default bank, inside the tool's resources (`ToolResources`).
    package static let defaultResource = "Corpora/fallback-bank.tsv"
    package static var defaultPath: String { ToolResources.path(defaultResource) }

    /// A fallback reply, chosen deterministically from `key` so reruns give the same line.
    package func reply(for lang: LanguageCode, key: String) -> String {
        let lines = replies[lang.language] ?? replies["en"] ?? ["…"]
        var hash = FNV1a64()
        hash.add(key)
        return lines[Int(hash.value % UInt64(lines.count))]
    }

    package func crisisReply(for lang: LanguageCode) -> String {
        crisisReplies[lang.language] ?? crisisReplies["en"] ?? "Please reach out to local emergency services or someone you trust."
    }

    /// Languages with canned lines.
    package var languages: [String] { replies.keys.sorted() }
}
