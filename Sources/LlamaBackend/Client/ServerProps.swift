/// What a running server says about itself (`/props`), read once per run for provenance.
public struct ServerProps: Sendable, Equatable, Codable {
    /// The model file the server loaded, as the server sees it.
    public var modelPath: String
    /// llama.cpp build, e.g. `b11434-b11434` plus compiler and target.
    public var buildInfo: String
    /// Context size per slot.
    public var contextPerSlot: Int
    public var totalSlots: Int

    public init(modelPath: String, buildInfo: String, contextPerSlot: Int, totalSlots: Int) {
        self.modelPath = modelPath
        self.buildInfo = buildInfo
        self.contextPerSlot = contextPerSlot
        self.totalSlots = totalSlots
    }
}

extension WireFormat {
    struct Props: Decodable {
        struct Defaults: Decodable {
            let n_ctx: Int
        }
        let model_path: String
        let build_info: String
        let total_slots: Int
        let default_generation_settings: Defaults

        var value: ServerProps {
            ServerProps(modelPath: model_path, buildInfo: build_info,
                        contextPerSlot: default_generation_settings.n_ctx, totalSlots: total_slots)
        }
    }
}
