@testable import Support
import Foundation
@testable import Generation
import GenerationTestSupport
@testable import Corpus
import TestSupport
import Testing

/// The served funnel: each record counted once, at the first stage it failed, so a config's stages add up to
/// its n; the oracle's served minus a config's is what detection lost; the other configs' records live in the
/// records log beside the reference's and read back as the funnel's.
struct ServedFunnelTests {
    static let configs = ["constrained+priors", "unconstrained", "oracle"]

    /// A record of the fixture changed by `change`.
    static func record(_ change: (inout GenerationRecord) -> Void) throws -> GenerationRecord {
        var record = try #require(try GenerationFixtures.records("base").first { $0.fallbackReason == nil && $0.servedInOwnLanguage == true })
        change(&record)
        return record
    }

    @Test func theTranslationStageIsCountedOnlyWhenARecordWasScored() throws {
        let unscored = try Self.record { $0.route = .pivot }
        let funnel = try #require(ServedFunnel(configs: ["a", "b"], reference: [unscored], others: [], variant: unscored.variant))
        #expect(!funnel.stageList.contains(.translation) && funnel.rows[0].stages[.translation] == nil)
        #expect(!funnel.table.columns.map(\.name).contains("translation"))
        let scored = try Self.record { $0.route = .pivot; $0.translateInChrF = 12 }
        let lost = try #require(ServedFunnel(configs: ["a", "b"], reference: [unscored, scored], others: [], variant: unscored.variant))
        #expect(lost.rows[0].stages[.translation] == 1 && lost.rows[0].served == 1)
        #expect(lost.table.columns.map(\.title).contains("lost: translation"))
    }

    @Test func theRunsThresholdDecidesWhatIsLostInTranslation() throws {
        let scored = try Self.record { $0.route = .pivot; $0.translateInChrF = 25 }
        #expect(ServedFunnel.Stage.of(scored) == .served)
        #expect(ServedFunnel.Stage.of(scored, lostBelow: 30) == .translation)
        var settings = GenerationFixtures.settings
        settings.translationLostChrF = 30
        let report = GenerationReport(records: [scored], settings: settings, warmupRuns: 0, provenance: GenerationFixtures.provenance("x"))
        #expect(report.settings.lostBelowChrF == 30)
        #expect(TranslationQuality.legend(lostBelow: 30).contains("below 30 as lost"))
    }

    @Test func eachRecordStopsAtTheFirstStageItFailed() throws {
        let cases: [(String, ServedFunnel.Stage, (inout GenerationRecord) -> Void)] = [
            ("served", .served, { _ in }),
            ("misdetected, not served", .detection, { $0.detectedLang = "xx"; $0.servedInOwnLanguage = false; $0.notServedReason = NotServed.misdetected }),
            ("misdetected, served anyway", .served, { $0.detectedLang = "xx" }),
            ("misdetected and refused", .detection, {
                $0.detectedLang = "xx"; $0.outcome = .fallback; $0.fallbackReason = .unsupportedLanguage; $0.servedInOwnLanguage = false }),
            ("unsupported", .refused, { $0.outcome = .fallback; $0.fallbackReason = .unsupportedLanguage; $0.servedInOwnLanguage = false }),
            ("pack missing", .refused, { $0.outcome = .fallback; $0.fallbackReason = .translationPackMissing; $0.servedInOwnLanguage = false }),
            ("timeout", .noReply, { $0.outcome = .fallback; $0.fallbackReason = .timeout; $0.servedInOwnLanguage = false }),
            ("translation failed", .noReply, { $0.outcome = .fallback; $0.fallbackReason = .translationFailed; $0.servedInOwnLanguage = false }),
            ("caught in another language", .wrongLanguage, { $0.outcome = .fallback; $0.fallbackReason = .wrongOutputLanguage; $0.servedInOwnLanguage = false }),
            ("judged in another language", .wrongLanguage, { $0.servedInOwnLanguage = false; $0.notServedReason = "wrong-output-language" }),
            ("degenerate", .degenerate, { $0.servedInOwnLanguage = false; $0.notServedReason = NotServed.degenerateOutput }),
            ("pivot served, message lost in translation", .translation, { $0.route = .pivot; $0.translateInChrF = 19.9 }),
            ("pivot served, translation close enough", .served, { $0.route = .pivot; $0.translateInChrF = 20 }),
            ("lost in translation, then another language", .translation, {
                $0.route = .pivot; $0.translateInChrF = 5; $0.servedInOwnLanguage = false; $0.notServedReason = "wrong-output-language" }),
            ("misdetected, then lost in translation", .detection, {
                $0.route = .pivot; $0.translateInChrF = 5; $0.detectedLang = "xx"; $0.servedInOwnLanguage = false; $0.notServedReason = NotServed.misdetected }),
        ]
        for (name, stage, change) in cases {
            #expect(ServedFunnel.Stage.of(try Self.record(change)) == stage, "\(name)")
        }
        // An abstention is answered as English: no detection loss for an English message.
        let english = try Self.record { $0.lang = LanguageCode(normalised: "en"); $0.detectedLang = "und"; $0.servedInOwnLanguage = false }
        #expect(ServedFunnel.Stage.of(english) == .wrongLanguage)
    }

