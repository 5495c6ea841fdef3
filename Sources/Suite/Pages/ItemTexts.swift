import Generation
import Corpus

/// The corpus texts a page shows beside per-item results (records never hold text), and which items
/// are crisis-flagged: those appear on a page only as counts, never with their text or reply.
package struct ItemTexts: Sendable {
    var texts: [String: String] = [:]
    var crisis: Set<String> = []
    /// Why some or all texts are not shown (a corpus that cannot be read any more, say).
    var problem: String?

    func text(_ id: String) -> String? { crisis.contains(id) ? nil : texts[id] }

    /// Above this many items the corpora are not read again for the page (a large run's page lists ids and
    /// answers; the texts are in the corpus files).
    static let maxItems = 200_000

    /// The texts of the corpora a run names, read again from their paths. A corpus whose SHA-256 is not the one the
    /// run recorded has changed since: its ids may now name other texts, so no text is shown and the file is named
    /// (the items it flags as crisis now are still withheld).
    /// A shard's run reads only its own items' texts (and checks only them for crisis keywords).
    static func load(_ sources: [CorpusSource], shard: Shard? = nil, crisisPath: String = CrisisCheck.defaultPath) -> ItemTexts {
        var out = ItemTexts()
        guard !sources.isEmpty else { return out }
        let items = sources.reduce(0) { $0 + $1.items }
        guard items <= maxItems else {
            out.problem = "the corpora hold \(items) items; texts are shown for runs of at most \(maxItems)."
            return out
        }
        let corpus: Corpus
        do {
            corpus = try CorpusLoader().load(sources.map(\.path))
        } catch {
            out.problem = "the corpus could not be read again (\(error))."
            return out
        }
        let check: CrisisCheck
        do {
            check = try CrisisCheck.load(crisisPath)
        } catch {
            // Without the keyword list no text can be shown safely: only counts.
            out.problem = "the crisis keyword list could not be read (\(error)), so no text is shown."
            return out
        }
        let changed = zip(sources, corpus.sources).filter { $0.sha256 != $1.sha256 }
        if !changed.isEmpty {
            out.problem = changed.map { "\($0.path) changed since the run (SHA-256 \($0.sha256.prefix(12)) recorded, \($1.sha256.prefix(12)) now)" }
                .joined(separator: "; ") + ", so no text is shown."
        }
        for item in corpus.items where shard?.contains(item.id) ?? true {
            if check.isCrisis(item, detected: nil) { out.crisis.insert(item.id) } else if changed.isEmpty { out.texts[item.id] = item.text }
        }
        return out
    }
}
