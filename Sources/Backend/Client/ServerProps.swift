/// What a running server says about itself (`/props`), read once per run for provenance.
package struct ServerProps: Sendable, Equatable, Codable {
    /// The model file the server loaded, as the server sees it.
    package var modelPath: String
    /// llama.cpp build, e.g. `b11434-b11434` plus compiler and target.
    package var buildInfo: String
    /// Context size per slot.
    package var contextPerSlot: Int
    package var totalSlots: Int
    /// The name it serves the model under (`--alias`), when it says.
    package var modelAlias: String?

    package init(modelPath: String, buildInfo: String, contextPerSlot: Int, totalSlots: Int, modelAlias: String? = nil) {
        self.modelPath = modelPath
        self.modelAlias = modelAlias
        self.buildInfo = buildInfo
        self.contextPerSlot = contextPerSlot
        self.totalSlots = totalSlots
    }

    /// The model as the server names it: its alias, else its file's name (the directory differs between
    /// machines serving one model).
    package var modelName: String {
        let name = modelAlias ?? modelPath
        return name.split(separator: "/").last.map(String.init) ?? name
    }
}

extension WireFormat {
    struct Props: Decodable {
        struct Defaults: Decodable {
            let n_ctx: Int
        }
        let model_path: String
        let model_alias: String?
        let build_info: String
        let total_slots: Int
        let default_generation_settings: Defaults

        var value: ServerProps {
            ServerProps(modelPath: model_path, buildInfo: build_info,
                        contextPerSlot: default_generation_settings.n_ctx, totalSlots: total_slots, modelAlias: model_alias)
        }
    }
}
