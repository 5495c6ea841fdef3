import BenchSupport
import Foundation

/// What `detect --resume` keeps from an earlier run's results log, after checking that the log was
/// made with the same configs and settings and that every logged item still has the same content.
struct DetectionResume {
    /// Results by config number, then item position.
    private var results: [[Int: DetectionResult]]

    /// Nothing to keep (a fresh run).
    init(configs: Int) {
        results = Array(repeating: [:], count: configs)
    }

    func previous(config: Int, position: Int) -> DetectionResult? {
        results[config][position]
    }

    /// Checks `logged` (header and results of the log at `log`) against this run and keeps its results;
    /// throws `ResumeError.mismatch` naming every kind of difference, with examples.
    init(header: DetectionLogHeader, logged: (header: DetectionLogHeader?, results: [DetectionResult]), items: [CorpusItem],
         order: [Int], directory: URL) throws {
        results = Array(repeating: [:], count: header.configs.count)
        guard let earlier = logged.header else {
            if logged.results.isEmpty { return }
            throw ResumeError.mismatch(directory: directory.path, differences: [
                "\(DetectionResultLog.fileName) was written by an older LangBench without a header naming its configs and settings, so it cannot be checked",
            ])
        }
        var differences = header.differences(from: earlier)
        let configIndex = Dictionary(uniqueKeysWithValues: header.configs.enumerated().map { ($1.name, $0) })
        var position: [String: Int] = [:]
        position.reserveCapacity(order.count)
        for (p, index) in order.enumerated() { position[items[index].id] = p }
        var fingerprints: [Int: String] = [:]
        var changed: [String] = [], missing: [String] = []
        var changedIDs = Set<String>(), missingIDs = Set<String>()
        for result in logged.results {
            guard let config = configIndex[result.config] else { continue }  // a removed config is a difference already
            guard let p = position[result.itemID] else {
                if missingIDs.insert(result.itemID).inserted { missing.append(result.itemID) }
                continue
            }
            let fingerprint = fingerprints[p] ?? ItemFingerprint.of(items[order[p]])
            fingerprints[p] = fingerprint
            if result.itemHash != fingerprint {
                if changedIDs.insert(result.itemID).inserted { changed.append(result.itemID) }
                continue
            }
            if results[config][p] == nil { results[config][p] = result }  // a duplicate line keeps the first
        }
        if !changed.isEmpty {
            differences.append("\(changed.count) item(s) changed text, language or tags under the same id: \(Self.examples(changed))")
        }
        if !missing.isEmpty {
            differences.append("\(missing.count) logged item(s) are not in the corpus: \(Self.examples(missing))")
        }
        if !differences.isEmpty { throw ResumeError.mismatch(directory: directory.path, differences: differences) }
    }

    private static func examples(_ ids: [String]) -> String {
        ids.prefix(5).map { "'\($0)'" }.joined(separator: ", ") + (ids.count > 5 ? ", …" : "")
    }
}
