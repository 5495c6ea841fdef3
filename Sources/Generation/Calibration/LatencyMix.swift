/// How a latency figure of one record splits into prompt processing, generation and other time
/// (detection, history translation, the client): what the machine factors of `MachineAdjustment` are
/// weighted by. Each request of the record is split at its own first token: until then the server was
/// processing the prompt, after it generating.
package struct LatencyMix: Sendable, Hashable {
    package var prompt: Double
    package var generation: Double
    package var other: Double

    package init(prompt: Double, generation: Double, other: Double) {
        self.prompt = prompt
        self.generation = generation
        self.other = other
    }

    package static let zero = LatencyMix(prompt: 0, generation: 0, other: 0)

    package var total: Double { prompt + generation + other }

    package static func + (a: LatencyMix, b: LatencyMix) -> LatencyMix {
        .init(prompt: a.prompt + b.prompt, generation: a.generation + b.generation, other: a.other + b.other)
    }

    /// One request: its time to first token is prompt processing, the rest generation; a request with no
    /// first-token time (nothing streamed) counts as other, scaled like the whole fixed request.
    init(_ stage: StageTiming) {
        guard let ttft = stage.ttftMs else {
            self.init(prompt: 0, generation: 0, other: stage.ms)
            return
        }
        let prompt = min(max(0, ttft), stage.ms)
        self.init(prompt: prompt, generation: stage.ms - prompt, other: 0)
    }

    /// The record's requests in the order they ran.
    static func stages(_ record: GenerationRecord) -> [StageTiming] {
        [record.translateIn, record.generate, record.translateOut].compactMap { $0 }
    }

    /// The mix of the record's total time: every request, the remainder other.
    package static func total(_ record: GenerationRecord) -> LatencyMix {
        let requests = stages(record).map(LatencyMix.init).reduce(.zero, +)
        return requests + .init(prompt: 0, generation: 0, other: max(0, record.totalMs - requests.total))
    }

    /// The mix of the record's TTFT (until the first token of the reply the user reads): every request
    /// before the last whole, the last until its first token, the remainder other.
    package static func ttft(_ record: GenerationRecord) -> LatencyMix {
        guard let ttft = record.ttftMs else { return .zero }
        var requests = stages(record)
        guard let last = requests.popLast() else { return .init(prompt: 0, generation: 0, other: ttft) }
        let before = requests.map(LatencyMix.init).reduce(.zero, +)
        let first = LatencyMix(prompt: min(max(0, last.ttftMs ?? 0), ttft), generation: 0, other: 0)
        let timed = before + first
        return timed + .init(prompt: 0, generation: 0, other: max(0, ttft - timed.total))
    }

    /// TPOT is generation only: the reply's time after its first token over its tokens.
    package static let tpot = LatencyMix(prompt: 0, generation: 1, other: 0)
}
