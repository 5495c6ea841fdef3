import Support
import Foundation
import Corpus

/// Runs every config over every item, streaming: results go to a callback a batch at a time in a fixed
/// order (config order, then the order of the items given) as they are made (`FreshChunk`), and nothing
/// keeps them. A detector that
/// offers a concurrent identifier (the built-in recognizer) runs on `jobs` tasks per batch; the order of
/// results does not depend on `jobs`. Others are driven from one task, one item at a time.
public struct DetectionRunner: Sendable {
    /// A config with its candidate set resolved against the model profile.
    package struct ResolvedConfig: Sendable, Hashable {
        package var config: DetectionConfig
        package var candidates: [LanguageCode]?
    }

    /// Wall-clock facts per detector and config.
    public struct Timing: Sendable, Hashable, Codable {
        package var config: String
        package var detector: String
        package var items: Int
        package var seconds: Double
        package var itemsPerSecond: Double
        package var loadMs: Double
        /// CPU seconds of the detector's calls, summed over tasks: each detecting thread's CPU time around
        /// its loop (`seconds` is wall time, which also counts the time a thread waited for its core). Only
        /// for a detector run on tasks (the built-in recognizer); nil for one driven an item at a time, and in
        /// runs written before it was recorded.
        package var cpuSeconds: Double?

        package init(config: String, detector: String, items: Int, seconds: Double, itemsPerSecond: Double, loadMs: Double, cpuSeconds: Double? = nil) {
            self.config = config
            self.detector = detector
            self.items = items
            self.seconds = seconds
            self.itemsPerSecond = itemsPerSecond
            self.loadMs = loadMs
            self.cpuSeconds = cpuSeconds
        }

        enum CodingKeys: String, CodingKey {
            case config, detector, items, seconds, itemsPerSecond = "items_per_second", loadMs = "load_ms", cpuSeconds = "cpu_seconds"
        }
    }

    package var configs: [ResolvedConfig]
    /// Makes (or loads) a detector by its config name: `builtin` or `exec:<command>`.
    package var makeDetector: @Sendable (String) async throws -> any LanguageIdentifying
    /// Tasks that detect at once, for detectors that allow it.
    package var jobs: Int
    /// Items per batch: the unit of parallel work and of flushing the results log.
    package var batchSize: Int

    package init(configs: [DetectionConfig], supported: [LanguageCode], jobs: Int = 1, batchSize: Int = 4096,
                makeDetector: @escaping @Sendable (String) async throws -> any LanguageIdentifying) throws {
        self.configs = try configs.map { ResolvedConfig(config: $0, candidates: try $0.resolvedCandidates(supported: supported)) }
        self.jobs = max(1, jobs)
        self.batchSize = max(1, batchSize)
        self.makeDetector = makeDetector
    }

    /// Where results go, a batch at a time in order. `done` says whether the result of config number
    /// `config` for the item at `position` was measured already (not redone: the sink has it); nil when
    /// none was (a fresh run, which then asks nothing per item).
    package struct Sink {
        package var done: ((_ config: Int, _ position: Int) -> Bool)?
        package var batch: (_ batch: Batch) throws -> Void

        package init(done: ((Int, Int) -> Bool)? = nil, batch: @escaping (Batch) throws -> Void) {
            self.done = done
            self.batch = batch
        }
    }

    /// One batch's results for the sink: the fresh ones at the positions in `todo` (in order, in
    /// consecutive chunks, as detections or results for the sink to build and encode: `FreshChunk`);
    /// the sink has the others (`Sink.done`).
    package struct Batch: Sendable {
        /// The config's number, in the run's order.
        package var config: Int
        package var positions: Range<Int>
        package var todo: [Int]
        var fresh: [FreshChunk]
    }

    /// The configs' detectors, each made once, with how long making it took.
    package struct Detectors: Sendable {
        var made: [String: (detector: any LanguageIdentifying, loadMs: Double)] = [:]

        /// Ends every detector (external processes exit).
        package func shutdown() async {
            for (detector, _) in made.values { await detector.shutdown() }
        }
    }

    /// Makes every config's detector and checks that it can produce each of the config's candidates (so
    /// a candidate a detector cannot produce stops the run before the first item instead of scoring
    /// its items wrong). What was made is shut down when this throws.
    package func makeDetectors() async throws -> Detectors {
        var detectors = Detectors()
        do {
            for resolved in configs where detectors.made[resolved.config.detector] == nil {
                let clock = ContinuousClock()
                var detector: (any LanguageIdentifying)?
                let load = try await clock.measure { detector = try await makeDetector(resolved.config.detector) }
                detectors.made[resolved.config.detector] = (detector!, load.milliseconds)
            }
            for resolved in configs {
                try CandidateError.check(resolved.config.candidates, detector: detectors.made[resolved.config.detector]!.detector, config: resolved.config.name)
            }
        } catch {
            await detectors.shutdown()
            throw error
        }
        return detectors
    }

