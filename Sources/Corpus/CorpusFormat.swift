import Foundation

/// The on-disk layouts LangBench reads. Detected from extension and header; `--format` overrides.
public enum CorpusFormat: String, Sendable, Codable, CaseIterable {
    /// Tab-separated with a header naming `id`, `lang`, `text` and optionally `tags`, `history`.
    case tsv
    /// RFC 4180 comma-separated with the same header; quoted cells may hold newlines.
    case csv
    /// One JSON object per line: `{"id","lang","text","tags":[…],"history":[{"role","text"}]}`.
    case jsonl
    /// One phrase per line in `<lang>.txt`, in a folder of them, or lingua's
    /// `<lang>/{single-words,word-pairs,sentences}.txt` (the file stem becomes a tag).
    case lines
    /// Tatoeba's `sentences.csv` export: `id<TAB>ISO 639-3<TAB>text`, no header.
    case tatoeba

    /// Guesses the format of `url` from its extension, kind and first line.
    package static func detect(at url: URL, firstLine: String?) -> CorpusFormat? {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue {
            return .lines
        }
        switch url.pathExtension.lowercased() {
        case "tsv", "tab": return .tsv
        case "jsonl", "ndjson": return .jsonl
        case "txt": return .lines
        case "csv":
            if let firstLine, looksLikeTatoeba(firstLine) { return .tatoeba }
            return .csv
        default: return nil
        }
    }

    static func looksLikeTatoeba(_ line: String) -> Bool {
        let fields = line.split(separator: "\t", maxSplits: 2, omittingEmptySubsequences: false)
        return fields.count == 3 && !fields[0].isEmpty && fields[0].allSatisfy(\.isNumber)
    }
}
