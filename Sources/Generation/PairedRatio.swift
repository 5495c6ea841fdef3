import BenchSupport
import Detection
import Items
import RunProvenance

/// Pivot/direct ratio of one metric on the items that got a model reply on both routes (same repeat),
/// per slice. Medians with a bootstrap interval from `Statistics.minimumForInterval` pairs. The `all`
/// slice leaves out the English A/A control: its pivot is the direct route, so it would pull the ratio
/// towards 1.0; the control has its own `lang=en` slice.
public struct PairedRatio: Sendable, Hashable, Codable {
    /// What is divided: end to end, first token, or the length-controlled cost per generated token (every
    /// request, translations included) and per token of the reply the person reads.
    public enum Metric: String, Sendable, Codable, CaseIterable {
        case total = "total_ms", ttft = "ttft_ms", msPerToken = "ms_per_token", msPerReplyToken = "ms_per_reply_token"

        func value(_ record: GenerationRecord) -> Double? {
            switch self {
            case .total: record.totalMs
            case .ttft: record.ttftMs
            case .msPerToken: record.msPerToken
            case .msPerReplyToken: record.msPerReplyToken
            }
        }
    }

    public var slice: String
    public var metric: Metric
    public var pairs: Int
    public var medianRatio: Double
    /// Nil below `Statistics.minimumForInterval` pairs.
    public var ci: Statistics.Interval?

    enum CodingKeys: String, CodingKey { case slice, metric, pairs, medianRatio = "median_ratio", ci }

    init(slice: String, metric: Metric, ratios: [Double]) {
        self.slice = slice
        self.metric = metric
        pairs = ratios.count
        medianRatio = Statistics.quantile(ratios, 0.5)
        ci = ratios.count >= Statistics.minimumForInterval ? Statistics.bootstrapQuantile(ratios, 0.5) : nil
    }

    static func all(_ records: [GenerationRecord]) -> [PairedRatio] {
        let model = records.filter { $0.outcome == .model }
        var direct: [String: GenerationRecord] = [:]
        for record in model where record.route == .direct { direct["\(record.itemID)#\(record.repeatIndex)"] = record }
        // In a pool both routes normally ran on one server; a pair split by a failed server would mix machines.
        let pairs = model.filter { $0.route == .pivot }.compactMap { pivot in
            direct["\(pivot.itemID)#\(pivot.repeatIndex)"].flatMap { $0.server == pivot.server ? (lang: pivot.lang, direct: $0, pivot: pivot) : nil }
        }
        var rows: [PairedRatio] = []
        for metric in Metric.allCases {
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
                if !values.isEmpty { rows.append(PairedRatio(slice: "lang=\(lang)", metric: metric, ratios: values)) }
            }
        }
        return rows
    }
}

/// The in-run A/A control: English takes the same prompt on both routes, so its pivot/direct
/// total_ms ratio must come out equal. An interval that excludes 1.0 means order, cache state or
/// drift biased this run's timings.
public struct ControlCheck: Sendable, Hashable, Codable {
    public enum Verdict: String, Sendable, Codable {
        /// The interval contains 1.0.
        case consistent
        /// The interval excludes 1.0: do not read this run's route ratios.
        case biased
        /// Fewer pairs than an interval needs.
        case tooFewPairs = "too-few-pairs"
    }

    public static let language = "en"

    public var ratio: PairedRatio
    public var verdict: Verdict

    init?(_ ratios: [PairedRatio]) {
        guard let ratio = ratios.first(where: { $0.metric == .total && $0.slice == "lang=\(Self.language)" }) else { return nil }
        self.ratio = ratio
        if let ci = ratio.ci {
            verdict = ci.low <= 1 && 1 <= ci.high ? .consistent : .biased
        } else {
            verdict = .tooFewPairs
        }
    }

    /// The largest bias in either direction the interval leaves possible, in percent (rounded up): a
    /// consistent control rules out only biases beyond it, not every bias.
    public var resolvablePercent: Int? {
        ratio.ci.map { Int((max(1 - $0.low, $0.high - 1) * 100).rounded(.up)) }
    }

    /// One line for the report and the console.
    public var sentence: String {
        let interval = ratio.ci.map { String(format: " (95%% CI %.2f–%.2f)", $0.low, $0.high) } ?? ""
        let figure = String(format: "pivot/direct total_ms %.2f×", ratio.medianRatio) + interval + ", \(ratio.pairs) pairs"
        return switch verdict {
        case .consistent:
            "English A/A control: \(figure): contains 1.0, so order and cache biased route timings by no more than ±\(resolvablePercent ?? 0)% "
                + "(a smaller bias cannot be seen with \(ratio.pairs) pairs)."
        case .biased: "⚠️ English A/A control: \(figure): EXCLUDES 1.0, so order, cache state or drift biased this run; do not read its route ratios."
        case .tooFewPairs: "English A/A control: \(figure): too few pairs for an interval (need \(Statistics.minimumForInterval))."
        }
    }
}
