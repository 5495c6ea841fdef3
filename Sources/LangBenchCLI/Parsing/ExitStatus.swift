/// The documented exit codes (README "Exit codes"). One place maps errors to them: `ErrorMapping`.
package enum ExitStatus: Int32, Sendable {
    /// Everything ran and every check passed.
    case success = 0
    /// The run finished but a check failed (e.g. `compare` found a regression).
    case checkFailed = 1
    /// The command line was wrong.
    case usage = 64
    /// Input data was bad: corpus, config, baseline.
    case dataError = 65
    /// A required service or file is unavailable: server binary, model, server URL.
    case unavailable = 69
    /// A bug or an unexpected failure inside LangBench.
    case internalError = 70
    /// Stopped by SIGHUP (handled like SIGTERM); the process then dies of the signal, so a shell sees 128 + 1.
    case hangUp = 129
    /// Stopped by SIGINT (Ctrl-C); a shell sees 130.
    case interrupted = 130
    /// Stopped by SIGTERM; a shell sees 143.
    case terminated = 143

    /// The status for a process stopped by `signal` (128 + the signal number, as a shell reports it).
    static func stopped(by signal: Int32) -> ExitStatus {
        ExitStatus(rawValue: 128 + signal) ?? .interrupted
    }
}
