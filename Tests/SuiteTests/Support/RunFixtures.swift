@testable import Detection
import Foundation
@testable import Generation
@testable import Corpus
@testable import Suite
@testable import Comparison
import TestSupport

/// Small runs made with the real JSON-lines script detector, for comparison, shard and resume tests.
enum RunFixtures {
    static let detector = "exec:python3 \(Fixture.path("detectors/script-detector.py", target: "DetectionTests"))"

    /// 60 Ukrainian and 20 Russian one-word items: the script detector gets Ukrainian right only when
    /// Ukrainian is the first Cyrillic candidate.
    static let corpus: Corpus = {
        var items: [CorpusItem] = []
        for i in 0..<60 { items.append(CorpusItem(id: String(format: "uk-%03d", i), lang: LanguageCode(normalised: "uk"), text: "слово\(i)")) }
        for i in 0..<20 { items.append(CorpusItem(id: String(format: "ru-%03d", i), lang: LanguageCode(normalised: "ru"), text: "слово\(i)")) }
        return Corpus(items: items, sources: [CorpusSource(path: "synthetic", format: .tsv, sha256: String(repeating: "a", count: 64), items: items.count)])
    }()

    static func configs(constrained: Bool) -> [DetectionConfig] {
        [DetectionConfig(name: "main", detector: detector,
                         candidates: constrained ? .list([LanguageCode(normalised: "uk"), LanguageCode(normalised: "ru")]) : .none)]
    }

    /// Detects into `directory` (a fresh one when nil) and reads the run back as `compare` and `merge` do.
    /// The fixture corpus detected in `count` shards, each in a directory of its own (after `prepare`
    /// has seen it); the directories' paths, in shard order.
    static func shards(_ count: Int, prepare: (URL) throws -> Void = { _ in }) async throws -> [String] {
        var directories: [String] = []
        for k in 1...count {
            let directory = try Fixture.temporaryDirectory()
            _ = try await detect(try Shard("\(k)/\(count)").apply(corpus), into: directory)
            try prepare(directory)
            directories.append(directory.path)
        }
        return directories
    }

    static func detect(_ corpus: Corpus = corpus, constrained: Bool = true, into directory: URL? = nil,
                       resume: Bool = false) async throws -> RunResults {
        let directory = try directory ?? Fixture.temporaryDirectory()
        _ = try await DetectionJob(corpus: corpus, configs: configs(constrained: constrained), supported: [], factory: DetectorFactory(),
                                   directory: directory, command: ["test"], resume: resume).run()
        return try RunResults.load(directory.path)
    }

    /// The run as comparison goldens show it: its temporary path written `memory`.
    static func results(_ run: RunResults) -> RunResults {
        var named = run
        named.path = "memory"
        return named
    }
}
