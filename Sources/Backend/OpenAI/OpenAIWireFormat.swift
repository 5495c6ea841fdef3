/// The JSON an OpenAI-compatible server sends, decoded as loosely as the API allows.
enum OpenAIWireFormat {
    /// One `data:` chunk of a streamed completion or chat completion.
    struct Chunk: Decodable {
        let choices: [Choice]?
        let usage: Usage?
        /// llama.cpp adds its own `timings` to the last chunk.
        let timings: WireFormat.Timings?
        let error: WireFormat.ErrorBody?
    }

    struct Choice: Decodable {
        /// `/v1/completions`.
        let text: String?
        /// `/v1/chat/completions`.
        let delta: Delta?
        let finish_reason: String?
    }

    struct Delta: Decodable {
        let content: String?
    }

    struct Usage: Decodable {
        struct PromptDetails: Decodable {
            let cached_tokens: Int?
        }
        let prompt_tokens: Int?
        let completion_tokens: Int?
        let prompt_tokens_details: PromptDetails?
    }

    /// `/v1/models`: `{"object": "list", "data": [{"id": "…"}]}`.
    struct Models: Decodable {
        struct Model: Decodable {
            let id: String
        }
        let data: [Model]
    }

    static func stopType(_ finishReason: String) -> StopType {
        switch finishReason {
        case "length": .limit
        case "stop": .stop
        default: .none
        }
    }
}
