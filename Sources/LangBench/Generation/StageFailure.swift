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
            return StageFailure(reason: otherwise, errorType: String(describing: type(of: error)), message: "\(error)")
        }
        let reason: FallbackReason = switch backend {
        case .connectionRefused, .streamCutOff, .transport, .binaryNotFound, .modelNotFound, .startFailed: .modelUnavailable
        case .timeout: .timeout
        default: otherwise
        }
        return StageFailure(reason: reason, errorType: caseName(backend), message: backend.description)
    }

    /// `httpStatus` for `.httpStatus(code:…)`.
    static func caseName(_ error: BackendError) -> String {
        Mirror(reflecting: error).children.first?.label ?? "backend"
    }
}
