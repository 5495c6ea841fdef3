import Support
import Foundation

extension BackendDoctor {
    /// Checks an OpenAI-compatible server: `/v1/models` answers and lists the model (or exactly one
    /// when none is named), and one tiny request with the key comes back. Details name the key's
    /// variable, never the key.
    func checkOpenAI(_ endpoint: OpenAIEndpoint) async -> [DoctorCheck] {
        let client = OpenAIClient(endpoint: endpoint, requestTimeout: 30)
        let url = endpoint.baseURL.absoluteString
        let fix = "check --server-url (an OpenAI-compatible root such as http://127.0.0.1:8080/v1), the profile's backend section and the key's variable"
        let models: [String]
        do {
            models = try await client.models()
        } catch {
            return [DoctorCheck(name: "endpoint", status: .failed, detail: "\(error)", fix: fix),
                    DoctorCheck(name: "request", status: .skipped, detail: "needs the endpoint")]
        }
        let endpointCheck = DoctorCheck(name: "endpoint", status: .passed,
                                        detail: "\(url)/models lists \(models.count) model(s): \(models.joined(separator: ", "))")
        let resolved: OpenAIEndpoint
        do {
            resolved = try await client.resolve()
        } catch {
            return [endpointCheck, DoctorCheck(name: "model", status: .failed, detail: "\(error)", fix: "set the profile's backend.model to one the server lists"),
                    DoctorCheck(name: "request", status: .skipped, detail: "needs the model")]
        }
        let modelCheck = DoctorCheck(name: "model", status: .passed, detail: "\(resolved.model ?? "?") (\(endpoint.model == nil ? "the server's only model" : "the profile's"))")
        let start = ContinuousClock.now
        do {
            let completion = try await OpenAIClient(endpoint: resolved, requestTimeout: 30).probe()
            let ms = (ContinuousClock.now - start).milliseconds
            let counts = completion.tokensEvaluated == nil ? "no usage (token counts unknown)" : "usage reported"
            let timings = completion.server == nil ? "no server timings" : "llama.cpp timings"
            return [endpointCheck, modelCheck,
                    DoctorCheck(name: "request", status: .passed,
                                detail: String(format: "/%@ answered one token in %.0f ms; %@, %@; key %@", endpoint.api.path, ms, counts, timings,
                                               endpoint.key == nil ? "not set" : "from \(endpoint.keyVariable ?? "?")"))]
        } catch {
            return [endpointCheck, modelCheck, DoctorCheck(name: "request", status: .failed, detail: "\(error)", fix: fix)]
        }
    }
}
