import Detection
import Corpus

/// Judges again, from the replies a run kept, whether each person was served in their own language: how a run
/// recorded under one judge (another recognizer model, an older rule) is brought under today's, without
/// generating anything again. Only `servedInOwnLanguage` and `notServedReason` change; the route, the fallbacks
/// and every timing are the run's.
package enum Rejudge {
    /// What a re-judging changed.
    package struct Outcome: Sendable {
        package var report: GenerationReport
        /// Model replies judged, and those whose verdict changed.
        package var judged: Int
        package var changed: Int
    }

    /// Why a run cannot be re-judged.
    package enum Failure: Error, Sendable, CustomStringConvertible {
        case noReply(String)
        case judgeFailed(String)

        package var description: String {
            switch self {
            case .noReply(let key): "cannot re-judge: replies.jsonl has no reply for \(key) (a run made with --no-replies keeps none)"
            case .judgeFailed(let reason): "cannot re-judge: the judge failed: \(reason)"
            }
        }
    }

    /// `report` with every model reply of a non-crisis record judged by `detector` (over every language it knows,
    /// as a run judges), and `judge` recorded as its judge.
    package static func apply(_ report: GenerationReport, replies: [ReplyRecord], judge: String, detector: any LanguageIdentifying) async throws -> Outcome {
        var texts: [String: String] = [:]
        for reply in replies { texts[reply.key] = reply.reply }
        var records = report.allRecords, judged = 0, changed = 0
        for index in records.indices where records[index].outcome == .model && records[index].fallbackReason != .crisisProtocol {
            let record = records[index]
            guard let text = texts[record.key] else { throw Failure.noReply(record.keyDescription) }
            records[index] = try await ReplyPipeline.judged(record, reply: text, detectedRight: record.detectedRight) { reply in
                let outcome = await detector.identify(reply, candidates: nil, hints: [:])
                if case .failed(let reason) = outcome { throw Failure.judgeFailed(FailureText.without(reply, in: reason)) }
                return outcome.top?.lang
            }
            judged += 1
            if records[index].servedInOwnLanguage != record.servedInOwnLanguage || records[index].notServedReason != record.notServedReason { changed += 1 }
        }
        var settings = report.settings
        settings.judge = judge
        let rejudged = GenerationReport(records: records, settings: settings, warmupRuns: report.warmupRuns, provenance: report.provenance)
        return Outcome(report: rejudged, judged: judged, changed: changed)
    }
}
