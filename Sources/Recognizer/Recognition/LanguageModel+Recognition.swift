import Foundation

extension LanguageModel {
    /// Recognises one text under constraints and hints (see `CandidatePrior` for how they combine).
    public func recognize(_ text: String, constraints: [String] = [], hints: [String: Double] = [:],
                          defaultHintWeight: Double? = nil) -> Recognition {
        recognize(text, prior: CandidatePrior(model: self, constraints: constraints, hints: hints,
                                              defaultWeight: defaultHintWeight))
    }

    func recognize(_ text: String, prior: CandidatePrior) -> Recognition {
        let normalized = TextNormalizer.normalize(text)
        if normalized.tokens.isEmpty { return Recognition(hypotheses: [], evidence: .noLetters) }
        if prior.candidateCount == 0 { return Recognition(hypotheses: [], evidence: .noCandidates) }
        // Route (our rule): among scripts with a candidate, the one with the most words; on a tie Latin loses
        // (Latin words inside other-script text are mostly names and brands), then more letters win.
        var words = [Int](repeating: 0, count: Script.allCases.count)
        var letters = words
        for token in normalized.tokens {
            words[Int(token.script.rawValue)] += 1
            letters[Int(token.script.rawValue)] += token.range.count
        }
        func rank(_ s: Script) -> (Int, Int, Int, Int) {
            (words[Int(s.rawValue)], s == .latin ? 0 : 1, letters[Int(s.rawValue)], -Int(s.rawValue))
        }
        let routed = Script.allCases
            .filter { words[Int($0.rawValue)] > 0 && hasCandidate(in: $0, prior: prior) }
            .max { rank($0) < rank($1) }
        guard let script = routed else {
            let indices = prior.allowed.indices.filter { prior.allowed[$0] }
            return Recognition(hypotheses: posterior(indices: indices, logScores: indices.map { prior.logPrior[$0] }),
                               evidence: .priorOnly)
        }
        guard let model = scriptModels[Int(script.rawValue)] else {
            let code = languages[singleLanguageIndex[Int(script.rawValue)]!]
            return Recognition(hypotheses: [LanguageHypothesis(language: code, probability: 1)], evidence: .script(script))
        }
        let rows = (0..<model.width).filter { prior.allowed[globalIndex[Int(script.rawValue)][$0]] }
        var total = [Double](repeating: 0, count: model.width)
        scoreTokens(normalized, model: model, rows: rows, bias: biasRows[Int(script.rawValue)],
                    unlisted: unlistedRows[Int(script.rawValue)], into: &total)
        let globals = rows.map { globalIndex[Int(script.rawValue)][$0] }
        let scores = zip(rows, globals).map { total[$0] + prior.logPrior[$1] }
        return Recognition(hypotheses: posterior(indices: globals, logScores: scores), evidence: .script(script))
    }

    /// Adds each token's per-language log-likelihood, capped at `tokenEvidenceCap` below the best candidate,
    /// plus the language's per-word bias.
    func scoreTokens(_ text: NormalizedText, model: ScriptModel, rows: [Int], bias: [Float], unlisted: [Float],
                     into total: inout [Double]) {
        let cap = parameters.tokenEvidenceCap, lambda = parameters.lambda
        withUnsafeTemporaryAllocation(of: Float.self, capacity: model.width) { scores in
            forEachWord(of: text, in: model) { word in
                model.wordLogLikelihood(word, lambda: lambda, unlisted: unlisted, into: scores.baseAddress!)
                var best = -Float.infinity
                for r in rows { best = max(best, scores[r]) }
                for r in rows { total[r] += Double(max(scores[r], best - cap) + bias[r]) }
            }
        }
    }

    /// Calls `body` with each scored word of a text: the tokens of the model's script, Han-only runs split
    /// into list words.
    func forEachWord(of text: NormalizedText, in model: ScriptModel, _ body: (UnsafeBufferPointer<UInt32>) -> Void) {
        text.scalars.withUnsafeBufferPointer { all in
            for token in text.tokens where token.script == model.script {
                HanSegmentation.forEachWord(UnsafeBufferPointer(rebasing: all[token.range]), words: model.words, body)
            }
        }
    }

    private func hasCandidate(in script: Script, prior: CandidatePrior) -> Bool {
        if scriptModels[Int(script.rawValue)] != nil {
            return globalIndex[Int(script.rawValue)].contains { prior.allowed[$0] }
        }
        if let i = singleLanguageIndex[Int(script.rawValue)] { return prior.allowed[i] }
        return false
    }

    /// Softmax over the candidates, ranked by probability then code.
    private func posterior(indices: [Int], logScores: [Double]) -> [LanguageHypothesis] {
        let top = logScores.max() ?? 0
        guard top.isFinite else { return [] }
        let exps = logScores.map { exp($0 - top) }
        let sum = exps.reduce(0, +)
        return zip(indices, exps)
            .map { LanguageHypothesis(language: languages[$0], probability: $1 / sum) }
            .filter { $0.probability > 0 }
            .sorted { $0.probability != $1.probability ? $0.probability > $1.probability : $0.language < $1.language }
    }
}
