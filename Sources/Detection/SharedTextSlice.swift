import Support
import Corpus

/// Detection over one import's shared texts (`SharedTexts`): per config and per set of languages, how many texts
/// there were and how many the config named as any of their languages. A report-only slice: it pairs nothing
/// and `compare` checks none of it.
public struct SharedTextSlice: Sendable, Hashable, Codable {
    public struct Tally: Sendable, Hashable, Codable {
        public var config: String
        /// The texts' languages, `;`-separated in code order (`mk;sr`).
        public var languages: String
        public var n: Int
        /// Named as any of the text's languages (locale-equivalent); abstentions and failures are wrong.
        public var right: Int
    }

    public var path: String
    public var sha256: String
    /// Texts read (a shard's own, in a shard).
    public var texts: Int
    public var tallies: [Tally]

    /// The name its tables go by (`outside`).
    package var name: String { SharedTexts.name(of: path) }

    /// The tallies of shards of one run over one file, summed (tallies in first-seen order).
    package static func merged(_ shards: [[SharedTextSlice]]) -> [SharedTextSlice] {
        var merged: [SharedTextSlice] = []
        for slice in shards.joined() {
            guard let at = merged.firstIndex(where: { $0.path == slice.path && $0.sha256 == slice.sha256 }) else {
                merged.append(slice)
                continue
            }
            merged[at].texts += slice.texts
            for tally in slice.tallies {
                if let row = merged[at].tallies.firstIndex(where: { $0.config == tally.config && $0.languages == tally.languages }) {
                    merged[at].tallies[row].n += tally.n
                    merged[at].tallies[row].right += tally.right
                } else {
                    merged[at].tallies.append(tally)
                }
            }
        }
        return merged
    }
}

extension DetectionRunner {
    /// Detects every shared text with each of the run's own configs (not the sweep's, which the tables leave out), counting a
    /// text right when the answer is any of its languages. `detectors` stay running (the caller shuts them down).
    package func detect(_ shared: SharedTexts, detectors: Detectors) async -> SharedTextSlice {
        let items = shared.texts.map { CorpusItem(id: $0.id, lang: $0.languages[0], text: $0.text) }
        let own = configs.filter { DetectionSweep.set(ofConfig: $0.config.name) == nil }
        var tallies: [SharedTextSlice.Tally] = []
        for resolved in own.isEmpty ? configs : own {
            let pass = ConfigPass(resolved: resolved, detector: detectors.made[resolved.config.detector]!.detector, jobs: jobs)
            var predicted: [LanguageCode?] = []
            predicted.reserveCapacity(items.count)
            for start in stride(from: 0, to: items.count, by: batchSize) {
                let (chunks, _) = await pass.detect(items[start..<min(items.count, start + batchSize)])
                for chunk in chunks {
                    switch chunk {
                    case .detections(let detections): predicted += detections.bests.map { $0?.lang }
                    case .results(let results): predicted += results.map(\.predicted)
                    }
                }
            }
            var counts: [String: (n: Int, right: Int)] = [:]
            for (text, answer) in zip(shared.texts, predicted) {
                let key = text.languages.map(\.identifier).sorted().joined(separator: ";")
                let right = answer.map { answer in text.languages.contains { answer.isEquivalent(to: $0) } } ?? false
                counts[key, default: (0, 0)].n += 1
                if right { counts[key, default: (0, 0)].right += 1 }
            }
            tallies += counts.keys.sorted().map { SharedTextSlice.Tally(config: resolved.config.name, languages: $0, n: counts[$0]!.n, right: counts[$0]!.right) }
        }
        return SharedTextSlice(path: shared.path, sha256: shared.sha256, texts: shared.texts.count, tallies: tallies)
    }
}

extension DetectionReport {
    /// Sets of languages shown on a row of their own; the rest are summed on one row.
    static let sharedTextRowMinimum = 100

    /// Accuracy per config over one file's shared texts, "right" meaning any of a text's languages: all texts, then each set of
    /// languages with at least `sharedTextRowMinimum` texts (most first), then the other sets together; the shipped config's 95% interval.
    package func sharedTextTable(_ slice: SharedTextSlice, title: String) -> ReportTable {
        let configs = primaryConfigs, shipped = shippedConfig?.name
        func sum(_ config: String, _ include: (String) -> Bool) -> (n: Int, right: Int) {
            slice.tallies.filter { $0.config == config && include($0.languages) }.reduce((0, 0)) { ($0.0 + $1.n, $0.1 + $1.right) }
        }
        let sizes = Dictionary(slice.tallies.filter { $0.config == configs.first?.name }.map { ($0.languages, $0.n) }, uniquingKeysWith: +)
        let shown = sizes.filter { $0.value >= Self.sharedTextRowMinimum }.sorted { ($1.value, $0.key) < ($0.value, $1.key) }.map(\.key)
        let rest = sizes.count - shown.count
        var rows: [(label: String, include: (String) -> Bool)] = [("all", { _ in true })]
        rows += shown.map { set in (set.split(separator: ";").joined(separator: " or "), { $0 == set }) }
        if rest > 0 { rows.append(("\(rest) other sets", { !shown.contains($0) })) }
        var table = ReportTable(title: title, columns: [.init("languages"), .numeric("n")]
                                + configs.map { .numeric($0.name, title: "\($0.name) %") } + [.init("ci95", title: "95% CI")])
        for row in rows {
            let n = sum(configs.first?.name ?? "", row.include).n
            let interval = shipped.map { sum($0, row.include) }.map { ReportCell.text(Self.percentInterval(Statistics.wilson(successes: $0.right, trials: $0.n))) }
            table.append([.text(row.label), .int(n)]
                         + configs.map { config in
                             let counts = sum(config.name, row.include)
                             return counts.n > 0 ? .percent(Double(counts.right) / Double(counts.n)) : .empty
                         } + [interval ?? .empty])
        }
        return table
    }

    /// The sentence above a shared-text table.
    package func sharedTextSentence(_ slice: SharedTextSlice) -> String {
        "\(slice.texts) texts the import found in more than one language, kept out of the single-label corpus: a config is right "
            + "when it names any of a text's languages (with candidates, a text none of whose languages is one is wrong by construction). The interval is the \(shippedConfig?.name ?? "") config's; compare checks none of it."
    }
}
