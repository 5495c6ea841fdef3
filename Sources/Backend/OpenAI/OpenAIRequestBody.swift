/// The JSON body of one streamed `/v1/completions` or `/v1/chat/completions` request, every
/// sampling setting of the `CompletionRequest` spelled out.
struct OpenAIRequestBody: Encodable {
    struct Message: Encodable {
        let role: String
        let content: String
    }

    struct StreamOptions: Encodable {
        let include_usage = true
    }

    let model: String?
    let prompt: String?
    let messages: [Message]?
    /// Omitted for "until a stop string" (`n_predict` -1), which the OpenAI API cannot say.
    let max_tokens: Int?
    let temperature: Double
    let top_p: Double
    let seed: Int
    /// Omitted when empty: some servers refuse an empty list.
    let stop: [String]?
    let stream = true
    /// Token counts in a last `usage` chunk (the OpenAI API sends none in a stream otherwise).
    let stream_options = StreamOptions()
    // llama.cpp's own fields, which its OpenAI-compatible endpoints (and vLLM) accept.
    let top_k: Int?
    let min_p: Double?
    let cache_prompt: Bool?
    let ignore_eos: Bool?

    init(_ request: CompletionRequest, endpoint: OpenAIEndpoint) {
        let llama = endpoint.llamaSampling
        model = endpoint.model
        prompt = endpoint.api == .completions ? request.prompt : nil
        messages = endpoint.api == .chat ? [Message(role: "user", content: request.prompt)] : nil
        max_tokens = request.maxTokens >= 0 ? request.maxTokens : nil
        temperature = request.temperature
        top_p = request.topP
        seed = request.seed
        stop = request.stop.isEmpty ? nil : request.stop
        top_k = llama ? request.topK : nil
        min_p = llama ? request.minP : nil
        cache_prompt = llama ? request.cachePrompt : nil
        ignore_eos = llama ? request.ignoreEOS : nil
    }
}
