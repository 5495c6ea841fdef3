import LangBench
import LanguageRecognition
import LlamaBackend

/// The one place that turns an error into a message and an exit status.
enum ErrorMapping {
    static func status(for error: Error) -> ExitStatus {
        switch error {
        case is UsageError, is CandidateError: .usage
        case is CorpusError, is LanguageCodeError, is ConfigurationError: .dataError
        case is ComparisonError, is MachineComparabilityError, is TrainingError, is ResumeError: .dataError
        case is ReportError, is ModelError, is BackendError, is VariantModelMissing: .unavailable
        default: .internalError
        }
    }

    static func message(for error: Error) -> String {
        // Ctrl-C stops the servers first, so in-flight requests fail: report the cause, not them.
        if let signal = ServerReaper.interruptingSignal {
            return "interrupted by signal \(signal); stopped llama-server"
        }
        return switch error {
        case let error as CustomStringConvertible: "error: \(error.description)"
        default: "error: \(error.localizedDescription)"
        }
    }
}
