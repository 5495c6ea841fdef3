/// Counts of gold language (rows) against prediction (columns, including `und` and `error`).
public struct ConfusionMatrix: Sendable, Hashable, Codable {
    public var rows: [String]
    public var columns: [String]
    /// counts[row][column]
    public var counts: [[Int]]

    /// The languages shown in the Cyrillic block of reports.
    public static let cyrillic = ["ru", "uk", "be", "bg", "mk", "sr", "kk"]

    public init(_ results: [DetectionResult]) {
        let gold = Set(results.map(\.lang.identifier))
        let predicted = Set(results.map(\.predictedLabel))
        rows = gold.sorted()
        let special = ["und", "error"]
        columns = (gold.union(predicted.subtracting(special))).sorted() + special.filter(predicted.contains)
        let rowIndex = Dictionary(uniqueKeysWithValues: rows.enumerated().map { ($1, $0) })
        let columnIndex = Dictionary(uniqueKeysWithValues: columns.enumerated().map { ($1, $0) })
        var counts = Array(repeating: Array(repeating: 0, count: columns.count), count: rows.count)
        for result in results {
            counts[rowIndex[result.lang.identifier]!][columnIndex[result.predictedLabel]!] += 1
        }
        self.counts = counts
    }

    init(rows: [String], columns: [String], counts: [[Int]]) {
        self.rows = rows
        self.columns = columns
        self.counts = counts
    }

    /// The block of `languages` (in that order) that occur as gold labels, with one `other` column
    /// for every prediction outside the block.
    public func block(_ languages: [String]) -> ConfusionMatrix {
        let keep = languages.filter(rows.contains)
        let blockColumns = keep + ["other"]
        let blockCounts = keep.map { row -> [Int] in
            let r = rows.firstIndex(of: row)!
            var line = keep.map { column in columns.firstIndex(of: column).map { counts[r][$0] } ?? 0 }
            line.append(counts[r].reduce(0, +) - line.reduce(0, +))
            return line
        }
        return ConfusionMatrix(rows: keep, columns: blockColumns, counts: blockCounts)
    }
}
