import BenchSupport
import Foundation
import Items

/// What `detect --resume` keeps from an earlier run's results log, after checking that the log was
/// made with the same configs and settings and that every logged item still has the same content.
package struct DetectionResume {
    /// Results by config number, then item position.
    private var results: [[Int: DetectionResult]]

    /// Nothing to keep (a fresh run).
    package init(configs: Int) {
        results = Array(repeating: [:], count: configs)
    }

    /// Whether there is no result to keep.
    package var isEmpty: Bool { results.allSatisfy(\.isEmpty) }

    package func previous(config: Int, position: Int) -> DetectionResult? {
        results[config].isEmpty ? nil : results[config][position]  // asked per item for a config with nothing logged
    }

    /// Checks `logged` (header and results of the log at `log`) against this run and keeps its results;
    /// throws `ResumeError.mismatch` naming every kind of difference, with examples. Reads `items` once,
    /// keeping positions and fingerprints only for the items the log names.
    package init(header: DetectionLogHeader, logged: (header: DetectionLogHeader?, results: [DetectionResult]), items: SortedCorpus,
         directory: URL) throws {
        results = Array(repeating: [:], count: header.configs.count)
        guard let earlier = logged.header else {
            if logged.results.isEmpty { return }
            throw ResumeError.mismatch(directory: directory.path, differences: [
                "\(DetectionResultLog.fileName) was written by an older LangBench without a header naming its configs and settings, so it cannot be checked",
            ])
        }
        var differences = header.differences(from: earlier)
        let configIndex = Dictionary(uniqueKeysWithValues: header.configs.enumerated().map { ($1.name, $0) })
        let loggedIDs = Set(logged.results.map(\.itemID))
        var found: [String: (position: Int, fingerprint: String)] = [:]
        found.reserveCapacity(loggedIDs.count)
        let cursor = try items.cursor()
        var position = 0
        while true {
            let batch = try cursor.next(4096)
            if batch.isEmpty { break }
            for item in batch {
                if loggedIDs.contains(item.id) { found[item.id] = (position, ItemFingerprint.of(item)) }
                position += 1
            }
        }
        var changed: [String] = [], missing: [String] = []
        var changedIDs = Set<String>(), missingIDs = Set<String>()
        for result in logged.results {
            guard let config = configIndex[result.config] else { continue }  // a removed config is a difference already
            guard let item = found[result.itemID] else {
                if missingIDs.insert(result.itemID).inserted { missing.append(result.itemID) }
                continue
            }
            if result.itemHash != item.fingerprint {
                if changedIDs.insert(result.itemID).inserted { changed.append(result.itemID) }
                continue
            }
            if results[config][item.position] == nil { results[config][item.position] = result }  // a duplicate line keeps the first
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
