/// Short-text language recognition with the semantics of Apple's `NLLanguageRecognizer`: set
/// `languageConstraints` and `languageHints`, `process(_:)` text, read `dominantLanguage` and
/// `languageHypotheses(withMaximum:)`.
///
/// A value type: copies are independent, and any number of recognizers (on any number of tasks) share one
/// immutable `LanguageModel`. Our choices where Apple documents none: see `CandidatePrior` for constraints
/// and hints; `process(_:)` called again adds to the text already processed, as Apple's does; `reset()`
/// returns to the initial state (no text, no constraints, no hints).
public struct LanguageRecognizer: Sendable {
    public let model: LanguageModel
    /// Candidate languages; nothing outside them is ever returned. Empty means every model language.
    public var languageConstraints: [String] = [] { didSet { update() } }
    /// Prior weights per language, combined as prior × likelihood and renormalised over the candidates.
    public var languageHints: [String: Double] = [:] { didSet { update() } }
    /// Weight of candidates without a hint; nil means 1/N for N candidates.
    public var defaultHintWeight: Double? = nil { didSet { update() } }

    private var text = ""
    private var recognition: Recognition?
    private var prior: CandidatePrior

    public init(model: LanguageModel, constraints: [String] = [], hints: [String: Double] = [:]) {
        self.model = model
        self.languageConstraints = constraints
        self.languageHints = hints
        prior = CandidatePrior(model: model, constraints: constraints, hints: hints, defaultWeight: nil)
    }

    private mutating func update() {
        prior = CandidatePrior(model: model, constraints: languageConstraints, hints: languageHints,
                               defaultWeight: defaultHintWeight)
        recognition = nil
    }

    /// Recognises one text under the current constraints and hints without touching the processed text:
    /// the fast path for scoring many independent texts with one recognizer.
    public func recognize(_ text: String) -> Recognition {
        model.recognize(text, prior: prior)
    }

    /// Adds text to analyse.
    public mutating func process(_ text: String) {
        self.text = self.text.isEmpty ? text : self.text + "\n" + text
        recognition = nil
    }

    /// The result for the processed text under the current constraints and hints.
    public func recognize() -> Recognition {
        if let recognition { return recognition }
        return model.recognize(text, prior: prior)
    }

    /// Caches the result so that repeated reads do not score the text again.
    public mutating func evaluate() -> Recognition {
        let result = recognize()
        recognition = result
        return result
    }

    /// The most likely language, or nil when the text has no letters ("und").
    public var dominantLanguage: String? { recognize().dominantLanguage }

    /// Up to `maximum` hypotheses with their probabilities (the full distribution over the candidates sums
    /// to 1; a smaller maximum returns its top entries unchanged, as Apple's does).
    public func languageHypotheses(withMaximum maximum: Int) -> [String: Double] {
        Dictionary(uniqueKeysWithValues: rankedHypotheses(withMaximum: maximum).map { ($0.language, $0.probability) })
    }

    /// Like `languageHypotheses(withMaximum:)`, ranked.
    public func rankedHypotheses(withMaximum maximum: Int) -> [LanguageHypothesis] {
        Array(recognize().hypotheses.prefix(max(0, maximum)))
    }

    /// Returns to the initial state: no text, no constraints, no hints.
    public mutating func reset() {
        text = ""
        languageConstraints = []
        languageHints = [:]
        defaultHintWeight = nil
        recognition = nil
    }
}
