import Support
import Detection
import Foundation
import Generation

/// The reports found at a path given to `compare`: a run, detect or generate directory, or one of
/// their JSON files.
package struct RunResults: Sendable {
    package var path: String
    package var detection: DetectionReport?
    /// The detection run's per-item results, streamed from its results log by `compare` and `merge`.
    package var detectionStore: DetectionStore?
    package var generation: GenerationReport?

    package static func load(_ path: String) throws -> RunResults {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw ConfigurationError.unreadable(path: path, reason: "no such file or directory")
        }
        var results = RunResults(path: path)
        if isDirectory.boolValue {
            let directory = URL(fileURLWithPath: path)
            if FileManager.default.fileExists(atPath: directory.appendingPathComponent(DetectionOutput.jsonFile).path) {
                try results.loadDetection(path)
            }
            if FileManager.default.fileExists(atPath: directory.appendingPathComponent(GenerationOutput.jsonFile).path) {
                results.generation = try GenerationOutput.read(path)
            }
        } else if path.hasSuffix(DetectionOutput.jsonFile) {
            try results.loadDetection(path)
        } else if path.hasSuffix(GenerationOutput.jsonFile) {
            results.generation = try GenerationOutput.read(path)
        }
        guard results.detection != nil || results.generation != nil else {
            throw ConfigurationError.invalid(path: path, reason: "no \(DetectionOutput.jsonFile) or \(GenerationOutput.jsonFile) here; pass a run, detect or generate output directory")
        }
        return results
    }

    private mutating func loadDetection(_ path: String) throws {
        let store = try DetectionStore(path)
        detection = store.report
        detectionStore = store
    }

    /// The detection run's per-item results in canonical order, all in memory (for small runs and
    /// tests; `compare` and `merge` stream them from `detectionStore`).
    package var detectionResults: [DetectionResult] {
        get throws { try detectionStore?.allResults() ?? [] }
    }
}
