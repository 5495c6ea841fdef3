import Foundation
import Corpus

extension GenerationRunner {
    /// Makes one reply that may be recorded: throws `GenerationStopped.Cause.signal` once the process
    /// was interrupted (before the reply, or after it, since a signal stops the servers and makes the
    /// reply fail), and redoes a reply that failed because the server died and `recovery` restarted it.
    /// A restarted server is a fresh process, so the redone reply starts from the same (cold) state.
    /// The output is labelled with the lane's variant.
    func recordableReply(pipeline: ReplyPipeline, variant: String?, recovery: ServerRecovery?, to item: CorpusItem, detection: ReplyPipeline.Detection,
                         route: Route, repeatIndex: Int, order: RouteOrder = .single) async throws -> ReplyPipeline.Output {
        while true {
            if let signal = stopSignal() { throw GenerationStopped.Cause.signal(signal) }
            let epoch = await recovery?.epoch ?? 0
            var output = try await pipeline.reply(to: item, detection: detection, route: route, repeatIndex: repeatIndex, order: order)
            output.label(variant: variant)
            if let signal = stopSignal() { throw GenerationStopped.Cause.signal(signal) }
            // A cancelled request failed because of the cancellation, not the model: never a result.
            try Task.checkCancellation()
            guard output.record.fallbackReason == .modelUnavailable, let recovery else { return output }
            if try await recovery.judge(seen: epoch, stopSignal: stopSignal) == .record { return output }
        }
    }
}
