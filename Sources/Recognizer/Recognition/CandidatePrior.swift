import Foundation

/// Constraints and hints resolved against a model: which languages may be returned, and their log prior.
///
/// Our modelling choices, where Apple's `NLLanguageRecognizer` documents none:
/// - Codes: a code means the model language it matches (`LanguageModel.language(matching:)`: `zh` is
///   `zh-Hans`, `sr` is the model's Cyrillic `sr`); codes that match none are ignored here (callers that
///   take codes from people reject them first, naming them).
/// - Constraints: an empty list means every language of the model. Probabilities are renormalised over the candidates that remain.
/// - Hints: a hint is a prior weight; a candidate without a hint gets `defaultWeight`, which by default is
///   1/N for N candidates (the share it would have with no hints at all). Negative or non-finite weights
///   count as 0. The posterior is prior × likelihood, renormalised over the candidates. If every weight is
///   0 the prior is uniform.
struct CandidatePrior: Sendable, Equatable {
    let allowed: [Bool]
    let logPrior: [Double]
    let candidateCount: Int

    init(model: LanguageModel, constraints: [String], hints: [String: Double], defaultWeight: Double?) {
        var allowed = [Bool](repeating: constraints.isEmpty, count: model.languages.count)
        for code in constraints {
            if let matched = model.language(matching: code), let i = model.indexOfLanguage[matched] { allowed[i] = true }
        }
        var hintByLanguage: [String: Double] = [:]
        for (code, weight) in hints.sorted(by: { $0.key < $1.key }) {
            // An exact code beats an alias of the same language (`zh-Hans=0.2` over `zh=0.5`).
            guard let matched = model.language(matching: code), hintByLanguage[matched] == nil || code == matched else { continue }
            hintByLanguage[matched] = weight
        }
        let count = allowed.filter { $0 }.count
        let fallback = defaultWeight ?? (count > 0 ? 1 / Double(count) : 1)
        var weights = model.languages.enumerated().map { i, code -> Double in
            guard allowed[i] else { return 0 }
            let w = hintByLanguage[code] ?? fallback
            return w.isFinite && w > 0 ? w : 0
        }
        if !weights.contains(where: { $0 > 0 }) {
            weights = allowed.map { $0 ? 1 : 0 }
        }
        self.allowed = allowed
        self.candidateCount = count
        self.logPrior = weights.map { $0 > 0 ? Foundation.log($0) : -Double.infinity }
    }
}
