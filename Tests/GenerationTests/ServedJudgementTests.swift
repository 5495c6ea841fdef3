@testable import Detection
import Foundation
@testable import Generation
import GenerationTestSupport
import Testing

/// "Served in own language" through the real pipeline and the real built-in recognizer
/// (Models/recognizer.lbrm) under the default detection config (constrained+priors). The backend
/// answers with replies the model gave to misdetected Bulgarian messages (a fake backend: the model
/// does not say a chosen text on demand); everything after generation is the real code.
struct ServedJudgementTests {
    static func pipeline(reply: String) throws -> ReplyPipeline {
        try PipelineFixture.pipeline(backend: FixedReplyBackend(reply: reply), detector: try BuiltinDetector(modelPath: nil),
                                     detection: .seedArchitecture())
    }

    // Both messages are detected as Ukrainian (Bulgarian is not a candidate), and both replies pass the
    // pipeline's check against Ukrainian; adding Bulgarian to the candidates made Bulgarian win.
    static let loop = "Ти, ти, ти, ти, ти, ти, ти, ти, ти, ти, ти, ти, ти, ти, ти, ти, ти, ти, ти, ти, ти, ти, ти, ти,"

    @Test(arguments: [
        ("cp-bg-03", "Работа, пазаруване и зъболекар. Можеш ли да ми помогнеш да планирам деня?",
         "Најводејка, нека ти ги подредим.", NotServed.misdetected),
        ("cp-bg-10", "Запиши, че днес сготвих вечеря за цялото семейство.",
         loop, NotServed.degenerateOutput),
    ])
    func aMacedonianOrDegenerateReplyIsNotServedInBulgarian(id: String, message: String, reply: String, reason: String) async throws {
        let output = try await PipelineFixture.reply(try Self.pipeline(reply: reply), PipelineFixture.item(id, "bg", message), .direct)
        #expect(output.record.detectedLang == "uk")
        #expect(output.record.outcome == .model && output.record.replyLangOK == true)  // fidelity: judged as before
        #expect(output.record.servedInOwnLanguage == false)
        #expect(output.record.notServedReason == reason)
    }

    @Test func aBulgarianReplyToAMisdetectedMessageIsServed() async throws {
        let item = PipelineFixture.item("cp-bg-10", "bg", "Запиши, че днес сготвих вечеря за цялото семейство.")
        let output = try await PipelineFixture.reply(try Self.pipeline(reply: "Браво! Записах, че днес си сготвил вечеря за цялото семейство."), item, .direct)
        #expect(output.record.detectedLang == "uk")
        #expect(output.record.servedInOwnLanguage == true && output.record.notServedReason == nil)
    }

    @Test func theServedTableCountsDegenerateOutputApart() async throws {
        let item = PipelineFixture.item("cp-bg-10", "bg", "Запиши, че днес сготвих вечеря за цялото семейство.")
        let output = try await PipelineFixture.reply(try Self.pipeline(reply: Self.loop), item, .direct)
        let report = GenerationReport(records: [output.record], settings: GenerationFixtures.settings, warmupRuns: 0,
                                      provenance: GenerationFixtures.provenance("x"))
        let row = try #require(report.served.first { $0.lang == "all" })
        #expect(row.served == 0 && row.degenerateOutput == 1 && row.misdetected == 0 && row.fallbacks.isEmpty)
        #expect(report.summary(route: .direct)?.degenerateOutput == 1)
        #expect(report.markdown.contains("| degenerate output |"))
    }
}
