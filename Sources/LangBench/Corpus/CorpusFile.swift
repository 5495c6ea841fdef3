import Foundation

/// One file to read, with what its path says about it (language and tag for `lines` layouts).
struct CorpusFile {
    var path: String
    var lang: String?
    var tag: String?
    var impliedFormat: CorpusFormat?

    /// README and other prose beside corpora are passed over, so `Corpora/*` validates as a whole.
    var isDocumentation: Bool {
        let name = (path as NSString).lastPathComponent
        return name.hasPrefix(".") || ["md", "markdown", "license"].contains((name as NSString).pathExtension.lowercased())
            || name.uppercased().hasPrefix("LICENSE")
    }
}

extension CorpusLoader {
    /// Expands a path into files: a folder becomes its `.txt` files in a `lines` layout.
    static func expand(_ path: String) throws -> [CorpusFile] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw CorpusError.unreadable(path: path, reason: "no such file or directory")
        }
        guard isDirectory.boolValue else {
            if (path as NSString).pathExtension.lowercased() == "txt" {
                return [CorpusFile(path: path, lang: stem(path), tag: nil, impliedFormat: .lines)]
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
                        ? CorpusFile(path: file, lang: entry, tag: stem(leaf), impliedFormat: .lines)
                        : CorpusFile(path: file, lang: stem(leaf), tag: entry, impliedFormat: .lines))
                }
            } else if entry.hasSuffix(".txt") {
                files.append(CorpusFile(path: child, lang: stem(entry), tag: nil, impliedFormat: .lines))
            }
        }
        return files
    }

    private static func sortedEntries(_ url: URL) throws -> [String] {
        do {
            return try FileManager.default.contentsOfDirectory(atPath: url.path).filter { !$0.hasPrefix(".") }.sorted()
        } catch {
            throw CorpusError.unreadable(path: url.path, reason: (error as NSError).localizedDescription)
        }
    }

    private static func stem(_ path: String) -> String {
        ((path as NSString).lastPathComponent as NSString).deletingPathExtension
    }
}
