import Generation
import Provenance

/// One thing the two runs computed with that differs between them: the machine, the llama.cpp build, a
/// server setting, the model file, the warm-up. `compare` prints every one in an Environment table, so a
/// change in speed is traced to its cause instead of being called "the machine".
package struct EnvironmentDifference: Sendable, Hashable, Encodable {
    package enum Effect: String, Sendable, Hashable, Encodable {
        /// Changes the server's speed: latency cannot be put on one machine scale across it.
        case serverSpeed = "server speed"
        /// The machine itself: the calibration's business, and no same-runner compare's.
        case machine
        /// Changes what is sampled or counted, not what latency means.
        case output
        /// Another API (native completion, OpenAI completions or chat): prompts go out in another shape.
        case api
        /// Changes what "served in own language" means: the replies were judged by another detector or model.
        case judge
        /// Recorded for the reader; no rule depends on it.
        case none
    }

    package var name: String
    package var base: String
    package var current: String
    package var effect: Effect

    /// The differences between two generation runs' environments (detection runs have no server).
    static func between(_ a: GenerationReport, _ b: GenerationReport) -> [EnvironmentDifference] {
        var out: [EnvironmentDifference] = []
        func add(_ name: String, _ x: String?, _ y: String?, _ effect: Effect) {
            let (x, y) = (x ?? notRecorded, y ?? notRecorded)
            if x != y { out.append(EnvironmentDifference(name: name, base: x, current: y, effect: effect)) }
        }
        let (s, t) = (a.settings.server, b.settings.server)
        // A native server records no API; an OpenAI-compatible one records which of its two endpoints.
        add("backend API", s["api"] ?? "llama", t["api"] ?? "llama", .api)
        add("llama.cpp build", s["build_info"], t["build_info"], .serverSpeed)
        add("llama-server binary (SHA-256)", s["server_binary_sha256"], t["server_binary_sha256"], .serverSpeed)
        add("llama.cpp CPU features in use", s["system_info"], t["system_info"], .serverSpeed)
        add("server settings", s["server_args"], t["server_args"], .serverSpeed)
        add("model file (SHA-256)", s["model_sha256"], t["model_sha256"], .output)
        let (h, k) = (a.provenance.host, b.provenance.host)
        add("CPU", h.cpu, k.cpu, .machine)
        add("CPU features", h.cpuFeatures?.joined(separator: " "), k.cpuFeatures?.joined(separator: " "), .machine)
        add("cores", String(h.cores), String(k.cores), .machine)
        add("reply-language judge", a.settings.judge, b.settings.judge, .judge)
        add("warm-up requests", String(a.settings.warmup), String(b.settings.warmup), .none)
        return out
    }

    /// What a side that did not record the figure shows (a report from before it was recorded).
    static let notRecorded = "not recorded"

    /// Both sides recorded the figure: a change to name, not a gap in an older report.
    var recordedOnBothSides: Bool { base != Self.notRecorded && current != Self.notRecorded }

    /// What the difference does to the comparison, in words.
    var consequence: String {
        switch effect {
        case .serverSpeed: "changes the server's speed: latency is not comparable across it (a calibration would absorb it)"
        case .machine: "another machine: latency only through the calibration, never same-runner"
        case .output: "another tokenizer may count differently: prompt tokens are not compared exactly"
        case .api: "prompts went out through another API (a chat template or none): replies and token counts are not one measurement"
        case .judge: "served in own language was judged by another judge: re-run one side with the other's recognizer to compare it"
        case .none: "recorded"
        }
    }
}
