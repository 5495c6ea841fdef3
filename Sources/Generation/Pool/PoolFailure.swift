import Backend

/// Why a pool server was failed, as its provenance records it: the phase and the kind of error, e.g.
/// `attach: connection refused` or `start calibration: HTTP 500`. Never its URL (which may carry a
/// credential) nor any text from a request or reply.
package enum PoolFailure {
    /// When a server can fail.
    package enum Phase: String, Sendable {
        case attach
        case startCalibration = "start calibration"
        case warmup = "warm-up"
        case run
    }

    /// `phase: kind` for `error`.
    package static func reason(_ phase: Phase, _ error: any Error) -> String {
        "\(phase.rawValue): \(kind(of: error))"
    }

    /// The kind of error in a few words, from its case alone.
    package static func kind(of error: any Error) -> String {
        switch error {
        case let error as BackendError: kind(of: error)
        case GenerationStopped.Cause.serverLost: "stopped answering /health"
        default: "an unexpected \(String(describing: type(of: error)))"
        }
    }

    private static func kind(of error: BackendError) -> String {
        switch error {
        case .connectionRefused: "connection refused"
        case .timeout(_, let seconds): "no complete answer within \(Int(seconds.rounded())) s"
        case .serverLoading: "still loading the model (HTTP 503)"
        case .httpStatus(let code, _, _): "HTTP \(code)"
        case .streamError: "an error event in the stream"
        case .streamCutOff: "stream cut off"
        case .malformedResponse: "malformed response"
        case .notAnEventStream: "not an event stream"
        case .responseTooLarge(_, let part, _): "\(part) too large"
        case .transport: "transport error"
        case .unauthorized: "unauthorized (API key)"
        case .notOpenAICompatible(_, let endpoint, _): "no OpenAI-compatible \(endpoint)"
        case .unknownModel: "model not served"
        case .rateLimited: "rate limited (HTTP 429)"
        case .binaryNotFound, .modelNotFound, .modelChecksumMismatch, .startFailed, .commandFailed: "could not be started"
        }
    }
}