    /// `run(_:detectors:progress:sink:)` with the detectors made first.
    package func run(_ items: SortedCorpus, progress: any ProgressObserving = SilentProgress(), sink: Sink) async throws -> [Timing] {
        try await run(items, detectors: try await makeDetectors(), progress: progress, sink: sink)
    }

    /// Batches launched at once: when the recording thread takes the oldest, the next is already
    /// launched, so detection never waits for that thread to finish recording and reading. With one
    /// job the second waits for the first before it detects (one detection thread, as `--jobs 1` says);
    /// with more its chunks take up the cores the first one's last chunks leave idle.
    static let inFlight = 2

    /// Detects the item at every position p of `items` (canonical order) with every config; a result
    /// `sink.done` says is measured is not redone. Returns one timing per config. `detectors` (from
    /// `makeDetectors()`) are shut down when this returns or throws.
    package func run(_ items: SortedCorpus, detectors: Detectors, progress: any ProgressObserving = SilentProgress(), sink: Sink) async throws -> [Timing] {
        var timings: [Timing] = []
        let total = items.count
        progress.begin("detect", total: total * configs.count)
        do {
            for (index, resolved) in configs.enumerated() {
                let (detector, loadMs) = detectors.made[resolved.config.detector]!
                let pass = ConfigPass(resolved: resolved, detector: detector, jobs: jobs)
                let cursor = try items.cursor()
                var measured = 0
                var seconds = 0.0
                // Nil for a detector driven item by item, and once a batch had none (a clock not read).
                var cpuSeconds: Double? = pass.runsOnTasks ? 0 : nil
                // Batches k+1 and k+2 are launched while batch k is recorded, and the next batch is read after
                // that on this thread (which records, and has the time), so the detection tasks only detect.
                var reading = 0
                func read() throws -> (positions: Range<Int>, items: ArraySlice<CorpusItem>)? {
                    guard reading < total else { return nil }
                    let positions = reading..<min(total, reading + batchSize)
                    let items = try cursor.next(positions.count)
                    guard items.count == positions.count else {
                        throw CorpusError.unreadable(path: "the sorted corpus", reason: "\(total) items expected, the items ended after \(reading + items.count)")
                    }
                    reading = positions.upperBound
                    return (positions, items)
                }
                func launch(_ batch: (positions: Range<Int>, items: ArraySlice<CorpusItem>), after prior: Pending?) -> Pending {
                    let (positions, items) = batch
                    let todo = sink.done.map { done in positions.filter { !done(index, $0) } } ?? Array(positions)
                    let wait = jobs == 1 ? prior?.detection : nil
                    return Pending(positions: positions, todo: todo, detection: Task {
                        _ = await wait?.value  // one job: one batch detects at a time
                        return await pass.detect(todo.count == items.count ? items : todo.map { items[items.startIndex + $0 - positions.lowerBound] }[...])
                    })
                }
                // `inFlight` batches launched at first; then the next one as soon as the oldest is taken,
                // before it is recorded.
                var detecting: [Pending] = []
                var next = try read()
                do {
                    while detecting.count < Self.inFlight, let batch = next {
                        detecting.append(launch(batch, after: detecting.last))
                        next = try read()
                    }
                    while !detecting.isEmpty {
                        let pending = detecting.removeFirst()
                        let (fresh, elapsed) = await pending.detection.value
                        if let batch = next { detecting.append(launch(batch, after: detecting.last)) }
                        seconds += elapsed.wall
                        cpuSeconds = cpuSeconds.flatMap { sum in elapsed.cpu.map { sum + $0 } }
                        measured += pending.todo.count
                        try sink.batch(Batch(config: index, positions: pending.positions, todo: pending.todo, fresh: fresh))
                        next = try read()  // nil again once the items have ended
                        progress.advance(by: pending.positions.count)
                    }
                } catch {
                    // The batches in flight end before shutdown; the error thrown below is the one to report.
                    for pending in detecting { _ = await pending.detection.value }
                    throw error
                }
                timings.append(Timing(config: resolved.config.name, detector: detector.name, items: measured, seconds: seconds,
                                      itemsPerSecond: seconds > 0 ? Double(measured) / seconds : 0, loadMs: loadMs, cpuSeconds: cpuSeconds))
            }
        } catch {
            await detectors.shutdown()
            throw error
        }
        progress.end()
        await detectors.shutdown()
        return timings
    }

    /// The identity of a result for resuming: item and config.
    package static func key(item: String, config: String) -> String { "\(config)\u{1F}\(item)" }

    /// The result of `outcome`, with its item's fingerprint.
    static func result(for item: CorpusItem, config: String, detector: String, outcome: DetectionOutcome) -> DetectionResult {
        let tags = item.sortedTags
        var result = switch outcome {
        case .hypotheses(let list): DetectionResult(id: item.id, lang: item.lang, text: item.text, sortedTags: tags, config: config, detector: detector, best: list.first)
        case .undetermined: DetectionResult(id: item.id, lang: item.lang, text: item.text, sortedTags: tags, config: config, detector: detector, best: nil)
        case .failed(let reason):
            DetectionResult(id: item.id, lang: item.lang, text: item.text, sortedTags: tags, config: config, detector: detector, best: nil,
                            error: item.hasTag("crisis") ? FailureText.crisisWithheld : FailureText.without(item.text, in: reason))
        }
        result.itemHash = FNV1a64.hex(ItemFingerprint.value(item, sortedTags: tags))
        return result
    }
}

