/// What an encoder writes for a config and detector, made once for all of a chunk's results (which share them).
struct FixedCells: Sendable {
    let config: String
    let detector: String
    let bytes: [UInt8]

    /// The cells of `config` and `detector` as `encode` writes them.
    init(config: String, detector: String, encode: (_ config: String, _ detector: String, _ out: inout [UInt8]) -> Void) {
        self.config = config
        self.detector = detector
        var bytes: [UInt8] = []
        encode(config, detector, &bytes)
        self.bytes = bytes
    }

    /// Whether these are the cells of `result` (else they are encoded for it).
    func fit(_ result: DetectionResult) -> Bool {
        config == result.config && detector == result.detector
    }
}
