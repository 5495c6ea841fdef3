import Foundation
@testable import Generation
@testable import LangBenchCLI
import TestSupport
import Testing

/// `merge --rejudge` brings a run recorded under another judge under today's, from the replies it kept.
struct RejudgeCommandTests {
    static func records(_ directory: String) throws -> [GenerationRecord] {
        try GenerationOutput.read(directory + "/generation.json").records
    }

    @Test(.needs(.simulation)) func theBaselineIsJudgedAgainFromItsRepliesAndOnlyServedMoves() async throws {
        let directory = try Fixture.temporaryDirectory()
        let (once, twice) = (directory.appendingPathComponent("once").path, directory.appendingPathComponent("twice").path)
        let first = await runCommand(["merge", CommandFixtures.path("Reports/baseline"), "--out", once, "--rejudge"])
        #expect(first.status == .success, "\(first.stderr)")
        let note = try #require(first.stderr.split(separator: "\n").first { $0.hasPrefix("re-judged ") })
        let before = try Self.records(CommandFixtures.path("Reports/baseline")), after = try Self.records(once)
        #expect(try GenerationOutput.read(once + "/generation.json").settings.judge?.hasPrefix("builtin recognizer ") == true)
        // Everything but the verdict is the run's own; the note counts the verdicts that moved.
        let changed = zip(before, after).filter { $0.servedInOwnLanguage != $1.servedInOwnLanguage || $0.notServedReason != $1.notServedReason }
        let strip = { (record: GenerationRecord) -> GenerationRecord in
            var record = record
            record.servedInOwnLanguage = nil
            record.notServedReason = nil
            return record
        }
        #expect(before.map(strip) == after.map(strip))
        #expect(note.hasSuffix(": \(changed.count) verdict(s) changed"), "\(note)")
        // Judged again by the same judge, nothing moves.
        let second = await runCommand(["merge", once, "--out", twice, "--rejudge"])
        let again = try Self.records(twice)
        #expect(second.stderr.contains(": 0 verdict(s) changed") && again == after)
    }

    @Test(.needs(.simulation)) func aRunWithoutRepliesCannotBeJudgedAgain() async throws {
        let directory = try Fixture.temporaryDirectory()
        let copy = directory.appendingPathComponent("no-replies")
        try FileManager.default.copyItem(at: CommandFixtures.repository.appendingPathComponent("Reports/baseline"), to: copy)
        try FileManager.default.removeItem(at: copy.appendingPathComponent("replies.jsonl"))
        let result = await runCommand(["merge", copy.path, "--out", directory.appendingPathComponent("out").path, "--rejudge"])
        #expect(result.status == .dataError)
        #expect(result.stderr.contains("cannot re-judge: replies.jsonl has no reply for item '"), "\(result.stderr)")
    }

    /// Two different replies for one key: refused naming the lines, like the records log; the same line twice is one.
    @Test(.needs(.simulation)) func twoDifferentRepliesForOneKeyAreRefusedNamingTheLines() async throws {
        let directory = try Fixture.temporaryDirectory()
        let copy = directory.appendingPathComponent("two-replies")
        try FileManager.default.copyItem(at: CommandFixtures.repository.appendingPathComponent("Reports/baseline"), to: copy)
        let replies = copy.appendingPathComponent("replies.jsonl")
        let lines = try String(contentsOf: replies, encoding: .utf8).split(separator: "\n").map(String.init)
        let model = try #require(lines.firstIndex { $0.contains("\"outcome\":\"model\"") })
        var record = try JSONDecoder().decode(ReplyRecord.self, from: Data(lines[model].utf8))
        let duplicated = lines + [lines[model]]
        try (duplicated.joined(separator: "\n") + "\n").write(to: replies, atomically: true, encoding: .utf8)
        let same = await runCommand(["merge", copy.path, "--out", directory.appendingPathComponent("same").path, "--rejudge"])
        #expect(same.status == .success, "\(same.stderr)")
        record.reply += " (edited)"
        let edited = String(decoding: try JSONEncoder().encode(record), as: UTF8.self)
        try ((lines + [edited]).joined(separator: "\n") + "\n").write(to: replies, atomically: true, encoding: .utf8)
        let result = await runCommand(["merge", copy.path, "--out", directory.appendingPathComponent("out").path, "--rejudge"])
        #expect(result.status == .dataError)
        #expect(result.stderr.contains("holds two different replies for item '\(record.itemID)'") && result.stderr.contains("(lines \(model + 1), \(lines.count + 1))"),
                "\(result.stderr)")
    }
}
