/// Whether the person got an answer in their own language: judged against the item's true language
/// (the corpus label), not the detected one the pipeline had to go on. Measurement only, after the
/// timed part of the route.
extension ReplyPipeline {
    func judgeOwnLanguage(_ output: inout Output, item: CorpusItem, detection: Detection) async throws {
        let detectedRight = (detection.language ?? Self.english).isEquivalent(to: item.lang)
        var record = output.record
        switch (record.outcome, detectedRight) {
        case (.model, true):
            // The pipeline's check already compared the reply with this very language.
            record.servedInOwnLanguage = true
        case (.model, false):
            // Answered in the detected language; look again with the true language among the candidates.
            let own = candidates.map { $0.contains(item.lang) ? $0 : $0 + [item.lang] }
            let replyLang = try await identify(output.reply, candidates: own)
            record.servedInOwnLanguage = replyLang?.isEquivalent(to: item.lang) ?? false
        case (.fallback, _):
            record.servedInOwnLanguage = false
        }
        if record.servedInOwnLanguage == false {
            record.notServedReason = Self.notServedReason(detectedRight: detectedRight, fallback: record.fallbackReason)
        }
        output.record = record
    }

    /// Misdetection comes first: it decides the language every later stage works in.
    static func notServedReason(detectedRight: Bool, fallback: FallbackReason?) -> String {
        if !detectedRight { return NotServed.misdetected }
        return fallback?.rawValue ?? FallbackReason.wrongOutputLanguage.rawValue
    }
}

/// The split of "not served in the person's own language".
public enum NotServed {
    public static let misdetected = "misdetected"
}
