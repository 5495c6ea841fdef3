import Foundation
import Support

/// One file to read, with what its path says about it (language and tag for `lines` layouts).
struct CorpusFile {
    var path: String
    var lang: String?
    var tag: String?
    var impliedFormat: CorpusFormat?
    /// What `lines` item ids start with: the path below the folder given (or the file name), never the
    /// path as typed, so `ru.txt` and `/abs/ru.txt` give the same ids and runs of them compare.
    var idPrefix: String?

    /// README and other prose beside corpora, and the files that describe a corpus rather than hold items (a
    /// generation corpus's `*.references.tsv`, an import's `*.ambiguous.tsv` and `SOURCES.tsv`), are passed over, so
    /// `Corpora/*` validates as a whole.
    var isDocumentation: Bool {
        let name = (path as NSString).lastPathComponent
        return name.hasPrefix(".") || ["md", "markdown", "license"].contains((name as NSString).pathExtension.lowercased())
            || name.uppercased().hasPrefix("LICENSE") || name == "SOURCES.tsv"
            || [".references.tsv", ".ambiguous.tsv"].contains { name.hasSuffix($0) }
    }
}

extension CorpusLoader {
    /// Expands a path into files: a folder becomes its `.txt` files in a `lines` layout and its other
    /// files (tsv, csv, jsonl…) in their own formats.
    static func expand(_ path: String) throws -> [CorpusFile] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw CorpusError.unreadable(path: path, reason: "no such file or directory")
        }
        guard isDirectory.boolValue else {
            if (path as NSString).pathExtension.lowercased() == "txt" {
                return [CorpusFile(path: path, lang: stem(path), tag: nil, impliedFormat: .lines, idPrefix: (path as NSString).lastPathComponent)]
            }
            return [CorpusFile(path: path)]
        }
        var files: [CorpusFile] = []
        let root = URL(fileURLWithPath: path)
        for entry in try sortedEntries(root) {
            let child = (path as NSString).appendingPathComponent(entry)
            var childIsDirectory: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: child, isDirectory: &childIsDirectory)
            if childIsDirectory.boolValue {
                // lingua: <lang>/<slice>.txt, or the transposed <slice>/<lang>.txt
                let folderIsLanguage = (try? LanguageCode(entry)) != nil  // a name that is not a code is a slice name
                for leaf in try sortedEntries(URL(fileURLWithPath: child)) where leaf.hasSuffix(".txt") {
                    let file = (child as NSString).appendingPathComponent(leaf)
                    files.append(folderIsLanguage
                        ? CorpusFile(path: file, lang: entry, tag: stem(leaf), impliedFormat: .lines, idPrefix: "\(entry)/\(leaf)")
                        : CorpusFile(path: file, lang: stem(leaf), tag: entry, impliedFormat: .lines, idPrefix: "\(entry)/\(leaf)"))
                }
            } else if entry.hasSuffix(".txt") {
                files.append(CorpusFile(path: child, lang: stem(entry), tag: nil, impliedFormat: .lines, idPrefix: entry))
            } else {
                // Every other file is read in the format its extension names, or refused as unknown
                // (documentation is passed over by the loader): never skipped silently.
                files.append(CorpusFile(path: child))
            }
        }
        return files
    }

    private static func sortedEntries(_ url: URL) throws -> [String] {
        do {
            return try FileManager.default.contentsOfDirectory(atPath: url.path).filter { !$0.hasPrefix(".") }.sorted()
        } catch {
            throw CorpusError.unreadable(path: url.path, reason: FileKind.reason(error, path: url.path))
        }
    }

    private static func stem(_ path: String) -> String {
        ((path as NSString).lastPathComponent as NSString).deletingPathExtension
    }
}
