import Support
import Detection
import Foundation
import Generation
import Comparison
import Provenance

/// Combines shard outputs of `run`, `detect` or `generate` into one run directory whose results equal
/// an unsharded run's (timings and provenance aside).
package enum RunMerger {
    package static func merge(_ directories: [String], into output: URL, command: [String]) throws -> (DetectionReport?, GenerationReport?) {
        let runs = try directories.map(RunResults.load)
        let detections = runs.compactMap(\.detection), generations = runs.compactMap(\.generation)
        guard !detections.isEmpty || !generations.isEmpty else { throw ConfigurationError.invalid(path: directories.joined(separator: " "), reason: "nothing to merge") }
        if !detections.isEmpty && detections.count != runs.count || !generations.isEmpty && generations.count != runs.count {
            throw ComparisonError.cannotMerge("every shard must have the same halves (detection and/or generation)")
        }
        // Shards are read while the merge is written (a damaged log is found at its end): a failed merge
        // removes the directory it made, so that nothing half-merged looks like a run.
        let existed = FileManager.default.fileExists(atPath: output.path)
        try ReportError.writing(output) { try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true) }
        do {
            return try merge(runs, directories: directories, detections: detections, generations: generations, into: output, command: command)
        } catch {
            if !existed { try? FileManager.default.removeItem(at: output) }  // the merge's error is the one to report
            throw error
        }
    }

    /// What `mergeRun` made: the merged halves and, when asked, what judging again changed.
    package struct Merged: Sendable {
        package var detection: DetectionReport?
        package var generation: GenerationReport?
        /// Model replies judged again and verdicts that moved, with the judge's name; nil when not asked.
        package var rejudged: (judge: String, judged: Int, changed: Int)?
    }

    /// `merge` as the command runs it: the shards merged, the merged replies judged again by `judge` when given (the
    /// records written once more through the store), and the suite's report over the result written beside them.
    package static func mergeRun(_ directories: [String], into output: URL, command: [String],
                                rejudgeWith judge: (name: String, detector: any LanguageIdentifying)? = nil) async throws -> Merged {
        let (detection, generation) = try merge(directories, into: output, command: command)
        var merged = Merged(detection: detection, generation: generation)
        if let judge, let generation {
            let outcome = try await Rejudge.apply(generation, replies: try GenerationStore.replies(in: output), judge: judge.name, detector: judge.detector)
            let report = outcome.report.judgingVariants()
            try GenerationStore.write(report.allRecords, to: output)
            try GenerationOutput.write(report, to: output)
            merged.generation = report
            merged.rejudged = (report.settings.judge ?? judge.name, outcome.judged, outcome.changed)
        }
        guard var provenance = detection?.provenance ?? merged.generation?.provenance else { return merged }
        provenance.finish()
        let files = try FileManager.default.contentsOfDirectory(atPath: output.path).filter { !$0.hasPrefix(".") }
        try SuiteReport(runID: output.lastPathComponent, shard: nil, provenance: provenance, detection: detection, generation: merged.generation,
                        files: Array(Set(files + [SuiteReport.markdownFile, SuiteReport.jsonFile, RunPage.file])).sorted()).write(to: output)
        return merged
    }

    private static func merge(_ runs: [RunResults], directories: [String], detections: [DetectionReport], generations: [GenerationReport],
                              into output: URL, command: [String]) throws -> (DetectionReport?, GenerationReport?) {
        var detection: DetectionReport?
        if let first = detections.first {
            for other in detections.dropFirst() where other.configs != first.configs {
                throw ComparisonError.cannotMerge("shards ran different detection configs")
            }
            let stores = runs.compactMap(\.detectionStore)
            let headers = stores.map(\.header)
            for header in headers.dropFirst() where header?.settings != headers[0]?.settings {
                throw ComparisonError.cannotMerge("shards ran with different detection settings (recognizer model or exec timeout)")
            }
            detection = try DetectionShardMerge(directories: directories, stores: stores, echoes: first.configs, header: headers[0])
                .write(timings: mergedTimings(detections.flatMap(\.timings)), provenance: mergedProvenance(detections.map(\.provenance), command: command),
                       into: output)
        }
        var generation: GenerationReport?
        if let first = generations.first {
            for (directory, other) in zip(directories, generations).dropFirst() {
                // Another judge would make "served" mean two things in one run; another translator, pair set or
                // references file would make the merged run claim one engine for translations two made.
                let named = ResumeManifest.differences(first.settings, other.settings).filter { key in
                    Self.mergeKeys.contains { key.hasPrefix($0) }
                }
                guard named.isEmpty else {
                    throw ComparisonError.cannotMerge("shards ran different generation settings: \(named.joined(separator: "; ")) (\(directories[0]) → \(directory))")
                }
            }
            try requireDisjoint(zip(directories, generations.map { $0.allRecords.map(\.keyDescription) }))
            let records = GenerationStore.ordered(generations.flatMap(\.allRecords))
            let report = GenerationReport(records: records, settings: first.settings, warmupRuns: generations.map(\.warmupRuns).reduce(0, +),
                                          provenance: mergedProvenance(generations.map(\.provenance), command: command)).judgingVariants()
            try GenerationStore.write(records, to: output)
            try GenerationOutput.write(report, to: output)
            try GenerationStore.concatenate(directories.map { URL(fileURLWithPath: $0) }, into: output)
            generation = report
        }
        return (detection, generation)
    }

    /// The generation settings every shard of one run shares (by prefix of `ResumeManifest.differences`' keys).
    static let mergeKeys = ["route", "sampling.", "judge", "translator", "variants", "references"]

    /// Shards of one run hold disjoint results; a result in two of them (the same shard given twice,
    /// overlapping shards) would be counted twice or silently dropped.
    static func requireDisjoint<S: Sequence>(_ shards: S) throws where S.Element == (String, [String]) {
        var owner: [String: String] = [:]
        for (directory, keys) in shards {
            for key in keys {
                if let first = owner.updateValue(directory, forKey: key) {
                    throw ComparisonError.cannotMerge("\(first) and \(directory) both hold \(key): shards must not overlap (the same shard given twice?)")
                }
            }
        }
    }

    /// One timing per config: items and seconds summed over shards.
    static func mergedTimings(_ timings: [DetectionRunner.Timing]) -> [DetectionRunner.Timing] {
        var order: [String] = []
        var merged: [String: DetectionRunner.Timing] = [:]
        for t in timings {
            if var m = merged[t.config] {
                m.items += t.items
                m.seconds += t.seconds
                m.cpuSeconds = m.cpuSeconds.flatMap { sum in t.cpuSeconds.map { sum + $0 } }  // only when every shard has it
                m.itemsPerSecond = m.seconds > 0 ? Double(m.items) / m.seconds : 0
                m.loadMs = max(m.loadMs, t.loadMs)
                merged[t.config] = m
            } else {
                order.append(t.config)
                merged[t.config] = t
            }
        }
        return order.map { merged[$0]! }
    }

    static func mergedProvenance(_ all: [Provenance], command: [String]) -> Provenance {
        var provenance = all[0]
        provenance.command = command
        provenance.startedAt = all.map(\.startedAt).min() ?? provenance.startedAt
        provenance.finishedAt = all.compactMap(\.finishedAt).max()
        // Every part must be calibrated for the merged run to be; its samples span all parts.
        let calibrations = all.compactMap(\.calibration)
        provenance.calibration = calibrations.count == all.count ? MachineCalibration.merged(calibrations) : nil
        // Parts that each ran one shard are the blocks of the merged run (a part without one, or already merged, has none).
        let shards = all.compactMap(\.shard)
        provenance.shard = nil
        provenance.blocks = shards.count == all.count && all.count > 1 ? shards : nil
        provenance.servers = mergedServers(all.map(\.servers))
        return provenance
    }

    /// The pool servers of every part, each once by label in first-seen order: a server in several parts has
    /// their calibrations' samples merged, failed when it failed in any (why: the first part's reason), and the
    /// units moved off it summed.
    static func mergedServers(_ parts: [[PoolServer]?]) -> [PoolServer]? {
        var merged: [PoolServer] = []
        for server in parts.compactMap({ $0 }).joined() {
            guard let index = merged.firstIndex(where: { $0.label == server.label }) else {
                merged.append(server)
                continue
            }
            let calibrations = [merged[index].calibration, server.calibration].compactMap { $0 }
            merged[index].calibration = MachineCalibration.merged(calibrations)
            merged[index].failed = merged[index].failed || server.failed
            merged[index].unitsMoved += server.unitsMoved
            merged[index].failure = merged[index].failure ?? server.failure
        }
        return merged.isEmpty ? nil : merged
    }
}
