/// One thing wrong with a corpus file, reported as `file:line: message`.
package struct CorpusProblem: Sendable, Hashable, CustomStringConvertible {
    package var location: SourceLocation
    package var message: String

    package init(_ location: SourceLocation, _ message: String) {
        self.location = location
        self.message = message
    }

    package var description: String { "\(location): \(message)" }
}

/// Errors from reading corpora.
package enum CorpusError: Error, Sendable, CustomStringConvertible {
    /// Every problem found, in file and line order.
    case invalid([CorpusProblem])
    case unreadable(path: String, reason: String)
    case unknownFormat(path: String)
    case empty(paths: [String])

    package var description: String {
        switch self {
        case .invalid(let problems):
            let shown = problems.prefix(20).map(\.description).joined(separator: "\n")
            let more = problems.count > 20 ? "\n… and \(problems.count - 20) more (run 'langbench corpus validate' for all)" : ""
            return "the corpus has \(problems.count) problem(s):\n\(shown)\(more)"
        case .unreadable(let path, let reason):
            return "\(path): cannot read (\(reason))"
        case .unknownFormat(let path):
            return "\(path): unknown corpus format; use .tsv, .csv, .jsonl, a folder of <lang>.txt files, or pass --format"
        case .empty(let paths):
            return "no items in \(paths.joined(separator: ", "))"
        }
    }
}
