import Support
import Foundation
import Corpus

/// Pivot/direct ratio of one metric on the items that got a model reply on both routes (same repeat),
/// per slice. Medians with an order-statistic interval from `Statistics.minimumForInterval` pairs. The `all`
/// slice leaves out the English A/A control: its pivot is the direct route, so it would pull the ratio
/// towards 1.0; the control has its own `lang=en` slice.
package struct PairedRatio: Sendable, Hashable, Codable {
    /// What is divided: end to end, first token, or the length-controlled cost per generated token (every
    /// request, translations included) and per token of the reply the person reads.
    package enum Metric: String, Sendable, Codable, CaseIterable {
        case total = "total_ms", ttft = "ttft_ms", msPerToken = "ms_per_token", msPerReplyToken = "ms_per_reply_token"
        /// Only the English control reads it: on other languages the pivot's reply tokens are another text's.
        case tpot = "tpot_ms"

        /// The metrics of the route tables.
        static let tabled: [Metric] = [.total, .ttft, .msPerToken, .msPerReplyToken]

        func value(_ record: GenerationRecord) -> Double? {
            switch self {
            case .total: record.totalMs
            case .ttft: record.ttftMs
            case .tpot: record.tpotMs
            case .msPerToken: record.msPerToken
            case .msPerReplyToken: record.msPerReplyToken
            }
        }
    }

    package var slice: String
    package var metric: Metric
    package var pairs: Int
    package var medianRatio: Double
    /// Nil below `Statistics.minimumForInterval` pairs.
    package var ci: Statistics.Interval?

    enum CodingKeys: String, CodingKey { case slice, metric, pairs, medianRatio = "median_ratio", ci }

    init(slice: String, metric: Metric, ratios: [Double], confidence: Double = 0.95) {
        self.slice = slice
        self.metric = metric
        pairs = ratios.count
        medianRatio = Statistics.quantile(ratios, 0.5)
        ci = ratios.count >= Statistics.minimumForInterval ? Statistics.quantileInterval(ratios, 0.5, confidence: confidence) : nil
    }

    /// The items (per repeat) with a model reply on both routes, each as its two records.
    static func routePairs(_ records: [GenerationRecord]) -> [(lang: LanguageCode, direct: GenerationRecord, pivot: GenerationRecord)] {
        let model = records.filter { $0.outcome == .model }
        var direct: [String: GenerationRecord] = [:]
        for record in model where record.route == .direct { direct["\(record.itemID)#\(record.repeatIndex)"] = record }
        // In a pool both routes normally ran on one server; a pair split by a failed server would mix machines.
        return model.filter { $0.route == .pivot }.compactMap { pivot in
            direct["\(pivot.itemID)#\(pivot.repeatIndex)"].flatMap { $0.server == pivot.server ? (lang: pivot.lang, direct: $0, pivot: pivot) : nil }
        }
    }

    static func all(_ records: [GenerationRecord]) -> [PairedRatio] {
        let pairs = routePairs(records)
        var rows: [PairedRatio] = []
        for metric in Metric.tabled {
            func ratios(_ subset: [(lang: LanguageCode, direct: GenerationRecord, pivot: GenerationRecord)]) -> [Double] {
                subset.compactMap { pair in
                    guard let a = metric.value(pair.direct), let b = metric.value(pair.pivot), a > 0 else { return nil }
                    return b / a
                }
            }
            let everything = ratios(pairs.filter { $0.lang.identifier != ControlCheck.language })
            if !everything.isEmpty { rows.append(PairedRatio(slice: "all", metric: metric, ratios: everything)) }
            for (lang, subset) in Dictionary(grouping: pairs, by: \.lang).sorted(by: { $0.key < $1.key }) {
                let values = ratios(subset)
                if !values.isEmpty { rows.append(PairedRatio(slice: SliceKey.lang("\(lang)").description, metric: metric, ratios: values)) }
            }
        }
        return rows
    }
}

