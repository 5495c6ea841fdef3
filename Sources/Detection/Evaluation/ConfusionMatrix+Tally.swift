import Corpus

extension ConfusionMatrix {
    /// Gold × predicted counts added one result at a time. Gold languages and predictions are code
    /// numbers (`LanguageEquivalence`); the names are given when the matrix is built.
    struct Tally: Sendable {
        /// Columns: a code number, or `und` / `error`.
        static let undetermined = -1, failed = -2
        /// Counts by gold code number, then by column + 2 (so `failed` is 0 and `und` 1): code numbers
        /// are small and dense, so a grid beats hashing per result.
        private var counts: [[Int]] = []

        mutating func add(gold: Int, predicted: Int) {
            if counts.count <= gold { counts += Array(repeating: [], count: gold + 1 - counts.count) }
            let column = predicted + 2
            if counts[gold].count <= column { counts[gold] += Array(repeating: 0, count: column + 1 - counts[gold].count) }
            counts[gold][column] += 1
        }

        /// The matrix with codes named by `codes` (code number → code).
        func matrix(codes: [LanguageCode]) -> ConfusionMatrix {
            let name = { (column: Int) in column == Self.undetermined ? "und" : column == Self.failed ? "error" : codes[column].identifier }
            var named: [String: [String: Int]] = [:]
            for (gold, row) in counts.enumerated() {
                for (column, count) in row.enumerated() where count > 0 { named[name(gold), default: [:]][name(column - 2), default: 0] += count }
            }
            let gold = Set(named.keys)
            let predicted = Set(named.values.flatMap(\.keys))
            let special = ["und", "error"]
            let rows = gold.sorted()
            let columns = (gold.union(predicted.subtracting(special))).sorted() + special.filter(predicted.contains)
            return ConfusionMatrix(rows: rows, columns: columns, counts: rows.map { row in columns.map { named[row]?[$0] ?? 0 } })
        }
    }

    package init(_ results: [DetectionResult]) {
        var tally = Tally()
        var equivalence = LanguageEquivalence()
        for result in results {
            tally.add(gold: equivalence.number(result.lang), predicted: Tally.column(result, equivalence: &equivalence))
        }
        self = tally.matrix(codes: equivalence.codes)
    }
}

extension ConfusionMatrix.Tally {
    /// The column of `result`'s prediction: its code's number, `und` or `error`.
    static func column(_ result: DetectionResult, equivalence: inout LanguageEquivalence) -> Int {
        if let predicted = result.predicted { return equivalence.number(predicted) }
        return result.error == nil ? undetermined : failed
    }
}
