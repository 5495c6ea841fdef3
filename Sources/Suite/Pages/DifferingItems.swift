import Support
import Detection
import Foundation
import Corpus

/// The run page's table of items whose answer differs between configs, built one item at a time in id
/// order: the first `rowCap` rows (all the page shows) and the count of every row, so that a run of
/// any size is read in memory of one page. A crisis-flagged item is counted in `hidden`, never listed;
/// `flip:<config>` is `fixed` or `broken` against the first config, as in detection-items.csv.
package struct DifferingItems {
    let configs: [String]
    let rowCap: Int
    private let texts: ItemTexts
    private let crisis: Set<String>
    /// The first `rowCap` rows.
    private(set) var table: ReportTable
    /// Rows in all, listed or not.
    private(set) var rows = 0
    /// Differing items left out for being crisis-flagged.
    private(set) var hidden = 0
    /// The wrong answers, built in the same pass.
    private(set) var misdetected: MisdetectedItems

    /// `candidates`: per config, its resolved candidate set (nil or missing: unconstrained).
    init(configs: [String], candidates: [[String]?] = [], texts: ItemTexts, crisis: Set<String>, rowCap: Int = HTMLWriter.defaultRowCap) {
        self.configs = configs
        misdetected = MisdetectedItems(configs: configs, candidates: candidates, texts: texts, crisis: crisis, rowCap: rowCap)
        self.rowCap = rowCap
        self.texts = texts
        self.crisis = crisis
        var columns: [ReportTable.Column] = [.init("item_id"), .init("lang"), .init("length"), .init("tags"), .init("text")]
        for config in configs {
            columns += [.init("answer:\(config)", title: "\(config) answer"), .init("correct:\(config)", title: "\(config) correct"),
                        .numeric("confidence:\(config)", title: "\(config) confidence")]
        }
        columns += configs.dropFirst().map { .init("flip:\($0)", title: "\($0) vs \(configs[0])") }
        table = ReportTable(title: "Items whose answer differs between configs", columns: columns)
    }

    /// Adds item `id` (after every smaller id) with its result per config number (nil where a config has none).
    mutating func add(_ id: String, answers: [DetectionResult?]) {
        misdetected.add(id, answers: answers)
        guard let first = answers.first(where: { $0 != nil }) ?? nil else { return }
        let label = first.predictedLabel
        guard answers.contains(where: { $0 != nil && $0!.predictedLabel != label }) else { return }
        if crisis.contains(id) {
            hidden += 1
            return
        }
        rows += 1
        guard rows <= rowCap else { return }
        var row: [ReportCell] = [.text(id), .text(first.lang.identifier), .text(first.length.rawValue), .text(first.tags.joined(separator: ";")),
                                 .optionalText(texts.text(id))]
        for r in answers {
            row += [.optionalText(r?.predictedLabel), r.map { .bool($0.correct) } ?? .empty, r?.confidence.map { .number($0, digits: 4) } ?? .empty]
        }
        let base = answers[0]?.correct
        for answer in answers.dropFirst() {
            guard let base, let now = answer?.correct, now != base else { row.append(.empty); continue }
            row.append(.text(now ? "fixed" : "broken"))
        }
        table.append(row)
    }

    /// The table of `results` held in memory (the first of a config's duplicates kept).
    static func of(_ results: [DetectionResult], configs: [String], candidates: [[String]?] = [], texts: ItemTexts, crisis: Set<String>,
                   rowCap: Int = HTMLWriter.defaultRowCap) -> DifferingItems {
        var items = DifferingItems(configs: configs, candidates: candidates, texts: texts, crisis: crisis, rowCap: rowCap)
        let number = configs.firstPositions
        var byItem: [String: [DetectionResult?]] = [:]
        let none = [DetectionResult?](repeating: nil, count: configs.count)
        for result in results {
            guard let config = number[result.config] else { continue }
            if byItem[result.itemID, default: none][config] == nil { byItem[result.itemID, default: none][config] = result }
        }
        for id in byItem.keys.sorted() { items.add(id, answers: byItem[id]!) }
        return items
    }

    /// The table of a run's results streamed from its log (`DetectionStore`): one pass per config, each
    /// read to the end of its config's results and joined by id (`ResultMerge`) (the log is not checked complete here:
    /// `compare` and `merge` do that).
    static func of(_ store: DetectionStore, configs shown: [String]? = nil, candidates: [[String]?] = [], texts: ItemTexts, crisis: Set<String>,
                   rowCap: Int = HTMLWriter.defaultRowCap) throws -> DifferingItems {
        let configs = shown ?? store.configs
        // Each shown config's number in the store.
        let numbers = configs.compactMap { store.configs.firstIndex(of: $0) }
        do {
            var items = DifferingItems(configs: configs, candidates: candidates, texts: texts, crisis: crisis, rowCap: rowCap)
            let passes = try numbers.map { _ in try store.cursor() }
            var merge = try ResultMerge(sources: passes.count, order: .id) { shown in try passes[shown].next(ofConfig: numbers[shown]).map { (shown, $0) } }
            var answers: [DetectionResult?] = Array(repeating: nil, count: configs.count), id: String?
            while let head = try merge.next() {
                if head.result.itemID != id {
                    if let id { items.add(id, answers: answers) }
                    answers = Array(repeating: nil, count: configs.count)
                    id = head.result.itemID
                }
                answers[head.source] = head.result
            }
            if let id { items.add(id, answers: answers) }
            return items
        }
    }
}