/// The in-run A/A control: English takes the same prompt on both routes, so its pivot/direct ratios must come out
/// equal on total_ms, TTFT and TPOT alike (a bias in prompt processing shows in TTFT, one in generation in TPOT, and
/// they can cancel in the total). Each is a median ratio with an order-statistic interval at 1 − 0.05/3 (Bonferroni
/// over the three); an interval that excludes 1.0 means order, cache state or drift biased this run's timings.
package struct ControlCheck: Sendable, Hashable, Codable {
    package enum Verdict: String, Sendable, Codable {
        /// Every interval contains 1.0.
        case consistent
        /// An interval excludes 1.0: do not read this run's route ratios.
        case biased
        /// Fewer pairs than an interval needs.
        case tooFewPairs = "too-few-pairs"
    }

    package static let language = "en"
    /// Each of the three intervals at this confidence, so that all three hold together at 95%.
    static let confidence = 1 - 0.05 / 3

    /// The total_ms ratio (what the route tables show), and the components judged with it.
    package var ratio: PairedRatio
    package var ttft: PairedRatio?
    package var tpot: PairedRatio?
    package var verdict: Verdict

    init?(_ records: [GenerationRecord]) {
        let pairs = PairedRatio.routePairs(records).filter { $0.lang.identifier == Self.language }
        func ratio(_ value: (GenerationRecord) -> Double?) -> [Double] {
            pairs.compactMap { pair in value(pair.direct).flatMap { a in value(pair.pivot).flatMap { b in a > 0 && b > 0 ? b / a : nil } } }
        }
        let slice = SliceKey.lang(Self.language).description
        let totals = ratio(\.totalMs)
        guard !totals.isEmpty else { return nil }
        self.ratio = PairedRatio(slice: slice, metric: .total, ratios: totals, confidence: Self.confidence)
        let ttfts = ratio(\.ttftMs), tpots = ratio(\.tpotMs)
        ttft = ttfts.isEmpty ? nil : PairedRatio(slice: slice, metric: .ttft, ratios: ttfts, confidence: Self.confidence)
        tpot = tpots.isEmpty ? nil : PairedRatio(slice: slice, metric: .tpot, ratios: tpots, confidence: Self.confidence)
        let judged = [self.ratio, ttft, tpot].compactMap { $0 }
        if self.ratio.ci == nil {
            verdict = .tooFewPairs
        } else {
            verdict = judged.contains { $0.ci.map { $0.low > 1 || $0.high < 1 } ?? false } ? .biased : .consistent
        }
    }

    /// The components judged, with their names.
    var components: [(name: String, ratio: PairedRatio)] {
        [("total", ratio)] + [("TTFT", ttft), ("TPOT", tpot)].compactMap { name, ratio in ratio.map { (name, $0) } }
    }

    /// The range of bias each component's interval is compatible with, in percent: `total −4…+6%`.
    var biasRange: String {
        components.compactMap { name, ratio in
            ratio.ci.map { String(format: "%@ %+.0f…%+.0f%%", name, ($0.low - 1) * 100, ($0.high - 1) * 100) }
        }.joined(separator: ", ")
    }

    /// The intervals' exact coverage: the order statistics' steps give more than the 98.3% asked for.
    var coverageText: String {
        let coverage = Statistics.quantileIntervalCoverage(n: ratio.pairs, 0.5, confidence: Self.confidence) ?? Self.confidence
        return String(format: "%.1f%%", coverage * 100)
    }

    /// The largest bias inside any component's interval, in words: `+34% (TTFT)`.
    var largestMissed: String {
        let ends = components.compactMap { name, ratio in ratio.ci.map { (name, max($0.high - 1, 1 - $0.low), $0.high - 1 >= 1 - $0.low) } }
        guard let worst = ends.max(by: { $0.1 < $1.1 }) else { return "—" }
        return String(format: "%@%.0f%% (%@)", worst.2 ? "+" : "−", worst.1 * 100, worst.0)
    }

    /// One line for the report and the console.
    package var sentence: String {
        let figures = components.map { name, ratio in String(format: "%@ %.2f×", name, ratio.medianRatio) }.joined(separator: ", ")
        let head = "English A/A control (pivot/direct, \(ratio.pairs) pairs): \(figures)"
        return switch verdict {
        case .consistent:
            head + ": every interval contains 1.0; the timings are compatible with a route bias of \(biasRange) (order-statistic intervals of the "
                + "median, \(coverageText) each, at least 95% together), so a bias up to \(largestMissed) could be there unseen with \(ratio.pairs) pairs."
        case .biased:
            "⚠️ " + head + ": an interval EXCLUDES 1.0 (\(biasRange)), so order, cache state or drift biased this run; do not read its route ratios."
        case .tooFewPairs: head + ": too few pairs for an interval (need \(Statistics.minimumForInterval))."
        }
    }
}
