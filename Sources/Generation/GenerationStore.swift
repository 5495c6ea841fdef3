import BenchSupport
import Foundation
import Items
import Synchronization

/// The per-item logs of a generation run (records, diagnostics, replies): opened fresh or resumed, appended to as outputs are produced,
/// read back; a merge writes them from its shards.
public final class GenerationStore: Sendable {
    /// The records a resumed run found in the log (none on a fresh run).
    public let kept: [GenerationRecord]
    private let records: JSONLinesLog<GenerationRecord>
    private let diagnostics: JSONLinesLog<DiagnosticEvent>
    private let replies: JSONLinesLog<ReplyRecord>?
    /// Records appended by this run.
    private let appended = Mutex(0)

    /// Opens the logs in `directory`. Resuming keeps them: the records are checked against `manifest`
    /// (`ResumeManifest.check`) and every log's torn last line is truncated away; a fresh run removes them.
    /// Either way a report in the directory is removed (a directory holds one only once its run has
    /// finished), and `manifest` is written unless a resumed run already has one.
    public init(directory: URL, manifest: ResumeManifest, resume: Bool, writeReplies: Bool) throws {
        let recordsURL = directory.appendingPathComponent(GenerationOutput.recordsLog)
        let diagnosticsURL = directory.appendingPathComponent(GenerationOutput.diagnosticsFile)
        let repliesURL = directory.appendingPathComponent(GenerationOutput.repliesFile)
        kept = resume ? try Self.readRecords(recordsURL, repair: true) : []
        if resume {
            try ResumeManifest.check(manifest, directory: directory, recorded: Set(kept.map(\.itemID)))
            _ = try JSONLinesLog<DiagnosticEvent>.read(diagnosticsURL, repair: true)
            if writeReplies { _ = try JSONLinesLog<ReplyRecord>.read(repliesURL, repair: true) }
        }
        let stale = (resume ? [] : [recordsURL, diagnosticsURL, repliesURL]) + GenerationOutput.reportFiles.map(directory.appendingPathComponent)
        for url in stale where FileManager.default.fileExists(atPath: url.path) {
            try ReportError.writing(url) { try FileManager.default.removeItem(at: url) }
        }
        if !resume || !FileManager.default.fileExists(atPath: directory.appendingPathComponent(ResumeManifest.file).path) {
            try manifest.write(to: directory)
        }
        records = try JSONLinesLog(url: recordsURL)
        diagnostics = try JSONLinesLog(url: diagnosticsURL)
        replies = writeReplies ? try JSONLinesLog(url: repliesURL) : nil
    }

    /// The records the log holds: those kept plus those this run appended.
    public var recorded: Int { kept.count + appended.withLock { $0 } }

    /// Every record the log holds, read back from it (what a finished run reports).
    public func read() throws -> [GenerationRecord] {
        try Self.readRecords(records.url)
    }

    /// Appends an output to the logs, the record first (resume redoes what has no record, so a kill between
    /// these writes can lose an item's diagnostics or reply line but never write them twice).
    public func append(_ output: ReplyPipeline.Output) throws {
        let record = output.record
        try records.append(record)
        appended.withLock { $0 += 1 }
        for event in output.events { try diagnostics.append(event) }
        try replies?.append(ReplyRecord(itemID: record.itemID, variant: record.variant, config: record.config, route: record.route, repeatIndex: record.repeatIndex,
                                        lang: record.lang.identifier, outcome: record.outcome, reply: output.reply))
    }

    /// The records of the log in `directory` (none without one), its torn last line truncated away.
    public static func records(in directory: URL) throws -> [GenerationRecord] {
        try readRecords(directory.appendingPathComponent(GenerationOutput.recordsLog), repair: true)
    }

    /// The records of the finished run whose report is `json`, from the log beside it, in canonical order.
    /// Refuses a missing log, or one holding other than the records the report counts (an emptied or cut
    /// log would otherwise read as a run of fewer items). Reads only: a copied run may be read-only.
    public static func records(of report: GenerationReport, json: URL) throws -> [GenerationRecord] {
        let log = json.deletingLastPathComponent().appendingPathComponent(GenerationOutput.recordsLog)
        guard FileManager.default.fileExists(atPath: log.path) else {
            throw ConfigurationError.invalid(path: log.path, reason: "the per-item records of \(json.path) are missing; copy the whole run directory")
        }
        let records = ordered(try readRecords(log)), expected = report.countedRecords
        guard records.count == expected else {
            let why = records.count < expected ? "the log was emptied or cut short" : "the log is not this report's"
            throw ConfigurationError.invalid(path: log.path, reason: "holds \(records.count) records, but \(GenerationOutput.jsonFile) counts \(expected): "
                                             + "\(why); copy the whole run directory, or run it again")
        }
        return records
    }

