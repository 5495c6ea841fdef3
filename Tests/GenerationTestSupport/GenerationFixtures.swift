@testable import Support
@testable import Detection
import Foundation
@testable import Generation
import Comparison
@testable import Corpus
@testable import Provenance
import ByteIO
import TestSupport

/// Generation reports built from fixed records (Fixtures/generation/*.jsonl, written by
/// make-fixtures.py): the base run, and a current run whose non-English pivot is 40% slower and whose
/// direct route times out on 8 German items.
package enum GenerationFixtures {
    package static func records(_ name: String) throws -> [GenerationRecord] {
        try JSONLinesLog<GenerationRecord>.read(URL(fileURLWithPath: Fixture.path("generation/\(name).jsonl")), repair: false)
    }

    package static let settings: GenerationReport.Settings = {
        func sampling(_ json: String) -> ModelProfile.Sampling {
            do { return try JSONDecoder().decode(ModelProfile.Sampling.self, from: Data(json.utf8)) } catch { fatalError("fixture sampling: \(error)") }
        }
        let generation = sampling(#"{"temperature":0.7,"top_k":40,"top_p":0.95,"min_p":0.05,"seed":42,"n_predict":48,"stop":["\n"],"cache_prompt":false}"#)
        let translation = sampling(#"{"temperature":0,"top_k":1,"top_p":1,"min_p":0,"seed":42,"n_predict":64,"stop":["\n"],"cache_prompt":false}"#)
        return GenerationReport.Settings(profile: "gemma3-270m-q4km", route: .both, sampling: generation, translationSampling: translation,
                                         supportedLanguages: ["de", "en"], detection: "constrained+priors (builtin; candidates fixture)",
                                         packs: LanguagePacks(), concurrency: 1, repeats: 1, warmup: 2, refuseUnsupported: false,
                                         server: ["threads": "2", "parallel_slots": "1", "context_size": "2048", "swa_full": "true",
                                                  "model_path": "gemma-3-270m-q4_k_m.gguf", "model_sha256": String(repeating: "f", count: 64)],
                                         cachePolicy: .cold)
    }()

    package static func provenance(_ name: String) -> Provenance {
        var provenance = Provenance(command: ["langbench", "run", "--out", name],
                                    corpora: [CorpusSource(path: "Corpora/chat-prompts.tsv", format: .tsv, sha256: String(repeating: "c", count: 64), items: 50)],
                                    startedAt: Date(timeIntervalSince1970: 1_800_000_000), gitCommit: "0123456789abcdef0123456789abcdef01234567")
        provenance.toolVersion = "0.0.0-test"
        provenance.host = Provenance.Host(cpu: "Fixture CPU", cores: 2, memoryGiB: 24, os: "fixture")
        provenance.finish(at: Date(timeIntervalSince1970: 1_800_000_100))
        return provenance
    }

    package static func report(_ name: String, settings: GenerationReport.Settings = settings) throws -> GenerationReport {
        GenerationReport(records: try records(name), settings: settings, warmupRuns: 4, provenance: provenance(name))
    }

    /// A run with two variants, judged as a run judges them: `a` replays the base records, `b` the current ones (8 German
    /// direct timeouts).
    package static func variants() throws -> GenerationReport {
        var settings = settings
        settings.variants = ["a", "b"].map { .init(name: $0, description: "variant \($0)", model: "gemma-3-270m-q4_k_m.gguf", server: 1,
                                                   fingerprint: String(repeating: $0, count: 64)) }
        let labelled = { (name: String, variant: String) in try records(name).map { var record = $0; record.variant = variant; return record } }
        return GenerationReport(records: try labelled("base", "a") + labelled("current", "b"), settings: settings, warmupRuns: 0,
                                provenance: provenance("variants")).judgingVariants()
    }

    /// A calibration whose start and end samples each take `ms` (prompt and generation halves).
    package static func calibration(ms: Double) -> MachineCalibration {
        MachineCalibration(threads: nil, samples: ["start", "end"].map {
            MachineCalibration.Sample(phase: $0, promptTokens: 58, promptMs: ms / 2, generatedTokens: 16, generationMs: ms / 2)
        })
    }
}
