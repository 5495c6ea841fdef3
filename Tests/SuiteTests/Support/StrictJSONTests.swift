@testable import Support
@testable import Detection
import Foundation
@testable import Generation
import GenerationTestSupport
@testable import Suite
import TestSupport
import Testing

/// Configuration files: a misspelt key at any depth, or a schema this build does not read, is the
/// typed error that names the file and where in it.
struct StrictJSONTests {
    /// The committed profile with `change` applied, written to a temporary file.
    static func profile(_ change: (inout [String: Any]) -> Void) throws -> String {
        let data = try Data(contentsOf: PipelineFixture.repository.appendingPathComponent(ModelProfile.defaultResource))
        var object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        change(&object)
        let url = try Fixture.temporaryDirectory().appendingPathComponent("profile.json")
        try JSONSerialization.data(withJSONObject: object).write(to: url)
        return url.path
    }

    @Test func theCommittedProfileLoads() throws {
        let profile = try ModelProfile.load(PipelineFixture.repository.appendingPathComponent(ModelProfile.defaultResource).path)
        #expect(profile.name == "gemma3-270m-q4km")
        #expect(profile.sampling.stop == ["\n"] && profile.translationSampling.temperature == 0)
    }

    @Test func anUnknownKeyInANestedSectionIsRejected() throws {
        let path = try Self.profile { object in
            var sampling = object["sampling"] as? [String: Any] ?? [:]
            sampling["n_predicts"] = 5
            object["sampling"] = sampling
        }
        do {
            _ = try ModelProfile.load(path)
            Issue.record("a misspelt sampling key was accepted")
        } catch let error as ConfigurationError {
            guard case .unknownKeys(let location, let keys, let allowed) = error else { Issue.record("\(error)"); return }
            #expect(location == "\(path) (sampling)")
            #expect(keys == ["n_predicts"])
            #expect(allowed.contains("n_predict") && allowed.contains("ignore_eos"))
        }
    }

    @Test func anUnknownKeyInPromptsIsRejected() throws {
        let path = try Self.profile { object in
            var prompts = object["prompts"] as? [String: Any] ?? [:]
            prompts["repyl"] = "x"
            object["prompts"] = prompts
        }
        #expect { try ModelProfile.load(path) } throws: {
            guard case .unknownKeys(let location, let keys, _) = $0 as? ConfigurationError else { return false }
            return location == "\(path) (prompts)" && keys == ["repyl"]
        }
    }

    @Test func anUnsupportedSchemaVersionIsItsOwnError() throws {
        let path = try Self.profile { $0["schema_version"] = 2 }
        #expect(throws: ConfigurationError.unsupportedSchemaVersion(path: path, found: 2, supported: 1)) { try ModelProfile.load(path) }
        #expect(ConfigurationError.unsupportedSchemaVersion(path: "p.json", found: 2, supported: 1).description
                == "p.json: schema_version 2 is not supported (this LangBench reads 1)")
    }

    @Test func benchConfigNamesTheNestedSection() throws {
        let url = try Fixture.temporaryDirectory().appendingPathComponent("bench.json")
        try #"{"generation": {"corpora": ["c.tsv"], "packs": {"defualt": "installed"}}}"#.write(to: url, atomically: true, encoding: .utf8)
        #expect(throws: ConfigurationError.unknownKeys(path: "\(url.path) (generation.packs)", keys: ["defualt"], allowed: ["default", "pairs"])) {
            try BenchConfig.load(url.path)
        }
        try #"{"schema_version": 3, "detection": {"corpora": ["c.tsv"]}}"#.write(to: url, atomically: true, encoding: .utf8)
        #expect(throws: ConfigurationError.unsupportedSchemaVersion(path: url.path, found: 3, supported: 1)) { try BenchConfig.load(url.path) }
    }

    @Test func benchConfigNamesAVariantsFileForItsPlan() throws {
        let url = try Fixture.temporaryDirectory().appendingPathComponent("bench.json")
        try #"{"generation": {"corpora": ["c.tsv"], "variants": "Profiles/variants/gemma3-270m.json"}}"#.write(to: url, atomically: true, encoding: .utf8)
        // Relative to bench.json, as every path in it.
        #expect(try BenchConfig.load(url.path).generation?.plan.variantsPath == url.deletingLastPathComponent().path + "/Profiles/variants/gemma3-270m.json")
        try #"{"generation": {"corpora": ["c.tsv"]}}"#.write(to: url, atomically: true, encoding: .utf8)
        #expect(try BenchConfig.load(url.path).generation?.plan.variantsPath == nil)
    }

    /// Replies' language is judged by a detector that reads text; the oracle and Apple's recognizer name detector kinds
    /// but judge nothing, so a suite naming them as its judge is refused.
    @Test(arguments: ["oracle", "apple", "lingua"])
    func benchConfigRefusesAJudgeThatCannotJudge(_ judge: String) throws {
        let url = try Fixture.temporaryDirectory().appendingPathComponent("bench.json")
        try #"{"generation": {"corpora": ["c.tsv"], "judge": "\#(judge)"}}"#.write(to: url, atomically: true, encoding: .utf8)
        let error = #expect(throws: (any Error).self) { try BenchConfig.load(url.path) }
        #expect(String(describing: error).contains("must be builtin or exec:<command>, not '\(judge)'"), "\(String(describing: error))")
        try #"{"generation": {"corpora": ["c.tsv"], "judge": "builtin"}}"#.write(to: url, atomically: true, encoding: .utf8)
        #expect(try BenchConfig.load(url.path).generation != nil)
    }
}

