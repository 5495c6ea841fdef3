/// Counts of gold language (rows) against prediction (columns, including `und` and `error`).
public struct ConfusionMatrix: Sendable, Hashable, Codable {
    package var rows: [String]
    package var columns: [String]
    /// counts[row][column]
    package var counts: [[Int]]

    /// The languages shown in the Cyrillic block of reports.
    package static let cyrillic = ["ru", "uk", "be", "bg", "mk", "sr", "kk"]

    init(rows: [String], columns: [String], counts: [[Int]]) {
        self.rows = rows
        self.columns = columns
        self.counts = counts
    }

    /// The block of `languages` (in that order) that occur as gold labels, with one `other` column
    /// for every prediction outside the block.
    package func block(_ languages: [String]) -> ConfusionMatrix {
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
