import BenchSupport
import Foundation

/// Reads corpus files of any supported format into one `Corpus`, checking every item.
public struct CorpusLoader: Sendable {
    /// Forces a format instead of detecting it.
    public var format: CorpusFormat?

    public init(format: CorpusFormat? = nil) {
        self.format = format
    }

    /// Everything a validation pass learns: the items that are fine, and every problem.
    public struct Outcome: Sendable {
        public var corpus: Corpus
        public var problems: [CorpusProblem]
        /// Paths that were passed over (documentation files), for a note to the user.
        public var skippedPaths: [String]
        /// Rows a format defines as skippable (Tatoeba's undetermined language).
        public var skippedRows: Int
    }

    /// Loads `paths`, throwing `CorpusError.invalid` with every problem when there are any.
    public func load(_ paths: [String]) throws -> Corpus {
        let outcome = try read(paths)
        if !outcome.problems.isEmpty { throw CorpusError.invalid(outcome.problems) }
        if outcome.corpus.items.isEmpty { throw CorpusError.empty(paths: paths) }
        return outcome.corpus
    }

    /// Reads `paths` and reports problems instead of throwing on them. Throws only when a path cannot
    /// be read at all or its format is unknown.
    public func read(_ paths: [String]) throws -> Outcome {
        var items: [CorpusItem] = []
        var sources: [CorpusSource] = []
        var problems: [CorpusProblem] = []
        var skippedPaths: [String] = []
        var skippedRows = 0
        var codes = ItemValidator.CodeCache()
        for path in paths {
            for file in try Self.expand(path) {
                if file.isDocumentation { skippedPaths.append(file.path); continue }
                let data: Data
                do {
                    // A FIFO or a device would block or never end (and Foundation calls that a permission problem).
                    let target = URL(fileURLWithPath: file.path).resolvingSymlinksInPath().path
                    let type = try FileManager.default.attributesOfItem(atPath: target)[.type] as? FileAttributeType
                    guard type == .typeRegular else {
                        throw CorpusError.unreadable(path: file.path, reason: "not a regular file (\(type?.rawValue ?? "unknown type")); pass a corpus file or folder")
                    }
                    data = try Data(contentsOf: URL(fileURLWithPath: file.path))
                } catch let error as CorpusError {
                    throw error
                } catch {
                    throw CorpusError.unreadable(path: file.path, reason: (error as NSError).localizedDescription)
                }
                let lines = TextLines(data: data)
                guard let format = format ?? file.impliedFormat ?? CorpusFormat.detect(
                    at: URL(fileURLWithPath: file.path), firstLine: lines.lines.first?.text) else {
                    throw CorpusError.unknownFormat(path: file.path)
                }
                problems += lines.invalidUTF8.map { CorpusProblem(SourceLocation(file: file.path, line: $0), "invalid UTF-8") }
                var result: FileReadResult
                var skipped = 0
                switch format {
                case .tsv, .csv: result = DelimitedReader.read(lines: lines.lines, file: file.path, format: format)
                case .jsonl: result = JSONLReader.read(lines: lines.lines, file: file.path)
                case .lines: result = LinesReader.read(lines: lines.lines, file: file.path, idPrefix: file.idPrefix ?? file.path, lang: file.lang ?? "", tag: file.tag)
                case .tatoeba: (result, skipped) = TatoebaReader.read(lines: lines.lines, file: file.path)
                }
                skippedRows += skipped
                // A file that holds nothing is a mistake (a wrong path, a truncated export), not "ok: 0 items".
                if result.records.isEmpty && result.problems.isEmpty && lines.invalidUTF8.isEmpty && skipped == 0 {
                    let what = lines.lines.contains { !$0.text.trimmingCharacters(in: .whitespaces).isEmpty } ? "a header but no items" : "no items (empty file)"
                    result.problems.append(CorpusProblem(SourceLocation(file: file.path, line: 1), what))
                }
                problems += result.problems
                let before = items.count
                for record in result.records {
                    if let item = ItemValidator.validate(record, problems: &problems, codes: &codes) { items.append(item) }
                }
                sources.append(CorpusSource(path: file.path, format: format, sha256: SHA256.hex(data), items: items.count - before))
            }
        }
        let duplicates = Self.duplicateIDs(items)
        if !duplicates.isEmpty {
            problems += duplicates
            items = Self.removingDuplicates(items)
        }
        problems.sort { ($0.location.file, $0.location.line) < ($1.location.file, $1.location.line) }
        return Outcome(corpus: Corpus(items: items, sources: sources), problems: problems,
                       skippedPaths: skippedPaths, skippedRows: skippedRows)
    }

    private static func duplicateIDs(_ items: [CorpusItem]) -> [CorpusProblem] {
        // Proving there are none needs only the ids; where each was first seen is looked up only when
        // there is a duplicate to report.
        var seen = Set<String>(minimumCapacity: items.count)
        guard items.contains(where: { !seen.insert($0.id).inserted }) else { return [] }
        var first: [String: SourceLocation] = [:]
        var problems: [CorpusProblem] = []
        for item in items {
            if let earlier = first[item.id] {
                problems.append(CorpusProblem(item.source, "duplicate id '\(item.id)' (first at \(earlier))"))
            } else {
                first[item.id] = item.source
            }
        }
        return problems
    }

    private static func removingDuplicates(_ items: [CorpusItem]) -> [CorpusItem] {
        var seen = Set<String>()
        return items.filter { seen.insert($0.id).inserted }
    }
}
