extension Sequence where Element: Hashable {
    /// Each element's first position: config names to config numbers, column names to columns, ids to places.
    package var firstPositions: [Element: Int] {
        var out: [Element: Int] = [:]
        for (position, element) in enumerated() where out[element] == nil { out[element] = position }
        return out
    }
}
