import Support
import Foundation
import Corpus
import ByteIO

/// What a generation run measured with — its settings and a hash of every item's content — written
/// when the run starts, so `--resume` refuses (65) to mix in records made with other settings or for
/// other text under the same id, naming every difference.
package struct ResumeManifest: Sendable, Codable, Equatable {
    package static let file = "generation-resume.json"
    package static let schemaVersion = 1

    package var schemaVersion: Int
    package var settings: GenerationReport.Settings
    /// Item id → SHA-256 of its language, text and history.
    package var items: [String: String]

    enum CodingKeys: String, CodingKey { case schemaVersion = "schema_version", settings, items }

    package init(settings: GenerationReport.Settings, items: [CorpusItem]) {
        schemaVersion = Self.schemaVersion
        self.settings = settings
        self.items = Dictionary(items.map { ($0.id, Self.hash($0)) }, uniquingKeysWith: { a, _ in a })
    }

    static func hash(_ item: CorpusItem) -> String {
        var text = "\(item.lang.identifier)\u{1F}\(item.text)"
        for turn in item.history { text += "\u{1E}\(turn.role.rawValue)\u{1F}\(turn.text)" }
        return SHA256.hex(Data(text.utf8))
    }

    /// Server facts that change from one launch to the next without changing what is measured.
    static let volatileSettings: Set<String> = ["server.url", "server.props_error", "server.model_sha256_error", "server.server_binary_sha256_error"]

    /// Every difference between what the recorded results were made with (`self`) and what the run
    /// about to resume uses, for items that have records; empty when resuming is sound.
    package func differences(from current: ResumeManifest, recorded: Set<String>) -> [String] {
        var out = Self.differences(settings, current.settings)
        let changed = recorded.filter { id in items[id].map { $0 != current.items[id] && current.items[id] != nil } ?? false }.sorted()
        if !changed.isEmpty {
            let shown = changed.prefix(5).map { "'\($0)'" }.joined(separator: ", ")
            out.append("\(changed.count) item(s) changed text, language or history under the same id (\(shown)\(changed.count > 5 ? ", …" : ""))")
        }
        return out
    }

    /// Every setting that differs between two runs, as `sampling.seed: 1 → 2`, in key order; facts that change
    /// from one launch to the next (`volatileSettings`) and a server fact missing on one side are not differences.
    package static func differences(_ before: GenerationReport.Settings, _ after: GenerationReport.Settings) -> [String] {
        let (before, after) = (flatten(before), flatten(after))
        return Set(before.keys).union(after.keys).subtracting(volatileSettings).sorted().compactMap { key in
            guard before[key] != after[key] else { return nil }
            // A server fact missing on one side is a failed /props query, not a different server; a judge missing on
            // one side is a run recorded before judges were.
            if key.hasPrefix("server.") || key == "judge", before[key] == nil || after[key] == nil { return nil }
            return "\(key): \(before[key] ?? "absent") → \(after[key] ?? "absent")"
        }
    }

    /// `sampling.seed` → `5`, `variants[1].name` → `native`: every leaf of the settings' JSON form, so two
    /// runs compare key by key whatever order a dictionary kept its keys in.
    static func flatten(_ settings: GenerationReport.Settings) -> [String: String] {
        // try?: Settings always encodes (plain values); an empty map would only hide nothing.
        guard let data = try? JSONEncoder().encode(settings), let object = try? JSONSerialization.jsonObject(with: data) else { return [:] }
        var out: [String: String] = [:]
        func walk(_ value: Any, _ path: String) {
            if let object = value as? [String: Any] {
                for (key, child) in object { walk(child, path.isEmpty ? key : "\(path).\(key)") }
            } else if let array = value as? [Any] {
                // A list of plain values reads as one (`candidates: ru,uk`); a list of objects (variants) leaf by leaf,
                // never through a dictionary's description, whose key order changes from process to process.
                if array.allSatisfy({ !($0 is [String: Any]) && !($0 is [Any]) }) {
                    out[path] = array.map { "\($0)" }.joined(separator: ",")
                } else {
                    for (index, element) in array.enumerated() { walk(element, "\(path)[\(index)]") }
                }
            } else {
                out[path] = "\(value)"
            }
        }
        walk(object, "")
        return out
    }

    /// Checks a resume in `directory` against `current`: refuses when settings or recorded items differ,
    /// or when records exist without a manifest (made by a LangBench that did not write one).
    package static func check(_ current: ResumeManifest, directory: URL, recorded: Set<String>) throws {
        let url = directory.appendingPathComponent(file)
        guard FileManager.default.fileExists(atPath: url.path) else {
            if recorded.isEmpty { return }
            throw ConfigurationError.invalid(path: url.path, reason: "missing: the \(recorded.count) recorded item(s) cannot be checked against this run's settings; run again without --resume")
        }
        let before = try StrictJSON.load(ResumeManifest.self, from: url.path)
        let differences = before.differences(from: current, recorded: recorded)
        guard differences.isEmpty else {
            throw ConfigurationError.invalid(path: directory.path, reason: "--resume would mix results made differently: "
                + differences.joined(separator: "; ") + "; run again without --resume, or resume with the original settings and corpus")
        }
    }

    package func write(to directory: URL) throws {
        try AtomicFile.write(try JSONOutput.encode(self), to: directory.appendingPathComponent(Self.file))
    }
}
