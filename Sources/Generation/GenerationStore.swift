import Support
import Foundation
import Corpus
import ByteIO
import Synchronization

/// The per-item logs of a generation run (records, diagnostics, replies): opened fresh or resumed, appended to
/// as outputs are produced, and read back through a cursor in canonical order, which is what the report is
/// built from — the records live once, in the log. A merge writes the log from its shards; a finished run's
/// is read through a `Reader`.
package final class GenerationStore: Sendable {
    /// The records a resumed run found in the log (none on a fresh run).
    package let kept: [GenerationRecord]
    private let records: JSONLinesLog<GenerationRecord>
    private let diagnostics: JSONLinesLog<DiagnosticEvent>
    private let replies: JSONLinesLog<ReplyRecord>?
    /// Records appended by this run.
    private let appended = Mutex(0)

    /// Opens the logs in `directory`. Resuming keeps them: the records are checked against `manifest`
    /// (`ResumeManifest.check`) and every log's torn last line is truncated away; records of items the
    /// corpus no longer has are removed from the log then, so that it holds this run's records only. A
    /// fresh run removes the logs. Either way a report in the directory is removed (a directory holds one
    /// only once its run has finished), and `manifest` is written unless a resumed run already has one.
    package init(directory: URL, manifest: ResumeManifest, resume: Bool, writeReplies: Bool) throws {
        let recordsURL = directory.appendingPathComponent(GenerationOutput.recordsLog)
        let diagnosticsURL = directory.appendingPathComponent(GenerationOutput.diagnosticsFile)
        let repliesURL = directory.appendingPathComponent(GenerationOutput.repliesFile)
        let logged = resume ? try Self.readRecords(recordsURL, repair: true) : []
        kept = logged.filter { manifest.items[$0.itemID] != nil }
        if resume {
            try ResumeManifest.check(manifest, directory: directory, recorded: Set(kept.map(\.itemID)))
            if kept.count < logged.count { try Self.write(kept, to: directory) }
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
    package var recorded: Int { kept.count + appended.withLock { $0 } }

    /// A pass over every record the log holds, in canonical order (what a finished run reports).
    package func cursor() throws -> Cursor {
        Cursor(Self.ordered(try Self.readRecords(records.url)))
    }

    /// Appends an output to the logs, the record first (resume redoes what has no record, so a kill between
    /// these writes can lose an item's diagnostics or reply line but never write them twice).
    package func append(_ output: ReplyPipeline.Output) throws {
        let record = output.record
        try records.append(record)
        appended.withLock { $0 += 1 }
        for event in output.events { try diagnostics.append(event) }
        try replies?.append(ReplyRecord(itemID: record.itemID, variant: record.variant, config: record.config, route: record.route, repeatIndex: record.repeatIndex,
                                        lang: record.lang.identifier, outcome: record.outcome, reply: output.reply))
    }

    /// The records of the log in `directory` (none without one), its torn last line truncated away.
    package static func records(in directory: URL) throws -> [GenerationRecord] {
        try readRecords(directory.appendingPathComponent(GenerationOutput.recordsLog), repair: true)
    }

    /// Closes the store: every record was written through as it was appended. Returns how many the log holds.
    package func finish() throws -> Int { recorded }

    /// One pass over a store's records in canonical order. A generation run is small (a request per record
    /// takes a good part of a second), so its records are read and ordered at once.
    package final class Cursor: ResultCursor {
        private let records: [GenerationRecord]
        private var index = 0

        init(_ records: [GenerationRecord]) { self.records = records }

        package func next() throws -> GenerationRecord? {
            guard index < records.count else { return nil }
            index += 1
            return records[index - 1]
        }
    }

    /// The records log of a finished run, read only (a copied run may be read-only): refused when missing, or
    /// holding other than the records its report counts (an emptied or cut log would otherwise read as a
    /// run of fewer items).
    package struct Reader {
        package let log: URL
        package let json: URL
        package let expected: Int

        /// The log beside `json`, the report of `report`.
        package init(of report: GenerationReport, json: URL) throws {
            log = json.deletingLastPathComponent().appendingPathComponent(GenerationOutput.recordsLog)
            self.json = json
            expected = report.countedRecords
            guard FileManager.default.fileExists(atPath: log.path) else {
                throw DamagedLog(path: log.path, reason: "the per-item records of \(json.path) are missing; copy the whole run directory")
            }
        }

        package func cursor() throws -> Cursor {
            let records = ordered(try readRecords(log))
            guard records.count == expected else {
                let why = records.count < expected ? "the log was emptied or cut short" : "the log is not this report's"
                throw DamagedLog(path: log.path, reason: "holds \(records.count) records, but \(GenerationOutput.jsonFile) counts \(expected): "
                                 + "\(why); copy the whole run directory, or run it again")
            }
            return Cursor(records)
        }
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
                throw DamagedLog(path: url.path, line: lines.lineNumber, reason: "not a valid record (\(JSONErrorText.describe(error)))")
            }
            if let problem = record.impossibleFigure {
                throw DamagedLog(path: url.path, line: lines.lineNumber, reason: "\(problem); no request measures that, so the log was edited or damaged")
            }
            if let first = lineOf[record.key] {
                guard records[first.index] == record else {
                    throw DamagedLog(path: url.path, line: lines.lineNumber, reason: "lines \(first.line) and \(lines.lineNumber) hold different records of \(record.keyDescription): "
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
    /// merged runs equal uninterrupted ones). Duplicates keep the first.
    package static func ordered(_ records: [GenerationRecord]) -> [GenerationRecord] {
        var seen = Set<String>()
        return records.filter { seen.insert($0.key).inserted }
            .sorted { ($0.itemID, $0.variant ?? "", $0.config ?? "", $0.route, $0.repeatIndex) < ($1.itemID, $1.variant ?? "", $1.config ?? "", $1.route, $1.repeatIndex) }
    }

    /// Writes `records` as the records log of `directory`, replacing any (a merge's, or a finished run's).
    package static func write(_ records: [GenerationRecord], to directory: URL) throws {
        try AtomicFile.write(try records.map(JSONOutput.line).joined(), to: directory.appendingPathComponent(GenerationOutput.recordsLog))
    }

    /// The replies in `directory` (none without its replies log).
    /// Two different replies for one key are refused (65) naming the lines, as the records log refuses them: keeping
    /// either would be a silent choice. The same reply twice (a log concatenated twice) is one.
    package static func replies(in directory: URL) throws -> [ReplyRecord] {
        let url = directory.appendingPathComponent(GenerationOutput.repliesFile)
        let replies = try JSONLinesLog<ReplyRecord>.read(url)
        var first: [String: Int] = [:]
        for (index, reply) in replies.enumerated() {
            guard let earlier = first[reply.key] else { first[reply.key] = index; continue }
            guard replies[earlier] != reply else { continue }
            let lines = LogLines.numbers(in: url) { line in
                guard let decoded = try? JSONDecoder().decode(ReplyRecord.self, from: Data(line.utf8)) else { return false }  // try?: another line's damage is not this key's
                return decoded.key == reply.key
            }
            throw DamagedLog(path: url.path, line: lines.last, reason: "holds two different replies for item '\(reply.itemID)'\(reply.variant.map { ", variant \($0)" } ?? "")"
                             + "\(reply.config.map { ", config \($0)" } ?? ""), route \(reply.route.rawValue), repeat \(reply.repeatIndex) "
                             + "(lines \(lines.map(String.init).joined(separator: ", "))): the log was edited or written by two runs; remove the wrong line")
        }
        return replies
    }

    /// Writes the diagnostics and replies logs of the shard `directories`, each concatenated in their order
    /// (skipping shards without it), into `output`. The merged records are written whole (`write`): a
    /// shard's may come from its report.
    package static func concatenate(_ directories: [URL], into output: URL) throws {
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
