/// Full Unicode case folding for the scalars the recognizer scores, matching Python's `str.casefold`
/// used on the training lists (ß → ss, ς → σ), except that Turkish İ folds to plain i as in wordfreq's
/// Turkish list.
enum CaseFolding {
    /// Folded form of every scalar below 0x2000 that folds to a single scalar (0 where it folds to several).
    private static let table: [UInt32] = (0..<0x2000).map { value in
        guard let scalar = Unicode.Scalar(UInt32(value)) else { return UInt32(value) }
        let lower = scalar.properties.lowercaseMapping.unicodeScalars
        if value == 0xDF || value == 0x130 || value == 0x1E9E { return 0 }
        if value == 0x3C2 { return 0x3C3 }
        return lower.count == 1 ? lower.first!.value : UInt32(value)
    }

    @inline(__always)
    static func append(_ v: UInt32, to out: inout [UInt32]) {
        if v < 0x80 {
            out.append(v >= 0x41 && v <= 0x5A ? v | 0x20 : v)
            return
        }
        if v < 0x2000 {
            let folded = table[Int(v)]
            if folded != 0 { out.append(folded); return }
            if v == 0x130 { out.append(0x69); return }
            out.append(0x73); out.append(0x73)  // ß
            return
        }
        guard let scalar = Unicode.Scalar(v), scalar.properties.changesWhenLowercased else {
            out.append(v)
            return
        }
        out.append(contentsOf: scalar.properties.lowercaseMapping.unicodeScalars.map(\.value))
    }
}
