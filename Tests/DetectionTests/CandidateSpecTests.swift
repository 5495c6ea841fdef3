@testable import Support
@testable import Detection
import Foundation
@testable import Corpus
import TestSupport
import Testing

struct CandidateSpecTests {
    static let supported = ["en", "de", "ja"].map(LanguageCode.init(normalised:))

    @Test func expressionUnionsProfileAppAndDevice() throws {
        let codes = try CandidateSpec.expression("profile:supported + app:ru + device:en,uk").resolve(supported: Self.supported)
        #expect(codes?.map(\.identifier) == ["en", "de", "ja", "ru", "uk"])
    }

    @Test func noneMeansUnconstrained() throws {
        #expect(try CandidateSpec.none.resolve(supported: Self.supported) == nil)
    }

    @Test(arguments: ["profile:everything + ru", "ru + xx"])
    func badExpressionsAreErrors(expression: String) {
        #expect(throws: ConfigurationError.self) { try CandidateSpec.expression(expression).resolve(supported: Self.supported) }
    }

    @Test func hintsParse() throws {
        let hints = try DetectionConfig.parseHints("ru=0.5, en=0.35")
        #expect(hints == [LanguageCode(normalised: "ru"): 0.5, LanguageCode(normalised: "en"): 0.35])
        #expect(throws: ConfigurationError.self) { try DetectionConfig.parseHints("ru=-1") }
        #expect(throws: ConfigurationError.self) { try DetectionConfig.parseHints("ru") }
    }

    @Test func configFileShapesAndErrors() throws {
        let good = #"{"configs":[{"name":"main","detector":"builtin","candidates":["ru","uk"],"hints":{"ru":0.5}},{"name":"expr","candidates":"profile:supported + ru"},{"name":"plain"}]}"#
        let configs = try StrictJSON.decode(DetectionConfigFile.self, from: Data(good.utf8), path: "c.json").configs
        #expect(configs.map(\.name) == ["main", "expr", "plain"])
        #expect(configs[0].candidates == .list(["ru", "uk"].map(LanguageCode.init(normalised:))))
        #expect(configs[1].candidates == .expression("profile:supported + ru"))
        #expect(configs[2].candidates == .none && configs[2].hints.isEmpty && configs[2].detector == "builtin")

        let typo = #"{"configs":[{"name":"main","candidate":["ru"]}]}"#
        #expect { try StrictJSON.decode(DetectionConfigFile.self, from: Data(typo.utf8), path: "c.json") } throws: {
            "\($0)".contains("unknown key(s) 'candidate'")
        }
        let duplicate = #"{"configs":[{"name":"a"},{"name":"a"}]}"#
        #expect { try StrictJSON.decode(DetectionConfigFile.self, from: Data(duplicate.utf8), path: "c.json") } throws: {
            "\($0)".contains("'a' is used twice")
        }
    }
}
