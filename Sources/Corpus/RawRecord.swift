/// A record as read from a file, before validation turns it into a `CorpusItem`.
struct RawRecord {
    var location: SourceLocation
    var id: String?
    var lang: String?
    var text: String?
    var tags: [String] = []
    /// History as the JSON text of an array of `{"role","text"}` turns.
    var historyJSON: String?
    /// Already-decoded history (JSONL).
    var history: [Turn]?
}

/// The outcome of reading one file: records and the problems met on the way.
struct FileReadResult {
    var records: [RawRecord] = []
    var problems: [CorpusProblem] = []
}