    /// The base fixture as the reference config; `unconstrained` shares its requests and serves the first five
    /// misdetected records; the oracle serves every misdetected one.
    static func report() throws -> GenerationReport {
        let base = try GenerationFixtures.records("base")
        let misdetected = base.filter { ServedFunnel.Stage.of($0) == .detection && $0.fallbackReason != .crisisProtocol }.map(\.key)
        let fixed = { (record: GenerationRecord, count: Int) -> GenerationRecord in
            var record = record
            if misdetected.prefix(count).contains(record.key) {
                record.detectedLang = record.lang.identifier
                record.servedInOwnLanguage = true
                record.notServedReason = nil
                record.outcome = .model
                record.fallbackReason = nil
            } else {
                record.shared = true
            }
            return record
        }
        let unconstrained = base.map { var record = fixed($0, 5); record.config = "unconstrained"; return record }
        let oracle = base.map { var record = fixed($0, misdetected.count); record.config = "oracle"; return record }
        var settings = GenerationFixtures.settings
        settings.configs = configs.map { "\($0) (fixture)" }
        return GenerationReport(records: base + unconstrained + oracle, settings: settings, warmupRuns: 0, provenance: GenerationFixtures.provenance("funnel"))
    }

    @Test func stagesAddUpAndTheOracleSaysWhatDetectionLost() throws {
        let report = try Self.report()
        let funnel = try #require(report.funnel)
        #expect(funnel.configs == Self.configs)
        #expect(report.records.allSatisfy { $0.config == nil } && report.configRecords.count == 2 * report.records.count)
        for row in funnel.rows {
            #expect(row.stages.values.reduce(0, +) == row.n, "\(row.config) \(row.route) \(row.lang)")
        }
        let misdetected = try GenerationFixtures.records("base").filter { ServedFunnel.Stage.of($0) == .detection && $0.fallbackReason != .crisisProtocol }
        #expect(misdetected.count > 5, "the fixture has misdetected records to win back")
        for route in Route.allCases {
            let all = funnel.rows.filter { $0.route == route && $0.lang == "all" }
            guard let reference = all.first(where: { $0.config == Self.configs[0] }), let oracle = all.first(where: { $0.config == "oracle" }),
                  let unconstrained = all.first(where: { $0.config == "unconstrained" }) else { continue }
            let lost = misdetected.filter { $0.route == route }.count
            #expect(reference.lostToDetection == lost && oracle.served - reference.served == lost && oracle.lostToDetection == nil)
            #expect(reference.stages[.detection] == lost && oracle.stages[.detection] == 0)
            #expect(unconstrained.lostToDetection == oracle.served - unconstrained.served)
            // The reference's own figures are untouched by the other configs.
            #expect(report.served.first { $0.route == route && $0.lang == "all" }?.served == reference.served)
        }
        #expect(funnel.records == report.configRecords.count && funnel.shared == report.configRecords.filter { $0.shared == true }.count)
        Snapshot.assert(MarkdownWriter.render(funnel.table) + "\n" + funnel.sharingSentence + "\n", named: "served-funnel.md")
    }

    /// The funnel loses a person at detection, the served table lists a looping reply first: where one person is both,
    /// the report says why the two counts differ.
    @Test func aMisdetectedPersonWithALoopingReplyIsExplained() throws {
        var report = try Self.report()
        #expect(!report.markdown.contains("also got a looping reply"))
        let index = try #require(report.records.firstIndex { !$0.detectedRight && $0.fallbackReason != .crisisProtocol })
        report.records[index].notServedReason = NotServed.degenerateOutput
        #expect(report.markdown.contains("1 misdetected person(s) also got a looping reply: lost to detection here"))
    }

    @Test func theOtherConfigsRecordsReadBackFromTheLog() throws {
        let report = try Self.report()
        let directory = try Fixture.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try GenerationStore.write(report.allRecords, to: directory)
        try GenerationOutput.write(report, to: directory)
        let read = try GenerationOutput.read(directory.path)
        #expect(read.records == report.records && read.configRecords == GenerationStore.ordered(report.configRecords))
        #expect(read.funnel == report.funnel)
        // A log that lost the other configs' records is not this report's.
        try GenerationStore.write(report.records, to: directory)
        #expect(throws: DamagedLog.self) { try GenerationOutput.read(directory.path) }
    }
}
