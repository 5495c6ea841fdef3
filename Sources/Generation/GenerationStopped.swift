import Foundation

/// A generation run that stopped before its last item. Nothing the cause produced was recorded (no
/// fallback for a request a signal or a dead server made fail, no reply judged by a detector that failed), so the records kept are exact and
/// `--resume` finishes the run; no report was written.
package struct GenerationStopped: Error, Sendable, CustomStringConvertible {
    /// What stopped the run.
    package enum Cause: Error, Sendable, Equatable {
        /// SIGINT, SIGTERM or SIGHUP.
        case signal(Int32)
        /// The server died and could not be restarted (or died again after every allowed restart).
        case serverLost(String)
        /// The detector could not answer for a message or a reply (cannot start, died, hung, unreadable or
        /// outside the candidates): its reason, which names it. The item would otherwise blame the model.
        case detectorFailed(String)
    }

    package var cause: Cause
    /// Results recorded (by this run and the earlier ones it resumed).
    package var kept: Int
    package var directory: URL

    package init(cause: Cause, kept: Int, directory: URL) {
        self.cause = cause
        self.kept = kept
        self.directory = directory
    }

    package var description: String {
        let resume = "continue with --resume --out \(directory.path)"
        switch cause {
        case .signal(let signal):
            return "interrupted by \(Self.name(of: signal)) after \(kept) results; nothing after the signal was recorded and no report written: \(resume)"
        case .serverLost(let detail):
            return "llama-server died and was not brought back (\(detail)); \(kept) results kept, none of the failures it caused recorded, "
                + "no report written: check the llama-server log in \(directory.path), then \(resume)"
        case .detectorFailed(let reason):
            return "the detector could not answer (\(reason)); \(kept) results kept, nothing recorded for the item it failed on, "
                + "no report written: fix the detector, then \(resume)"
        }
    }

    /// `SIGINT` for 2, and so on for the signals LangBench handles.
    package static func name(of signal: Int32) -> String {
        switch signal {
        case SIGINT: "SIGINT"
        case SIGTERM: "SIGTERM"
        case SIGHUP: "SIGHUP"
        default: "signal \(signal)"
        }
    }
}
