extension ConfusionMatrix {
    /// Gold × predicted counts added one result at a time.
    public struct Tally: Sendable {
        private var counts: [String: [String: Int]] = [:]

        public init() {}

        /// `predicted` is the label reports show: a code, `und` or `error`.
        mutating func add(gold: String, predicted: String) {
            counts[gold, default: [:]][predicted, default: 0] += 1
        }

        var matrix: ConfusionMatrix {
            let gold = Set(counts.keys)
            let predicted = Set(counts.values.flatMap(\.keys))
            let special = ["und", "error"]
            let rows = gold.sorted()
            let columns = (gold.union(predicted.subtracting(special))).sorted() + special.filter(predicted.contains)
            return ConfusionMatrix(rows: rows, columns: columns, counts: rows.map { row in columns.map { counts[row]?[$0] ?? 0 } })
        }
    }

    public init(_ results: [DetectionResult]) {
        var tally = Tally()
        for result in results { tally.add(gold: result.lang.identifier, predicted: result.predictedLabel) }
        self = tally.matrix
    }
}