    /// The records of the log at `url`, each checked: a figure no request can have (a negative or non-finite time,
    /// a negative count) or two different records under one key are refused (65) naming the line(s); keeping
    /// the first of two, or averaging in a negative time, would be a silent choice. An identical duplicate is harmless.
    static func readRecords(_ url: URL, repair: Bool = false) throws -> [GenerationRecord] {
        guard FileManager.default.fileExists(atPath: url.path) else { return [] }
        if repair { _ = try JSONLines.truncateTornLine(of: url) }
        var records: [GenerationRecord] = []
        var lineOf: [String: (line: Int, index: Int)] = [:]
        let decoder = JSONDecoder(), lines = try LogLines(url)
        while let text = try lines.next() {
            let record: GenerationRecord
            do { record = try decoder.decode(GenerationRecord.self, from: Data(text)) } catch {
                throw ConfigurationError.invalid(path: url.path, reason: "line \(lines.lineNumber) is not a valid record (\(JSONErrorText.describe(error)))")
            }
            if let problem = record.impossibleFigure {
                throw ConfigurationError.invalid(path: url.path, reason: "line \(lines.lineNumber): \(problem); no request measures that, so the log was edited or damaged")
            }
            if let first = lineOf[record.key] {
                guard records[first.index] == record else {
                    throw ConfigurationError.invalid(path: url.path, reason: "lines \(first.line) and \(lines.lineNumber) hold different records of \(record.keyDescription): "
                                                     + "the log was edited or written by two runs; remove the wrong line, or run again without --resume")
                }
                continue
            }
            lineOf[record.key] = (lines.lineNumber, records.count)
            records.append(record)
        }
        return records
    }

    /// The canonical order of records: item id, variant, config (the reference's first), route, repeat (so resumed and
    /// merged runs equal uninterrupted ones). Records of items outside `items` (when given) are dropped; duplicates keep the first.
    public static func ordered(_ records: [GenerationRecord], items: Set<String>? = nil) -> [GenerationRecord] {
        var seen = Set<String>()
        return records.filter { (items?.contains($0.itemID) ?? true) && seen.insert($0.key).inserted }
            .sorted { ($0.itemID, $0.variant ?? "", $0.config ?? "", $0.route, $0.repeatIndex) < ($1.itemID, $1.variant ?? "", $1.config ?? "", $1.route, $1.repeatIndex) }
    }

    /// Replaces the records log with `reported` when the run's report leaves some of the log's out (records
    /// of items a resumed run's corpus no longer has): a finished run's log holds its report's records.
    public func finish(with reported: [GenerationRecord]) throws {
        guard reported.count != recorded else { return }
        try Self.write(reported, to: records.url.deletingLastPathComponent())
    }

    /// Writes `records` as the records log of `directory`, replacing any (a merge's, or a finished run's).
    public static func write(_ records: [GenerationRecord], to directory: URL) throws {
        try AtomicFile.write(try records.map(JSONOutput.line).joined(), to: directory.appendingPathComponent(GenerationOutput.recordsLog))
    }

    /// The replies in `directory` (none without its replies log).
    public static func replies(in directory: URL) throws -> [ReplyRecord] {
        try JSONLinesLog<ReplyRecord>.read(directory.appendingPathComponent(GenerationOutput.repliesFile))
    }

    /// Writes the diagnostics and replies logs of the shard `directories`, each concatenated in their order
    /// (skipping shards without it), into `output`. The merged records are written whole (`write`): a
    /// shard's may come from its report.
    public static func concatenate(_ directories: [URL], into output: URL) throws {
        for file in [GenerationOutput.diagnosticsFile, GenerationOutput.repliesFile] {
            var data = Data()
            for directory in directories {
                let url = directory.appendingPathComponent(file)
                guard FileManager.default.fileExists(atPath: url.path) else { continue }
                data.append(try ReportError.reading(url) { try Data(contentsOf: url) })
            }
            if !data.isEmpty { try AtomicFile.write(data, to: output.appendingPathComponent(file)) }
        }
    }
}
