import Foundation

extension DetectionResult {
    /// The canonical order of results: config order, then item id. Independent of how the items were
    /// split or interrupted, so a resumed or merged run equals an uninterrupted one. Results for items
    /// or configs not in `configs`/`items` (when given) are dropped; duplicates keep the first.
    public static func ordered(_ results: [DetectionResult], configs: [String], items: Set<String>? = nil) -> [DetectionResult] {
        let configIndex = Dictionary(uniqueKeysWithValues: configs.enumerated().map { ($1, $0) })
        var seen = Set<String>()
        return results
            .filter { configIndex[$0.config] != nil && (items?.contains($0.itemID) ?? true) }
            .filter { seen.insert(DetectionRunner.key(item: $0.itemID, config: $0.config)).inserted }
            .sorted { (configIndex[$0.config]!, $0.itemID) < (configIndex[$1.config]!, $1.itemID) }
    }
}
