import Support
import Detection
import Foundation
import Generation
import Corpus
import Recognizer
import Backend
import Comparison

/// The one place that turns an error into a message and an exit status.
enum ErrorMapping {
    static func status(for error: Error) -> ExitStatus {
        // Whatever failed after a signal failed because of it.
        if let signal = ServerReaper.interruptingSignal { return .stopped(by: signal) }
        if let stopped = error as? GenerationStopped, case .signal(let signal) = stopped.cause { return .stopped(by: signal) }
        return switch error {
        case is GenerationStopped: .unavailable
        case is UsageError, is CandidateError, ExecCommandError.blank: .usage
        case ExecCommandError.notFound: .unavailable
        case is CorpusError, is ImportError, is LanguageCodeError, is ConfigurationError, is DamagedLog: .dataError
        case is ComparisonError, is MachineComparabilityError, is TrainingError, is ResumeError, is PoolModelMismatch, is Rejudge.Failure: .dataError
        // A model file that is there but unusable is bad data; one that cannot be read is not.
        case ModelError.malformed, ModelError.unsupportedVersion: .dataError
        // An APy that answers an error status where the run needs it (its pair list at the start) is a service unavailable.
        case is ReportError, is ModelError, is BackendError, is ApertiumError, is VariantModelMissing, is PoolModelUnknown: .unavailable
        default: .internalError
        }
    }

    static func message(for error: Error) -> String {
        // A signal stops the servers, so in-flight requests fail: report the cause, not them.
        if error is GenerationStopped {
            return "error: \(error)"
        }
        if let signal = ServerReaper.interruptingSignal {
            return "interrupted by \(GenerationStopped.name(of: signal)); stopped llama-server"
        }
        return switch error {
        case let error as CustomStringConvertible: "error: \(error.description)"
        default: "error: \(error.localizedDescription)"
        }
    }
}
