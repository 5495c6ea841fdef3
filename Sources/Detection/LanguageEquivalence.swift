import Corpus

/// Language codes seen in a run, numbered: each identifier once, and each `languageAndScript` key (the
/// equivalence behind "correct", which asks `Locale`) once. Scoring a result then costs two look-ups
/// instead of `Locale` calls and string-keyed counting per slice.
struct LanguageEquivalence: Sendable {
    private var numbers: [String: Int] = [:]
    /// Codes by number.
    private(set) var codes: [LanguageCode] = []
    /// Equivalence key number by code number.
    private var keyOf: [Int] = []
    private var keys: [String: Int] = [:]
    /// Up to this many codes are found by a scan rather than a hash.
    private static let scanned = 16

    /// The number of `code`'s identifier.
    mutating func number(_ code: LanguageCode) -> Int {
        // A run sees a handful of codes: comparing short identifiers beats hashing them (once per result).
        if codes.count <= Self.scanned {
            if let known = codes.firstIndex(where: { $0.identifier == code.identifier }) { return known }
        } else if let known = numbers[code.identifier] {
            return known
        }
        let number = codes.count
        numbers[code.identifier] = number
        codes.append(code)
        let key = code.languageAndScript
        if keys[key] == nil { keys[key] = keys.count }
        keyOf.append(keys[key]!)
        return number
    }

    /// The equivalence key number of code number `number`: equal keys are equivalent codes.
    func key(_ number: Int) -> Int { keyOf[number] }
}
