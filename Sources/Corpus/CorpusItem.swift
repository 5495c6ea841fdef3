/// One labelled message: the unit every detection and generation result is keyed on.
public struct CorpusItem: Sendable, Hashable {
    /// Unique within a loaded corpus.
    public var id: String
    /// Gold language.
    public var lang: LanguageCode
    public var text: String
    /// The tags in a stable order, each once (kept sorted: output and hashing need this order, and a
    /// sorted array costs far less per item than a set).
    public private(set) var sortedTags: [String]
    /// Earlier turns of the conversation, oldest first (generation corpora only).
    public var history: [Turn]
    /// Where the item was read from, for error messages.
    public var source: SourceLocation

    public init(id: String, lang: LanguageCode, text: String, tags: Set<String> = [], history: [Turn] = [],
                source: SourceLocation = SourceLocation(file: "<memory>", line: 0)) {
        self.id = id
        self.lang = lang
        self.text = text
        sortedTags = tags.sorted()
        self.history = history
        self.source = source
    }

    /// An item whose tags are sorted and unique already (read back from the spool, or made so by
    /// `sortedUnique`).
    init(id: String, lang: LanguageCode, text: String, sortedTags: [String], history: [Turn], source: SourceLocation) {
        self.id = id
        self.lang = lang
        self.text = text
        self.sortedTags = sortedTags
        self.history = history
        self.source = source
    }

    public var tags: Set<String> {
        get { Set(sortedTags) }
        set { sortedTags = newValue.sorted() }
    }

    /// Whether the item carries `tag`.
    public func hasTag(_ tag: String) -> Bool { sortedTags.contains(tag) }

    /// `tags` sorted, each once.
    static func sortedUnique(_ tags: [String]) -> [String] {
        tags.count < 2 ? tags : Set(tags).sorted()
    }
}

/// One earlier turn of a conversation.
public struct Turn: Sendable, Hashable, Codable {
    /// Who spoke.
    public enum Role: String, Sendable, Codable { case user, assistant }
    public var role: Role
    public var text: String

    public init(role: Role, text: String) {
        self.role = role
        self.text = text
    }
}

/// A file and 1-based line number.
public struct SourceLocation: Sendable, Hashable, CustomStringConvertible {
    public var file: String
    public var line: Int

    public init(file: String, line: Int) {
        self.file = file
        self.line = line
    }

    public var description: String { "\(file):\(line)" }
}
