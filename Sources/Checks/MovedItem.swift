import Foundation

/// One item (or record) behind a regressed or improved check: which way it moved and by how much.
/// Ids, languages, reasons and figures only, never a text or reply.
package struct MovedItem: Sendable, Hashable, Codable {
    package var item: String
    /// The record's repeat, for generation records.
    package var repeatIndex: Int?
    /// e.g. `broken` / `fixed` (detection), `lost` / `gained` (served), `fell back` / `recovered`, `slower` / `faster`.
    package var change: String
    /// e.g. `uk → ru`, `model → fallback (timeout)`, `×1.52`.
    package var detail: String

    enum CodingKeys: String, CodingKey { case item, repeatIndex = "repeat", change, detail }

    package init(item: String, repeatIndex: Int? = nil, change: String, detail: String) {
        self.item = item
        self.repeatIndex = repeatIndex
        self.change = change
        self.detail = detail
    }

    /// `uk-03 (repeat 1)`.
    package var name: String { item + (repeatIndex.map { $0 > 0 ? " (repeat \($0))" : "" } ?? "") }

    /// Items listed per check (the rest are counted in `moved_total`): enough to find the cause, short enough for a page.
    package static let listed = 200
    /// Latency checks list their most extreme items only.
    package static let listedRatios = 20
    /// Items a Markdown comment lists per check.
    package static let listedInComment = 10
}

/// The items a check would list either way; the comparison keeps the side its status names.
package struct MovedCandidates: Sendable, Hashable {
    /// Moved the way that makes the metric worse, the other way, and how many of each to list.
    package var worse: [MovedItem]
    package var better: [MovedItem]
    /// Rate checks list both directions (the status's first); latency checks only the status's direction.
    package var bothWays = true
    package var cap = MovedItem.listed
    /// Crisis-flagged items that moved each way: counted in `moved_total`, never listed.
    package var worseWithheld = 0
    package var betterWithheld = 0

    package init(worse: [MovedItem], better: [MovedItem], bothWays: Bool = true, cap: Int = MovedItem.listed, worseWithheld: Int = 0,
                 betterWithheld: Int = 0) {
        self.worse = worse
        self.better = better
        self.bothWays = bothWays
        self.cap = cap
        self.worseWithheld = worseWithheld
        self.betterWithheld = betterWithheld
    }
}

extension MetricCheck {
    /// `moved` and `movedTotal` for this check's status (nil when unchanged or nothing moved).
    package func settlingMoved() -> MetricCheck {
        var out = self
        guard let candidates = movedCandidates, status != .unchanged else { return out }
        let first = status == .regression ? candidates.worse : candidates.better
        let second = status == .regression ? candidates.better : candidates.worse
        let all = first + (candidates.bothWays ? second : [])
        let withheld = status == .regression || candidates.bothWays ? candidates.worseWithheld : 0
        let total = all.count + withheld + (status == .improvement || candidates.bothWays ? candidates.betterWithheld : 0)
        guard total > 0 else { return out }
        out.moved = Array(all.prefix(candidates.cap))
        out.movedTotal = total
        return out
    }
}

extension MovedCandidates {
    /// Per-item CURRENT/BASE ratios (on the machine scale): the items beyond `threshold` each way, most extreme first.
    package static func ratios(_ ratios: [(item: String, ratio: Double)], threshold: Double) -> MovedCandidates {
        let moved = { (entry: (item: String, ratio: Double), change: String) in
            MovedItem(item: entry.item, change: change, detail: String(format: "×%.2f", entry.ratio))
        }
        let slower = ratios.filter { $0.ratio > 1 + threshold }.sorted { ($1.ratio, $0.item) < ($0.ratio, $1.item) }.map { moved($0, "slower") }
        let faster = ratios.filter { $0.ratio < 1 - threshold }.sorted { ($0.ratio, $0.item) < ($1.ratio, $1.item) }.map { moved($0, "faster") }
        return MovedCandidates(worse: slower, better: faster, bothWays: false, cap: MovedItem.listedRatios)
    }
}