/// Where a configuration file is not JSON, or holds a value its field cannot take: line and column,
/// or key path, and what was found; never Foundation's bare "not valid JSON".
struct ConfigurationDiagnosisTests {
    @Test(arguments: [
        ("{\"a\": [1, 2,]}", 1, 13, "expected a value after ',' (remove the trailing comma), found ']'"),
        ("{\"a\" 1}", 1, 6, "expected ':' after the key 'a', found '1'"),
        ("{\"a\": \"\\q\"}", 1, 8, "invalid escape in a string, found '\\'"),
        ("{\"a\": 01}", 1, 8, "expected ',' or '}' after the value of 'a', found '1'"),
        ("{\"a\": -}", 1, 8, "expected a digit in a number, found '}'"),
        ("{\"a\": 1} x", 1, 10, "expected the end of the file after the JSON value, found 'x'"),
        ("\n\n  [\"open", 3, 4, "a string that is never closed"),
        ("   ", 1, 4, "empty file; expected a JSON object"),
        ("{\"hints\": {\"ru\": 0.5,\n  \"ru\": 0.3}}", 2, 3, "the key 'ru' appears twice in one object; keep one"),
    ])
    func syntaxErrorsAreLocated(text: String, line: Int, column: Int, reason: String) {
        #expect(StrictJSON.syntaxError(in: Data(text.utf8), path: "f.json") == .syntax(path: "f.json", line: line, column: column, reason: reason))
    }

    /// The decoder keeps the last of two equal keys; a configuration file with one is refused where it is.
    @Test func aKeyGivenTwiceInAConfigFileIsRefused() throws {
        let url = try Fixture.temporaryDirectory().appendingPathComponent("configs.json")
        try #"{"configs": [{"name": "a", "hints": {"ru": 0.5, "ru": 0.3}}]}"#.write(to: url, atomically: true, encoding: .utf8)
        #expect(throws: ConfigurationError.syntax(path: url.path, line: 1, column: 49, reason: "the key 'ru' appears twice in one object; keep one")) {
            try DetectionConfigFile.load(url.path)
        }
    }

    @Test func wellFormedJSONHasNoSyntaxError() {
        #expect(StrictJSON.syntaxError(in: Data(#"{"a": [1, -2.5e3, true, null, "\u00e9\n"], "b": {}}"#.utf8), path: "f.json") == nil)
    }

    /// A variant overriding an integer with a decimal: the decoder said only "not valid JSON".
    @Test func aVariantsFileNamesTheVariantAndKey() throws {
        let base = try ModelProfile.load(PipelineFixture.repository.appendingPathComponent(ModelProfile.defaultResource).path)
        let text = #"{"variants": [{"name": "v", "sampling": {"n_predict": 1.5}}]}"#
        #expect(throws: ConfigurationError.invalid(path: "v.json", reason: "variants[0].sampling.n_predict: expected an integer, found 1.5")) {
            try VariantSet.parse(Data(text.utf8), path: "v.json", base: base)
        }
        #expect(throws: ConfigurationError.syntax(path: "v.json", line: 2, column: 1, reason: "expected ',' or '}' after the value of 'variants', found 'x'")) {
            try VariantSet.parse(Data("{\"variants\": []\nx}".utf8), path: "v.json", base: base)
        }
    }

    /// Codes Foundation wraps in "NSCocoaErrorDomain error 512"; a full disk or read-only mount cannot
    /// be made on demand here, so their POSIX errors are built directly.
    @Test(arguments: [
        (POSIXError(.ENOSPC) as Error, "no space left on the device"),
        (POSIXError(.EROFS), "read-only file system"),
        (POSIXError(.EACCES), "permission denied"),
        (NSError(domain: NSCocoaErrorDomain, code: 512, userInfo: [NSUnderlyingErrorKey: POSIXError(.ENOSPC)]), "no space left on the device"),
    ])
    func fileErrorsSayWhatHappened(error: Error, reason: String) {
        #expect(FileKind.reason(error, path: "/tmp/x") == reason)
    }
}
