/// `LanguageCode.languageAndScript` remembered per identifier: the equivalence behind "correct",
/// which asks `Locale` and so dominated the cost of scoring a result when asked per result.
struct LanguageEquivalence: Sendable {
    private var keys: [String: String] = [:]

    mutating func key(_ code: LanguageCode) -> String {
        if let known = keys[code.identifier] { return known }
        let key = code.languageAndScript
        keys[code.identifier] = key
        return key
    }

    /// `predicted.isEquivalent(to: gold)`, remembered; no prediction is never correct.
    mutating func isCorrect(predicted: LanguageCode?, gold: LanguageCode) -> Bool {
        guard let predicted else { return false }
        return predicted.identifier == gold.identifier || key(predicted) == key(gold)
    }
}
