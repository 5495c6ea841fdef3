import Corpus

/// One candidate answer of a detector: a language and its probability.
public struct Hypothesis: Sendable, Hashable, Codable {
    package var lang: LanguageCode
    package var probability: Double

    package init(lang: LanguageCode, probability: Double) {
        self.lang = lang
        self.probability = probability
    }
}

/// What a detector answered for one text.
public enum DetectionOutcome: Sendable, Hashable {
    /// Ranked hypotheses, best first (probabilities sum to 1 over the candidates).
    case hypotheses([Hypothesis])
    /// The detector abstained: the text has no letters, or it does not know. Counts as an error.
    case undetermined
    /// The detector failed on this item (crashed, hung, answered garbage): counts as an error.
    case failed(String)

    package var top: Hypothesis? {
        if case .hypotheses(let list) = self { return list.first }
        return nil
    }
}

/// A language detector under test.
public protocol LanguageIdentifying: Sendable {
    /// A stable name for reports, e.g. `builtin` or `exec:scripts/detectors/lingua`.
    var name: String { get }
    /// Identifies `text`, restricted to `candidates` when given, with prior weights `hints`.
    func identify(_ text: String, candidates: [LanguageCode]?, hints: [LanguageCode: Double]) async -> DetectionOutcome
    /// Every language the detector can return, when it can say (the built-in recognizer can; external
    /// detectors cannot). A candidate matching none of them (`LanguageCode.isEquivalent`) is a usage error.
    var knownLanguages: [LanguageCode]? { get }
    /// Releases resources (child processes).
    func shutdown() async
    /// A synchronous identifier for fixed candidates and hints that any number of tasks may call at once,
    /// when the detector has one (the built-in recognizer): `detect --jobs` runs such detectors on every
    /// core. It answers the best hypothesis only (what `detect` records), nil when it abstains. Nil by default.
    func concurrentIdentifier(candidates: [LanguageCode]?, hints: [LanguageCode: Double]) -> (@Sendable (String) -> Hypothesis?)?
}

extension LanguageIdentifying {
    package var knownLanguages: [LanguageCode]? { nil }
    package func concurrentIdentifier(candidates: [LanguageCode]?, hints: [LanguageCode: Double]) -> (@Sendable (String) -> Hypothesis?)? { nil }
    package func shutdown() async {}
}
