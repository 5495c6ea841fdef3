import Foundation

/// Constraints and hints resolved against a model: which languages may be returned, and their log prior.
///
/// Our modelling choices, where Apple's `NLLanguageRecognizer` documents none:
/// - Constraints: an empty list means every language of the model; codes the model does not know are
///   ignored. Probabilities are renormalised over the candidates that remain.
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
            if let i = model.indexOfLanguage[code] { allowed[i] = true }
        }
        let count = allowed.filter { $0 }.count
        let fallback = defaultWeight ?? (count > 0 ? 1 / Double(count) : 1)
        var weights = model.languages.enumerated().map { i, code -> Double in
            guard allowed[i] else { return 0 }
            let w = hints[code] ?? fallback
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
