import Foundation

/// The reports found at a path given to `compare`: a run, detect or generate directory, or one of
/// their JSON files.
public struct RunResults: Sendable {
    public var path: String
    public var detection: DetectionReport?
    public var generation: GenerationReport?

    public static func load(_ path: String) throws -> RunResults {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw ConfigurationError.unreadable(path: path, reason: "no such file or directory")
        }
        var results = RunResults(path: path)
        if isDirectory.boolValue {
            let directory = URL(fileURLWithPath: path)
            if FileManager.default.fileExists(atPath: directory.appendingPathComponent(DetectionOutput.jsonFile).path) {
                results.detection = try DetectionOutput.read(path)
            }
            if FileManager.default.fileExists(atPath: directory.appendingPathComponent(GenerationOutput.jsonFile).path) {
                results.generation = try GenerationOutput.read(path)
            }
        } else if path.hasSuffix(DetectionOutput.jsonFile) {
            results.detection = try DetectionOutput.read(path)
        } else if path.hasSuffix(GenerationOutput.jsonFile) {
            results.generation = try GenerationOutput.read(path)
        }
        guard results.detection != nil || results.generation != nil else {
            throw ConfigurationError.invalid(path: path, reason: "no \(DetectionOutput.jsonFile) or \(GenerationOutput.jsonFile) here; pass a run, detect or generate output directory")
        }
        return results
    }
}
