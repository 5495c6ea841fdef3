import BenchSupport
import Foundation

/// Runs every config over every item. Each detector is driven from one task at a time so the
/// throughput it reports is single-threaded, as the report says.
public struct DetectionRunner: Sendable {
    /// A config with its candidate set resolved against the model profile.
    public struct ResolvedConfig: Sendable, Hashable {
        public var config: DetectionConfig
        public var candidates: [LanguageCode]?
    }

    /// Wall-clock facts per detector and config.
    public struct Timing: Sendable, Hashable, Codable {
        public var config: String
        public var detector: String
        public var items: Int
        public var seconds: Double
        public var itemsPerSecond: Double
        public var loadMs: Double

        enum CodingKeys: String, CodingKey {
            case config, detector, items, seconds, itemsPerSecond = "items_per_second", loadMs = "load_ms"
        }
    }

    public var configs: [ResolvedConfig]
    /// Makes (or loads) a detector by its config name: `builtin` or `exec:<command>`.
    public var makeDetector: @Sendable (String) async throws -> any LanguageIdentifying

    public init(configs: [DetectionConfig], supported: [LanguageCode],
                makeDetector: @escaping @Sendable (String) async throws -> any LanguageIdentifying) throws {
        self.configs = try configs.map { ResolvedConfig(config: $0, candidates: try $0.candidates.resolve(supported: supported)) }
        self.makeDetector = makeDetector
    }

    /// Detects every item with every config. `onResult` sees each result as it is produced (so
    /// callers can append it to disk); results come back in config order, then corpus order.
    public func run(_ items: [CorpusItem], progress: any ProgressObserving = SilentProgress(),
                    skip: Set<String> = [], onResult: @Sendable (DetectionResult) throws -> Void = { _ in }) async throws -> ([DetectionResult], [Timing]) {
        var detectors: [String: (detector: any LanguageIdentifying, loadMs: Double)] = [:]
        var results: [DetectionResult] = []
        var timings: [Timing] = []
        progress.begin("detect", total: items.count * configs.count)
        func shutdownAll() async {
            for (detector, _) in detectors.values { await detector.shutdown() }
        }
        do {
        // Every detector is made and every candidate checked before the first item, so a candidate a
        // detector cannot produce stops the run instead of scoring its items wrong.
        for resolved in configs where detectors[resolved.config.detector] == nil {
            let clock = ContinuousClock()
            var detector: (any LanguageIdentifying)?
            let load = try await clock.measure { detector = try await makeDetector(resolved.config.detector) }
            detectors[resolved.config.detector] = (detector!, load.milliseconds)
        }
        for resolved in configs {
            try CandidateError.check(resolved.config.candidates, detector: detectors[resolved.config.detector]!.detector, config: resolved.config.name)
        }
        for resolved in configs {
            let config = resolved.config
            let (detector, loadMs) = detectors[config.detector]!
            let clock = ContinuousClock()
            var measured = 0
            var elapsed = Duration.zero
            for item in items {
                let key = Self.key(item: item.id, config: config.name)
                if skip.contains(key) { progress.advance(by: 1); continue }
                let start = clock.now
                let outcome = await detector.identify(item.text, candidates: resolved.candidates, hints: config.hints)
                elapsed += clock.now - start
                measured += 1
                let result = Self.result(for: item, config: config, detector: detector.name, outcome: outcome)
                try onResult(result)
                results.append(result)
                progress.advance(by: 1)
            }
            let seconds = elapsed.seconds
            timings.append(Timing(config: config.name, detector: detector.name, items: measured, seconds: seconds,
                                  itemsPerSecond: seconds > 0 ? Double(measured) / seconds : 0, loadMs: loadMs))
        }
        } catch {
            await shutdownAll()
            throw error
        }
        progress.end()
        await shutdownAll()
        return (results, timings)
    }

    /// The identity of a result for resuming: item and config.
    public static func key(item: String, config: String) -> String { "\(config)\u{1F}\(item)" }

    static func result(for item: CorpusItem, config: DetectionConfig, detector: String, outcome: DetectionOutcome) -> DetectionResult {
        var result = DetectionResult(itemID: item.id, lang: item.lang, tags: item.sortedTags,
                                     length: LengthBucket(text: item.text, lang: item.lang),
                                     config: config.name, detector: detector, predicted: nil, confidence: nil, error: nil)
        switch outcome {
        case .hypotheses(let list):
            result.predicted = list.first?.lang
            result.confidence = list.first.map { ($0.probability * 10_000).rounded() / 10_000 }
        case .undetermined: break
        case .failed(let reason): result.error = reason
        }
        return result
    }
}
