import Foundation
/// A set of loaded items and the files they came from.
public struct Corpus: Sendable {
    public var items: [CorpusItem]
    public var sources: [CorpusSource]
    /// The slice of the sources these items are, when sharded.
    public var shard: Shard?

    public init(items: [CorpusItem], sources: [CorpusSource], shard: Shard? = nil) {
        self.items = items
        self.sources = sources
        self.shard = shard
    }

    /// Gold languages present, sorted.
    public var languages: [LanguageCode] {
        Array(Set(items.map(\.lang))).sorted()
    }
}

/// A file that fed a corpus, with the facts a report needs to prove what was measured.
public struct CorpusSource: Sendable, Hashable, Codable {
    public var path: String
    public var format: CorpusFormat
    public var sha256: String
    public var items: Int
    /// The packages a built corpus was made from (`SOURCES.tsv` beside the file: the outside corpus); nil for a written one.
    public var packages: [SourcePackage]?

    public init(path: String, format: CorpusFormat, sha256: String, items: Int, packages: [SourcePackage]? = nil) {
        self.path = path
        self.format = format
        self.sha256 = sha256
        self.items = items
        self.packages = packages
    }
}

/// A package a built corpus's text came from, as its set-up recorded it.
public struct SourcePackage: Sendable, Hashable, Codable {
    public var name: String
    public var version: String
    public var sha256: String

    /// The file set-up writes beside a built corpus: `package<TAB>version<TAB>sha256` rows after a header.
    public static let listFile = "SOURCES.tsv"

    /// The packages listed beside `corpus` (nil when there is no list: a corpus written by hand).
    public static func listed(beside corpus: String) -> [SourcePackage]? {
        let list = (corpus as NSString).deletingLastPathComponent + "/" + listFile
        guard let text = try? String(contentsOfFile: list, encoding: .utf8) else { return nil }  // no list: not a built corpus
        let rows = text.split(whereSeparator: \.isNewline).dropFirst().map { $0.split(separator: "\t", omittingEmptySubsequences: false) }
        let packages = rows.filter { $0.count == 3 && $0[0] != "items" }.map { SourcePackage(name: String($0[0]), version: String($0[1]), sha256: String($0[2])) }
        return packages.isEmpty ? nil : packages
    }
}
