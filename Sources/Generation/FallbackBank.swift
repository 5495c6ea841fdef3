import Items

/// Canned replies per language (Corpora/fallback-bank.tsv): `fallback` lines for failed stages and
/// one `crisis-safe` line for the crisis protocol. English stands in for a language without lines.
public struct FallbackBank: Sendable {
    var replies: [String: [String]]
    var crisisReplies: [String: String]

    public init(_ corpus: Corpus) {
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

    public static let defaultPath = "Corpora/fallback-bank.tsv"

    /// A fallback reply, chosen deterministically from `key` so reruns give the same line.
    public func reply(for lang: LanguageCode, key: String) -> String {
        let lines = replies[lang.language] ?? replies["en"] ?? ["…"]
        let hash = key.unicodeScalars.reduce(UInt64(1469598103934665603)) { ($0 ^ UInt64($1.value)) &* 1099511628211 }
        return lines[Int(hash % UInt64(lines.count))]
    }

    public func crisisReply(for lang: LanguageCode) -> String {
        crisisReplies[lang.language] ?? crisisReplies["en"] ?? "Please reach out to local emergency services or someone you trust."
    }

    /// Languages with canned lines.
    public var languages: [String] { replies.keys.sorted() }
}
