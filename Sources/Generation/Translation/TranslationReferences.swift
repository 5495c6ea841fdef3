import Support
import Foundation

/// English references for a corpus's messages, beside the corpus rather than in it (so the corpus, and every
/// comparison against reports of it, stays the same): a TSV of `id` and `reference_en`, written by hand. The
/// pivot's translate-in output is scored against them (`ChrF`).
package struct TranslationReferences: Sendable, Hashable {
    package var path: String
    /// Reference text by item id.
    package var byItem: [String: String]

    package init(path: String, byItem: [String: String]) {
        self.path = path
        self.byItem = byItem
    }

    /// Reads `path`; every problem names the file and line. `items` (the corpus's ids) must hold every id; nil for a
    /// shard of the corpus, which holds only some of them (the whole corpus's run checks them).
    package static func load(_ path: String, items: Set<String>?) throws -> TranslationReferences {
        let text: String
        if let kind = FileKind.notRegular(path) { throw ConfigurationError.unreadable(path: path, reason: "\(kind); pass a references TSV file") }
        do { text = try String(contentsOfFile: path, encoding: .utf8) } catch {
            throw ConfigurationError.unreadable(path: path, reason: FileKind.reason(error, path: path))
        }
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { $0.hasSuffix("\r") ? $0.dropLast() : $0 }
        if lines.last?.isEmpty == true { lines.removeLast() }
        guard lines.first == "id\treference_en" else {
            throw ConfigurationError.invalid(path: "\(path):1", reason: "the header must be id<TAB>reference_en")
        }
        var byItem: [String: String] = [:]
        for (index, line) in lines.enumerated().dropFirst() where !line.isEmpty {
            let at = "\(path):\(index + 1)"
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard fields.count == 2 else { throw ConfigurationError.invalid(path: at, reason: "expected 2 tab-separated fields (id, reference_en), found \(fields.count)") }
            let (id, reference) = (fields[0], fields[1].trimmingCharacters(in: .whitespaces))
            guard !reference.isEmpty else { throw ConfigurationError.invalid(path: at, reason: "item \(id) has an empty reference") }
            guard byItem[id] == nil else { throw ConfigurationError.invalid(path: at, reason: "item \(id) has a second reference") }
            guard items?.contains(id) ?? true else { throw ConfigurationError.invalid(path: at, reason: "no item \(id) in the generation corpus") }
            byItem[id] = reference
        }
        return TranslationReferences(path: path, byItem: byItem)
    }
}
