import Support
import Foundation

/// Per translation engine and language, how close the pivot's translate-in came to the corpus's English references:
/// the mean sentence chrF (`ChrF`) over the items scored, with its 95% Student-t interval over those items. Computed
/// from the records (the reference config's, crisis-flagged excluded), so every report made of them shows the same.
package struct TranslationQuality: Sendable, Hashable, Codable {
    package var engine: String
    /// The variant the engine translated for; nil in a run without a variants file.
    package var variant: String?
    package var lang: String
    package var n: Int
    package var meanChrF: Double
    /// Nil below two items.
    package var ci: Statistics.Interval?

    enum CodingKeys: String, CodingKey { case engine, variant, lang, n, meanChrF = "mean_chrf", ci }

    /// The table's legend; `lostBelow` is the run's lost-in-translation threshold (`Settings.lostBelowChrF`): below it
    /// the translate-in shares little beyond names and function words with the reference, and the served funnel counts
    /// the record as "lost: translation" whatever the model answered. A convention, not a measured boundary: chrF of a
    /// short message against one reference moves by ±15 points between good paraphrases.
    package static func legend(lostBelow: Double) -> String {
        "chrF of the message as the pivot translated it in, against the corpus's English reference "
        + "(character 1–6-grams, β 2, as sacrebleu's chrF2; 0–100): the mean over the items scored and its 95% Student-t interval over "
        + "those items. Messages the pivot did not translate (a fallback before translate-in) have no score; the served funnel "
            + "counts a message scored below \(String(format: "%g", lostBelow)) as lost in translation (translation_lost_chrf in the thresholds)."
    }

    /// The mean of `scores` and its 95% t-interval (nil below two scores).
    static func summary(_ scores: [Double]) -> (mean: Double, ci: Statistics.Interval?) {
        let mean = Statistics.mean(scores)
        guard scores.count > 1 else { return (mean, nil) }
        let half = Statistics.studentTQuantile(0.975, degrees: Double(scores.count - 1)) * Statistics.standardDeviation(scores) / Double(scores.count).squareRoot()
        return (mean, Statistics.Interval(low: max(0, mean - half), high: min(100, mean + half)))
    }
}

extension GenerationReport {
    /// One row per variant (its engine) and language with a scored translate-in; empty when no record has a score.
    package var translationQuality: [TranslationQuality] {
        let scored = records.filter { $0.route == .pivot && $0.fallbackReason != .crisisProtocol && $0.translateInChrF != nil }
        let variants: [String?] = settings.variants?.map(\.name) ?? [nil]
        return variants.flatMap { (variant: String?) -> [TranslationQuality] in
            let own = scored.filter { $0.variant == variant }
            let declared = settings.variants?.first { $0.name == variant }
            let engine = (declared?.translator ?? settings.translator).map(\.name) ?? TranslationEngine.llm.name
            return Dictionary(grouping: own, by: \.lang.identifier).sorted { $0.key < $1.key }.map { lang, records in
                let (mean, ci) = TranslationQuality.summary(records.compactMap(\.translateInChrF))
                return TranslationQuality(engine: engine, variant: variant, lang: lang, n: records.count, meanChrF: mean, ci: ci)
            }
        }
    }

    /// The quality table as report.md shows it; nil when no record has a score (no references, or no pivot).
    package var translationQualityTable: ReportTable? {
        let rows = translationQuality
        guard !rows.isEmpty else { return nil }
        // A variant column only where it says more than the engine (variants named after their engines need none).
        let variants = rows.contains { $0.variant != nil && $0.variant != $0.engine }
        var table = ReportTable(title: "Translation quality of the pivot's translate-in (chrF vs the English reference)", columns:
            [.init("engine")] + (variants ? [.init("variant")] : []) + [
            .init("lang"), .numeric("n"), .numeric("mean_chrf", title: "mean chrF"), .init("ci", title: "95% interval"),
        ])
        for row in rows {
            table.append([.text(row.engine)] + (variants ? [.text(row.variant ?? "")] : []) + [.text(row.lang), .number(Double(row.n), digits: 0),
                          .number(row.meanChrF, digits: 1), .text(row.ci.map { String(format: "%.1f–%.1f", $0.low, $0.high) } ?? "—")])
        }
        return table
    }
}
