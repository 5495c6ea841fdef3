/// One candidate language with its posterior probability.
public struct LanguageHypothesis: Sendable, Hashable, Codable {
    public let language: String
    public let probability: Double

    public init(language: String, probability: Double) {
        self.language = language
        self.probability = probability
    }
}

/// The outcome of recognising one text: ranked hypotheses and what evidence they rest on.
public struct Recognition: Sendable, Equatable {
    /// What the hypotheses are based on.
    public enum Evidence: Sendable, Equatable {
        /// The text has no letters: the explicit "und" outcome, never a guess.
        case noLetters
        /// No language of the model is among the candidates.
        case noCandidates
        /// The text has letters, but none in a script of any candidate: hypotheses are the prior alone.
        case priorOnly
        /// Letters of this script were scored.
        case script(Script)
    }

    /// Candidates ranked by probability (ties by code), probabilities summing to 1; empty for `noLetters`
    /// and `noCandidates`. Candidates of other scripts than the scored one have probability 0 and are left out.
    public let hypotheses: [LanguageHypothesis]
    public let evidence: Evidence

    public init(hypotheses: [LanguageHypothesis], evidence: Evidence) {
        self.hypotheses = hypotheses
        self.evidence = evidence
    }

    /// The most probable language, or nil when the text has no letters (or no candidate exists).
    public var dominantLanguage: String? { hypotheses.first?.language }

    /// BCP-47 "und" where `dominantLanguage` is nil.
    public var languageOrUndetermined: String { dominantLanguage ?? "und" }
}
