/// chrF (Popović 2015) as sacrebleu's default chrF2 computes it: character n-grams of orders 1–6 of each string
/// with whitespace removed, precision and recall averaged over the orders both sides have, combined as F-β with
/// β = 2 (recall weighs twice), times 100. Case-sensitive. One sentence against one reference.
package enum ChrF {
    package static let order = 6
    package static let beta = 2.0

    /// The score of `hypothesis` against `reference`, 0–100.
    package static func sentence(_ hypothesis: String, reference: String) -> Double {
        let hyp = Array(hypothesis.filter { !$0.isWhitespace }), ref = Array(reference.filter { !$0.isWhitespace })
        var precision = 0.0, recall = 0.0, orders = 0
        for n in 1...order {
            let hypGrams = grams(hyp, n), refGrams = grams(ref, n)
            let hypTotal = hypGrams.values.reduce(0, +), refTotal = refGrams.values.reduce(0, +)
            guard hypTotal > 0, refTotal > 0 else { continue }
            let matches = hypGrams.reduce(0) { $0 + min($1.value, refGrams[$1.key] ?? 0) }
            precision += Double(matches) / Double(hypTotal)
            recall += Double(matches) / Double(refTotal)
            orders += 1
        }
        guard orders > 0 else { return 0 }
        precision /= Double(orders)
        recall /= Double(orders)
        let factor = beta * beta
        guard precision + recall > 0 else { return 0 }
        return 100 * (1 + factor) * precision * recall / (factor * precision + recall)
    }

    private static func grams(_ characters: [Character], _ n: Int) -> [String: Int] {
        guard characters.count >= n else { return [:] }
        var counts: [String: Int] = [:]
        for start in 0...(characters.count - n) { counts[String(characters[start..<(start + n)]), default: 0] += 1 }
        return counts
    }
}
