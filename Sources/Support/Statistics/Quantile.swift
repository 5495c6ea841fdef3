/// Order statistics shared by the harness's reports and the backend benchmark.
package enum Quantile {
    /// The q-quantile of already sorted values by linear interpolation between closest ranks (type 7,
    /// as NumPy's default); NaN when empty.
    package static func of(sorted: [Double], _ q: Double) -> Double {
        guard !sorted.isEmpty else { return .nan }
        let position = q * Double(sorted.count - 1)
        let lower = Int(position.rounded(.down)), upper = min(lower + 1, sorted.count - 1)
        let fraction = position - Double(lower)
        return sorted[lower] + (sorted[upper] - sorted[lower]) * fraction
    }

    /// The q-quantile of `values` in any order.
    package static func of(_ values: [Double], _ q: Double) -> Double {
        of(sorted: values.sorted(), q)
    }
}

extension Array where Element == Double {
    /// The middle value (mean of the two middle values for an even count); `nil` when empty.
    package var median: Double? {
        isEmpty ? nil : Quantile.of(self, 0.5)
    }
}
