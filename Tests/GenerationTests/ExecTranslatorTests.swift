import Support
@testable import Detection
import Foundation
@testable import Generation
import GenerationTestSupport
@testable import Corpus
import Backend
import Testing

/// The `exec:` translator against a tiny real command speaking the line protocol (a Python script written here):
/// it upper-cases what it is given, says a Kazakh pack is missing (quoting the text, which must not reach a record),
/// and answers garbage to the word "garbage".
@Suite(.serialized)
struct ExecTranslatorTests {
    static let script = """
        import json, sys
        print(json.dumps({"engine": "upper", "version": "1.2"}), flush=True)
        for line in sys.stdin:
            request = json.loads(line)
            if "kk" in (request["from"], request["to"]):
                print(json.dumps({"id": request["id"], "error": "no pack for: " + request["text"], "pack": "missing"}), flush=True)
            elif request["text"] == "garbage":
                print("this is not json", flush=True)
            else:
                print(json.dumps({"id": request["id"], "text": request["text"].upper()}), flush=True)
        """

    static func command() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("langbench-exec-translator-\(UUID().uuidString.prefix(8)).py").path
        try Data(script.utf8).write(to: URL(fileURLWithPath: path))
        return "python3 \(path)"
    }

    static let en = LanguageCode(normalised: "en"), es = LanguageCode(normalised: "es"), kk = LanguageCode(normalised: "kk")

    @Test func translatesAndRestartsAfterGarbage() async throws {
        let translator = ExecTranslator(command: try Self.command())
        defer { Task { await translator.shutdown() } }
        #expect(try await translator.translate("hola amigo", from: Self.es, to: Self.en).text == "HOLA AMIGO")
        #expect(await translator.reportedVersion == "1.2")
        await #expect(throws: ExecTranslatorError.self) { try await translator.translate("garbage", from: Self.es, to: Self.en) }
        // The child that answered garbage was stopped; the next request starts it again.
        #expect(try await translator.translate("otra vez", from: Self.es, to: Self.en).text == "OTRA VEZ")
        #expect(translator.engine.kind == "exec" && translator.engine.name.hasPrefix("exec:python3 "))
    }

    @Test func aPackTheEngineLacksFallsBackWithoutTheMessage() async throws {
        let translator = ExecTranslator(command: try Self.command())
        defer { Task { await translator.shutdown() } }
        var pipeline = try PipelineFixture.pipeline(backend: UnusedBackend(), detector: FixedDetector(lang: "kk"))
        pipeline.translator = translator
        let item = PipelineFixture.item("kk-1", "kk", "Бүгін жұмыста ұзақ күн болды.")
        let output = try await PipelineFixture.reply(pipeline, item, .pivot)
        #expect(output.record.fallbackReason == .translationPackMissing)
        let message = try #require(output.record.errorMessage)
        // The pack kind is kept; the engine's own words ("no pack for …") are not.
        #expect(message.hasPrefix("exec:python3 ") && message.contains("answered an error (pack missing)") && !message.contains("no pack for"),
                "\(message)")
        #expect(!message.contains(item.text) && !output.events.contains { ($0.errorMessage ?? "").contains(item.text) })
    }

    @Test func aCommandThatCannotRunFallsBackNamingIt() async throws {
        let translator = ExecTranslator(command: "/nonexistent/translator")
        var pipeline = try PipelineFixture.pipeline(backend: UnusedBackend(), detector: FixedDetector(lang: "es"))
        pipeline.translator = translator
        let output = try await PipelineFixture.reply(pipeline, PipelineFixture.item("es-1", "es", "Hola, ¿qué tal?"), .pivot)
        #expect(output.record.fallbackReason == .translationFailed)
        #expect(output.record.errorMessage?.contains("exec:translator: the translator process exited with status 127") == true,
                "\(output.record.errorMessage ?? "")")
    }

    @Test func anEnginesFailureNeverCarriesAURLsCredentials() {
        let engine = TranslationEngine(kind: "apertium", name: "apertium:http://127.0.0.1:2737")
        for error: any Error in [ApertiumError.httpStatus(code: 503, detail: "", url: "http://user:hunter22@127.0.0.1:2737/translate"),
                                 BackendError.connectionRefused(url: "http://user:hunter22@127.0.0.1:2737/translate")] {
            let failure = StageFailure.from(error, translating: true, engine: engine)
            #expect(failure.reason == .translationFailed && !failure.message.contains("hunter22") && !failure.message.contains("user:"), "\(failure.message)")
        }
    }

    @Test func specsParseAndRefuseWithTheKey() throws {
        #expect(try TranslatorSpec("llm", key: "k") == .llm)
        #expect(try TranslatorSpec("apertium", key: "k") == .apertium(nil))
        #expect(try TranslatorSpec("apertium:http://127.0.0.1:2737", key: "k") == .apertium(URL(string: "http://127.0.0.1:2737")!))
        #expect(try TranslatorSpec("exec:/bin/cat --fast", key: "k") == .exec("/bin/cat --fast"))
        for bad in ["deepl", "apertium:", "apertium:not a url"] {
            #expect(throws: ConfigurationError.self) { try TranslatorSpec(bad, key: "--translator") }
        }
        // A command that cannot run is refused before any work, naming the key (64 blank, 69 missing).
        #expect(throws: ExecCommandError.self) { try TranslatorSpec("exec: ", key: "--translator") }
        do { _ = try TranslatorSpec("exec:/nope --api-key sk-secret-123", key: "--translator") } catch {
            #expect("\(error)" == "--translator: '/nope' is not an executable file; check the exec: command")
        }
        do { _ = try TranslatorSpec("deepl", key: "--translator") } catch {
            #expect("\(error)" == "--translator 'deepl': must be llm, apertium, apertium:<url> or exec:<command>")
        }
    }
}
