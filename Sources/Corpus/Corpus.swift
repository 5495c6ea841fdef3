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

    public init(path: String, format: CorpusFormat, sha256: String, items: Int) {
        self.path = path
        self.format = format
        self.sha256 = sha256
        self.items = items
    }
}
