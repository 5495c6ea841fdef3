import BenchSupport
import Foundation
import Synchronization

/// The per-item logs of a generation run (records, diagnostics, replies): opened fresh or resumed, appended to as outputs are produced, read back.
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
        kept = resume ? try JSONLinesLog<GenerationRecord>.read(recordsURL, repair: true) : []
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

    /// Appends an output to the logs, the record first (resume redoes what has no record, so a kill between
    /// these writes can lose an item's diagnostics or reply line but never write them twice).
    public func append(_ output: ReplyPipeline.Output) throws {
        let record = output.record
        try records.append(record)
        appended.withLock { $0 += 1 }
        for event in output.events { try diagnostics.append(event) }
        try replies?.append(ReplyRecord(itemID: record.itemID, variant: record.variant, route: record.route, repeatIndex: record.repeatIndex,
                                        lang: record.lang.identifier, outcome: record.outcome, reply: output.reply))
    }

    /// The records of the log in `directory` (none without one), its torn last line truncated away.
    public static func records(in directory: URL) throws -> [GenerationRecord] {
        try JSONLinesLog<GenerationRecord>.read(directory.appendingPathComponent(GenerationOutput.recordsLog), repair: true)
    }

    /// The replies in `directory` (none without its replies log).
    public static func replies(in directory: URL) throws -> [ReplyRecord] {
        try JSONLinesLog<ReplyRecord>.read(directory.appendingPathComponent(GenerationOutput.repliesFile))
    }

    /// Writes each log of the shard `directories`, concatenated in their order (skipping shards without it), into `output`.
    public static func concatenate(_ directories: [URL], into output: URL) throws {
        for file in [GenerationOutput.recordsLog, GenerationOutput.diagnosticsFile, GenerationOutput.repliesFile] {
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
