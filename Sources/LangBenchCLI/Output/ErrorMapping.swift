import LangBench
import LanguageRecognition
import LlamaBackend

/// The one place that turns an error into a message and an exit status.
enum ErrorMapping {
    static func status(for error: Error) -> ExitStatus {
        switch error {
        case is UsageError: .usage
        case is CorpusError, is LanguageCodeError, is ConfigurationError: .dataError
        case is ComparisonError, is TrainingError: .dataError
        case is ReportError, is ModelError: .unavailable
        case let error as BackendError: error.isUnavailable ? .unavailable : .internalError
        default: .internalError
        }
    }

    static func message(for error: Error) -> String {
        switch error {
        case let error as CustomStringConvertible: "error: \(error.description)"
        default: "error: \(error.localizedDescription)"
        }
    }
}

extension BackendError {
    /// A missing binary, model or server is "unavailable" (69); anything else mid-run is unexpected.
    var isUnavailable: Bool {
        switch self {
        case .binaryNotFound, .modelNotFound, .modelChecksumMismatch, .startFailed, .connectionRefused, .serverLoading, .timeout, .transport: true
        default: false
        }
    }
}
