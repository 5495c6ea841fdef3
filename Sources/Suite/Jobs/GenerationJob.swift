import Support
import Foundation
import Generation
import Comparison
import Corpus
import Backend
import Provenance

/// One `generate` run end to end: every output is appended to the run directory as it is produced
/// (records, diagnostics, replies), then the reports are written atomically. With `resume`,
/// recorded item × route × repeat results are kept and not redone. A run stopped by a signal, by
/// losing its server or by a detector that cannot answer throws `GenerationStopped` with exact records
/// and no report (see `docs/reliability.md`).
package struct GenerationJob: Sendable {
    package var corpus: Corpus
    package var runner: GenerationRunner
    package var settings: GenerationReport.Settings
    package var directory: URL
    package var command: [String]
    package var resume: Bool
    package var writeReplies: Bool
    /// Measures the machine at the start and end of the run, into the provenance.
    package var calibrator: MachineCalibrator?
    /// Stops the translation engines the setup started (an APy server, an `exec:` translator's process).
    package var stopTranslators: @Sendable () async -> Void = {}

    package init(corpus: Corpus, runner: GenerationRunner, settings: GenerationReport.Settings, directory: URL, command: [String],
                resume: Bool = false, writeReplies: Bool = true) {
        self.corpus = corpus
        self.runner = runner
        self.settings = settings
        self.directory = directory
        self.command = command
        self.resume = resume
        self.writeReplies = writeReplies
    }

    package func run(progress: any ProgressObserving = SilentProgress()) async throws -> GenerationReport {
        var provenance = Provenance(command: command, corpora: corpus.sources)
        provenance.shard = corpus.shard?.description
        let store = try GenerationStore(directory: directory, manifest: ResumeManifest(settings: settings, items: corpus.items), resume: resume,
                                        writeReplies: writeReplies)
        let done = Set(store.kept.map(\.key))
        let measured: Measured
        do {
            measured = try await ServerReaper.interruptible { [self] in
                try await measure(progress: progress, skip: done, sink: { try store.append($0) })
            }
        } catch {
            // Whatever failed after a signal failed because of it (the servers were stopped): say so.
            let cause = runner.stopSignal().map(GenerationStopped.Cause.signal) ?? (error as? GenerationStopped.Cause)
            guard let cause else { throw error }
            throw GenerationStopped(cause: cause, kept: store.recorded, directory: directory)
        }
        let warmupRuns = measured.warmupRuns
        provenance.calibration = measured.calibration
        provenance.servers = measured.servers
        // The records live once, in the store's log: the report is built from what its cursor reads back.
        let records = try store.cursor().remaining()
        _ = try store.finish()
        var restarts = 0, seen = Set<ObjectIdentifier>()
        for recovery in runner.recoveries where seen.insert(ObjectIdentifier(recovery)).inserted { restarts += await recovery.restarts }
        provenance.serverRestarts = restarts.nonZero
        provenance.finish()
        let report = GenerationReport(records: records, settings: settings, warmupRuns: warmupRuns, provenance: provenance).judgingVariants()
        try GenerationOutput.write(report, to: directory)
        return report
    }

    private struct Measured: Sendable {
        var warmupRuns: Int
        var calibration: MachineCalibration?
        var servers: [PoolServer]?
    }

    /// The calibrated, timed part: every item, each output handed to `sink` as it is produced.
    private func measure(progress: any ProgressObserving, skip done: Set<String>, sink: @escaping GenerationRunner.Sink) async throws -> Measured {
        if !runner.pool.isEmpty { return try await measurePooled(progress: progress, skip: done, sink: sink) }
        let calibrationStart = try await calibrator?.measure(phase: "start", warm: true)
        let warmupRuns = try await runner.run(corpus.items, progress: progress, skip: done, sink: sink)
        var calibration: MachineCalibration?
        if let calibrator, let calibrationStart {
            calibration = MachineCalibration(threads: calibrator.threads, samples: calibrationStart + (try await calibrator.measure(phase: "end")))
        }
        return Measured(warmupRuns: warmupRuns, calibration: calibration)
    }

    /// A pooled run: every server calibrated at the start, the items dealt across them, every server still
    /// live calibrated at the end (one that fails then keeps its start samples). The run's calibration is
    /// the pool's, all servers' samples merged; each server's own is in `servers`.
    private func measurePooled(progress: any ProgressObserving, skip done: Set<String>, sink: @escaping GenerationRunner.Sink) async throws -> Measured {
        var starts: [[MachineCalibration.Sample]?] = []
        var failed: [Int: String] = [:]
        for (index, member) in runner.pool.enumerated() {
            // A server that does not answer its start calibration is failed like one that dies mid-run: its items move.
            if let attachFailure = member.attachFailure {
                failed[index] = attachFailure
                starts.append(nil)
                continue
            }
            do { starts.append(try await member.calibrator?.measure(phase: "start", warm: true)) } catch let error as BackendError {
                failed[index] = PoolFailure.reason(.startCalibration, error)
                starts.append(nil)
            }
        }
        let (warmupRuns, outcome) = try await runner.runPooled(corpus.items, progress: progress, skip: done, failed: failed, sink: sink)
        var servers: [PoolServer] = []
        for (index, member) in runner.pool.enumerated() {
            var calibration: MachineCalibration?
            if let calibrator = member.calibrator, let start = starts[index] {
                var end: [MachineCalibration.Sample] = []
                if !outcome.failed[index] {
                    // A server that dies after its last item has no end samples: its start ones stand.
                    do { end = try await calibrator.measure(phase: "end") } catch is BackendError {}
                }
                calibration = MachineCalibration(threads: calibrator.threads, samples: start + end)
            }
            servers.append(PoolServer(label: member.label, url: member.url, calibration: calibration, failed: outcome.failed[index],
                                      unitsMoved: outcome.movedAway[index], failure: outcome.failures[index]))
        }
        return Measured(warmupRuns: warmupRuns, calibration: MachineCalibration.merged(servers.compactMap(\.calibration)),
                        servers: servers)
    }
}

private extension Int {
    var nonZero: Int? { self == 0 ? nil : self }
}
