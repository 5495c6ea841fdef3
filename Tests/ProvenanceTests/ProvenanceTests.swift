import Corpus
import Foundation
@testable import Provenance
import Testing

/// What a run records of where it came from: reports written before a field existed still read, a merged run's
/// calibration keeps each part apart, and a calibration no request could take is called damaged, never scaled by.
struct ProvenanceTests {
    static func sample(_ phase: String, _ ms: Double, part: Int? = nil) -> MachineCalibration.Sample {
        var sample = MachineCalibration.Sample(phase: phase, promptTokens: 40, promptMs: ms / 4, generatedTokens: 16, generationMs: ms * 3 / 4)
        sample.part = part
        return sample
    }

    /// A report from before the optional fields (calibration, shard, blocks, restarts, pool, missing corpora) reads,
    /// and one with every field reads back equal.
    @Test func oldAndFullRecordsRead() throws {
        let old = #"{"tool": "langbench", "toolVersion": "0.1.0", "command": ["langbench", "detect"], "corpora": [], "#
            + #""host": {"cpu": "AMD EPYC", "cores": 2, "memoryGiB": 23.5, "os": "Debian"}, "startedAt": "2026-11-29T10:00:00Z"}"#
        let decoded = try JSONDecoder().decode(Provenance.self, from: Data(old.utf8))
        #expect(decoded.calibration == nil && decoded.missingCorpora == nil && decoded.host.cpuFeatures == nil && decoded.gitCommit == nil)

        var full = Provenance(command: ["langbench", "run"], corpora: [CorpusSource(path: "c.tsv", format: .tsv, sha256: "ab", items: 3)],
                              startedAt: Date(timeIntervalSince1970: 0), gitCommit: "0123abcd")
        full.calibration = MachineCalibration(threads: 2, samples: [Self.sample("start", 400), Self.sample("end", 420)])
        full.shard = "1/2"
        full.blocks = ["1/2", "2/2"]
        full.serverRestarts = 1
        full.missingCorpora = ["Corpora/outside/outside.tsv"]
        full.finish(at: Date(timeIntervalSince1970: 60))
        let read = try JSONDecoder().decode(Provenance.self, from: try JSONEncoder().encode(full))
        #expect(read == full)
        #expect(read.startedAt == "1970-01-01T00:00:00Z" && read.finishedAt == "1970-01-01T00:01:00Z")
    }

    /// Merging merged calibrations numbers every original part after those before it; unlike versions do not merge.
    @Test func mergedCalibrationsKeepEveryPart() throws {
        let one = MachineCalibration(threads: 2, samples: [Self.sample("start", 400), Self.sample("end", 410)])
        let two = try #require(MachineCalibration.merged([one, one]))
        let three = try #require(MachineCalibration.merged([two, one]))
        #expect(three.samples.map(\.part) == [0, 0, 1, 1, 2, 2] && three.parts.count == 3 && three.threads == 2)
        #expect(MachineCalibration.merged([one, MachineCalibration(version: one.version + 1, threads: 2, samples: one.samples)]) == nil)
        #expect(MachineCalibration.merged([one, MachineCalibration(threads: 4, samples: one.samples)])?.threads == nil, "threads differ: not one figure")
    }

    /// A time no request takes is a damaged calibration, named as such; a spread within a part beyond ×1.5 is inconsistent.
    @Test func aCalibrationIsConsistentInconsistentOrDamaged() {
        let damaged = CalibrationConsistency(MachineCalibration(threads: 2, samples: [Self.sample("start", 400), Self.sample("end", 0)]))
        #expect(damaged.verdict == .damaged && damaged.figures == "samples: 1 of 2 are 0 ms, negative or not a number")
        #expect(damaged.sentence.hasPrefix("⚠️ Machine calibration damaged"))
        let loaded = CalibrationConsistency(MachineCalibration(threads: 2, samples: [Self.sample("start", 400), Self.sample("end", 700)]))
        #expect(loaded.verdict == .inconsistent && abs((loaded.spreadRatio ?? 0) - 1.75) < 1e-12)
        let steady = CalibrationConsistency(MachineCalibration(threads: 2, samples: [Self.sample("start", 400), Self.sample("end", 440)]))
        #expect(steady.isConsistent && steady.sentence.hasPrefix("Machine calibration consistent: its samples span ×1.10 (400–440 ms;"))
    }

    @Test func aMissingCorpusIsSaidWithWhereItIsBuilt() {
        #expect(MissingCorpus.sentence("Corpora/outside/outside.tsv")
            == "Corpora/outside/outside.tsv was not there, so detection ran without it: it is built at set-up (scripts/setup, or scripts/setup-outside-corpus alone)")
    }
}
