#if canImport(NaturalLanguage)
import Corpus
import NaturalLanguage

/// Apple's `NLLanguageRecognizer`, so a run can be reproduced on a Mac with the system detector.
/// Compiled out on Linux.
package struct AppleDetector: LanguageIdentifying {
    package let name = "apple"

    package init() {}

    package func identify(_ text: String, candidates: [LanguageCode]?, hints: [LanguageCode: Double]) async -> DetectionOutcome {
        let recognizer = NLLanguageRecognizer()
        if let candidates { recognizer.languageConstraints = candidates.map { NLLanguage($0.identifier) } }
        recognizer.languageHints = Dictionary(uniqueKeysWithValues: hints.map { (NLLanguage($0.key.identifier), $0.value) })
        recognizer.processString(text)
        let hypotheses = recognizer.languageHypotheses(withMaximum: 5)
            // NaturalLanguage may name languages outside ISO 639 (e.g. "und"): those cannot be scored, so they are skipped.
            .compactMap { entry -> Hypothesis? in (try? LanguageCode(entry.key.rawValue)).map { Hypothesis(lang: $0, probability: entry.value) } }
            .sorted { $0.probability > $1.probability }
        return hypotheses.isEmpty ? .undetermined : .hypotheses(hypotheses)
    }
}
#endif
