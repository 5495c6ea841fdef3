import Support
import Backend

/// Why a pipeline stage failed: the fallback reason it leads to and a metadata-only message.
struct StageFailure: Error, Sendable {
    var reason: FallbackReason
    var errorType: String
    var message: String

    /// Maps a backend error. Connection loss is the model being unavailable whatever the stage; a
    /// timeout is a timeout; anything else is a generation error, or a translation failure on a
    /// translation stage.
    /// A translation engine that is not the reply model (`engine`) failing to answer is a translation failure, not
    /// the model being unavailable.
    static func from(_ error: Error, translating: Bool, engine: TranslationEngine = .llm) -> StageFailure {
        let otherwise: FallbackReason = translating ? .translationFailed : .generationError
        if var failure = engineFailure(error, engine: engine) {
            // Whatever an engine's failure names (an `apertium:<url>` with credentials, a command line) is redacted here.
            failure.message = Redaction.text(failure.message)
            return failure
        }
        guard let backend = error as? BackendError else {
            // Not from the server: only the error's type, since its text is not ours to vouch for.
            let type = String(describing: type(of: error))
            return StageFailure(reason: otherwise, errorType: type, message: error is CancellationError ? "cancelled" : "\(type)")
        }
        let reason: FallbackReason = switch backend {
        case .connectionRefused, .streamCutOff, .transport, .binaryNotFound, .modelNotFound, .startFailed: .modelUnavailable
        case .timeout: .timeout
        case .rateLimited: .rateLimited
        default: otherwise
        }
        return StageFailure(reason: reason, errorType: caseName(backend), message: Redaction.text(metadataOnly(backend)))
    }

    /// A failure of a translation engine other than the reply model, with the real reason.
    static func engineFailure(_ error: Error, engine: TranslationEngine) -> StageFailure? {
        switch error {
        case ApertiumError.pairNotInstalled:
            return StageFailure(reason: .translationPackMissing, errorType: "pairNotInstalled", message: "\(error)")
        case let error as ApertiumError:
            return StageFailure(reason: .translationFailed, errorType: "httpStatus", message: "\(error)")
        case ExecTranslatorError.engine(let pack):
            let reason: FallbackReason = switch pack { case .missing: .translationPackMissing; case .unsupported: .translationUnsupported; case .none: .translationFailed }
            return StageFailure(reason: reason, errorType: "engineError", message: "\(engine.name): \(error)")
        case ExecTranslatorError.timedOut:
            return StageFailure(reason: .timeout, errorType: "timeout", message: "\(engine.name): \(error)")
        case let error as ExecTranslatorError:
            return StageFailure(reason: .translationFailed, errorType: "engineFailed", message: "\(engine.name): \(error)")
        case let backend as BackendError where engine.kind != "llm":
            switch backend {
            case .timeout: return nil
            case .connectionRefused(let url):
                return StageFailure(reason: .translationFailed, errorType: "engineUnavailable", message: "\(engine.name) unreachable: connection refused at \(url)")
            case .streamCutOff, .transport:
                return StageFailure(reason: .translationFailed, errorType: "engineUnavailable", message: "\(engine.name) unreachable: \(metadataOnly(backend))")
            default:
                return StageFailure(reason: .translationFailed, errorType: caseName(backend), message: "\(engine.name): \(metadataOnly(backend))")
            }
        default:
            return nil
        }
    }

    /// llama-server's error `type` (`exceed_context_size_error`), the part of its message before ": ",
    /// when it is a fixed identifier; never free text.
    static func errorClass(_ message: String) -> String? {
        let head = message.prefix { $0 != ":" }
        guard !head.isEmpty, head.count <= 64, head.allSatisfy({ ("a"..."z").contains($0) || $0 == "_" }) else { return nil }
        return String(head)
    }

    /// The error without anything the server sent: a server that echoes the prompt in its error body
    /// (or a garbled stream) would otherwise put the person's text into diagnostics and records.
    static func metadataOnly(_ error: BackendError) -> String {
        switch error {
        case .httpStatus(let code, let message, let url): "HTTP \(code)\(errorClass(message).map { " (\($0))" } ?? "") from \(url)"
        case .streamError(let code, let message, let url): "error event\(code.map { " \($0)" } ?? "")\(errorClass(message).map { " (\($0))" } ?? "") in the stream from \(url)"
        case .malformedResponse(let url, _): "malformed response from \(url)"
        case .streamCutOff(let url, _): "the stream from \(url) was cut off"
        case .transport(let url, _): "transport error talking to \(url)"
        default: error.description
        }
    }

    /// `httpStatus` for `.httpStatus(code:…)`.
    static func caseName(_ error: BackendError) -> String {
        Mirror(reflecting: error).children.first?.label ?? "backend"
    }
}
