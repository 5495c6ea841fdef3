/// One labelled message: the unit every detection and generation result is keyed on.
public struct CorpusItem: Sendable, Hashable {
    /// Unique within a loaded corpus.
    public var id: String
    /// Gold language.
    public var lang: LanguageCode
    public var text: String
    public var tags: Set<String>
    /// Earlier turns of the conversation, oldest first (generation corpora only).
    public var history: [Turn]
    /// Where the item was read from, for error messages.
    public var source: SourceLocation

    public init(id: String, lang: LanguageCode, text: String, tags: Set<String> = [], history: [Turn] = [],
                source: SourceLocation = SourceLocation(file: "<memory>", line: 0)) {
        self.id = id
        self.lang = lang
        self.text = text
        self.tags = tags
        self.history = history
        self.source = source
    }

    /// Tags in a stable order, for output.
    public var sortedTags: [String] { tags.sorted() }
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
