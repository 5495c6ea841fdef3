import BenchSupport
import LlamaBackend

/// Why a pipeline stage failed: the fallback reason it leads to and a metadata-only message.
struct StageFailure: Error, Sendable {
    var reason: FallbackReason
    var errorType: String
    var message: String

    /// Maps a backend error. Connection loss is the model being unavailable whatever the stage; a
    /// timeout is a timeout; anything else is a generation error, or a translation failure on a
    /// translation stage.
    static func from(_ error: Error, translating: Bool) -> StageFailure {
        let otherwise: FallbackReason = translating ? .translationFailed : .generationError
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
