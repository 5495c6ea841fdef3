import Detection
import Corpus

/// Whether the person got an answer in their own language: judged against the item's true language
/// (the corpus label), not the detected one the pipeline had to go on. Measurement only, after the
/// timed part of the route.
extension ReplyPipeline {
    func judgeOwnLanguage(_ output: inout Output, item: CorpusItem, detection: Detection) async throws {
        let detectedRight = (detection.language ?? Self.english).isEquivalent(to: item.lang)
        output.record = try await Self.judged(output.record, reply: output.reply, detectedRight: detectedRight) { text in
            // Over every language the detector knows, without the config's candidates or priors: a
            // candidate set that lacks the reply's real language (Macedonian, say) picks the closest
            // one it has, and adding the true language to it makes the true language win.
            try await self.judgeLanguage(text)
        }
        guard let secondJudge else { return }
        var served = false
        if output.record.outcome == .model && output.record.notServedReason != NotServed.degenerateOutput {
            let outcome = await secondJudge.identify(output.reply, candidates: nil, hints: [:])
            if case .failed(let reason) = outcome { throw GenerationStopped.Cause.detectorFailed("the second judge: " + FailureText.without(output.reply, in: reason)) }
            output.record.secondJudgeLang = outcome.top?.lang.identifier ?? "und"
            served = outcome.top?.lang.isEquivalent(to: item.lang) ?? false
        }
        output.record.servedBySecondJudge = served
    }

    /// The reply's language as the judge finds it, over every language it knows (throws like `identify`).
    func judgeLanguage(_ text: String) async throws -> LanguageCode? {
        guard let judge else { return try await identify(text, candidates: nil, hints: [:]) }
        let outcome = await judge.identify(text, candidates: nil, hints: [:])
        if case .failed(let reason) = outcome { throw GenerationStopped.Cause.detectorFailed(FailureText.without(text, in: reason)) }
        return outcome.top?.lang
    }

    /// `record` with its served-in-own-language verdict and the reason when not served: a model reply that is not
    /// degenerate and that `identify` finds in the record's true language serves the person; anything else does not.
    static func judged(_ record: GenerationRecord, reply: String, detectedRight: Bool,
                       identify: (String) async throws -> LanguageCode?) async throws -> GenerationRecord {
        var record = record
        var degenerate = false
        switch record.outcome {
        case .model:
            degenerate = DegenerateOutput.isDegenerate(reply)
            record.servedInOwnLanguage = degenerate ? false : (try await identify(reply))?.isEquivalent(to: record.lang) ?? false
        case .fallback:
            record.servedInOwnLanguage = false
        }
        record.notServedReason = record.servedInOwnLanguage == false
            ? notServedReason(detectedRight: detectedRight, degenerate: degenerate, fallback: record.fallbackReason) : nil
        return record
    }

    /// A degenerate reply comes first: it serves no one in any language, whatever was detected.
    /// Misdetection next: it decides the language every later stage works in.
    static func notServedReason(detectedRight: Bool, degenerate: Bool, fallback: FallbackReason?) -> String {
        if degenerate { return NotServed.degenerateOutput }
        if !detectedRight { return NotServed.misdetected }
        return fallback?.rawValue ?? FallbackReason.wrongOutputLanguage.rawValue
    }
}

/// The split of "not served in the person's own language" beyond the fallback reasons.
package enum NotServed {
    package static let misdetected = "misdetected"
    /// A model reply stuck in a loop (`DegenerateOutput`); not a fallback.
    package static let degenerateOutput = "degenerate-output"
}