/// A batch of positions, the ones to detect, and their detection running.
private struct Pending {
    var positions: Range<Int>
    var todo: [Int]
    var detection: Task<([FreshChunk], ConfigPass.Elapsed), Never>
}

/// One config's detector over batches of items: on `jobs` tasks when the detector offers a concurrent
/// identifier, else one item at a time.
struct ConfigPass: Sendable {
    let config: DetectionConfig
    let candidates: [LanguageCode]?
    let detector: any LanguageIdentifying
    let concurrent: (@Sendable (String) -> Hypothesis?)?
    let jobs: Int
    init(resolved: DetectionRunner.ResolvedConfig, detector: any LanguageIdentifying, jobs: Int) {
        config = resolved.config
        candidates = resolved.candidates
        self.detector = detector
        concurrent = detector.concurrentIdentifier(candidates: resolved.candidates, hints: resolved.config.hints)
        self.jobs = jobs
    }

    /// Whether the detector runs on tasks (it offers a concurrent identifier).
    var runsOnTasks: Bool { concurrent != nil }

    /// Time spent in the detector's calls, summed over tasks: wall seconds, and CPU seconds of the
    /// detecting threads where the detector runs on tasks (nil otherwise).
    struct Elapsed: Sendable {
        var wall: Double
        var cpu: Double?
    }

    /// Results for `items` in their order, in consecutive chunks handed over as detections for the recording
    /// thread to build and write, and the time spent in the detector's calls.
    func detect(_ items: ArraySlice<CorpusItem>) async -> ([FreshChunk], Elapsed) {
        guard let concurrent else {
            var results: [DetectionResult] = []
            results.reserveCapacity(items.count)
            let clock = ContinuousClock()
            var elapsed = Duration.zero
            for item in items {
                let start = clock.now
                let outcome = await detector.identify(item.text, candidates: candidates, hints: config.hints)
                elapsed += clock.now - start
                results.append(DetectionRunner.result(for: item, config: config.name, detector: detector.name, outcome: outcome))
            }
            return ([.results(results)], Elapsed(wall: elapsed.seconds, cpu: nil))
        }
        // More chunks than jobs: the recording of the previous batch holds one thread of the same pool for
        // a while, and small chunks let the threads that are free take up the rest.
        let chunks = jobs > 1 ? max(1, min(jobs * 4, items.count / 128)) : 1
        let size = (items.count + chunks - 1) / max(1, chunks)
        let configName = config.name, name = detector.name
        @Sendable func work(_ slice: ArraySlice<CorpusItem>) -> (FreshChunk, Elapsed) {
            var bests: [Hypothesis?] = []
            bests.reserveCapacity(slice.count)
            // The loop does nothing but call the detector, so it is timed whole rather than per item. It has no
            // suspension point, so one thread runs all of it and that thread's CPU clock times it too.
            let clock = ContinuousClock()
            let start = clock.now
            let cpuStart = SystemCall.threadCPUSeconds()
            // Through the buffer: only the text is retained, not a copy of the whole item (whose tags and
            // path are objects shared by many items, retained and released from every thread that copies).
            slice.withUnsafeBufferPointer { items in
                for index in items.indices { bests.append(concurrent(items[index].text)) }
            }
            let cpu = cpuStart.flatMap { start in SystemCall.threadCPUSeconds().map { $0 - start } }
            let elapsed = clock.now - start
            // The results are built and written by the recording thread, straight into the output files.
            return (.detections(FreshDetections(items: slice, bests: bests, config: configName, detector: name)), Elapsed(wall: elapsed.seconds, cpu: cpu))
        }
        if chunks == 1 {
            let (chunk, elapsed) = work(items)
            return ([chunk], elapsed)
        }
        return await withTaskGroup(of: (Int, FreshChunk, Elapsed).self) { group in
            for chunk in 0..<chunks {
                let slice = items[items.startIndex + min(items.count, chunk * size)..<items.startIndex + min(items.count, (chunk + 1) * size)]
                group.addTask { let (encoded, seconds) = work(slice); return (chunk, encoded, seconds) }
            }
            var parts = [FreshChunk](repeating: .results([]), count: chunks)
            var total = Elapsed(wall: 0, cpu: 0)
            for await (chunk, encoded, elapsed) in group {
                parts[chunk] = encoded
                total.wall += elapsed.wall
                total.cpu = total.cpu.flatMap { sum in elapsed.cpu.map { sum + $0 } }  // nil once a clock could not be read
            }
            return (parts, total)
        }
    }
}
