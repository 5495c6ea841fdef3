extension Array where Element == Double {
    /// The middle value (mean of the two middle values for an even count); `nil` when empty.
    /// Medians, not means: this machine has bursts of 10–100× slowdown.
    var median: Double? {
        guard !isEmpty else { return nil }
        let sorted = self.sorted()
        let middle = sorted.count / 2
        return sorted.count.isMultiple(of: 2) ? (sorted[middle - 1] + sorted[middle]) / 2 : sorted[middle]
    }
}
