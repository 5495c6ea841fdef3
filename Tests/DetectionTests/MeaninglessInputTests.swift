@testable import Support
@testable import Detection
import Foundation
@testable import Corpus
import TestSupport
import Testing

/// Inputs that used to be accepted and mean nothing — an empty candidate list, an empty term, a nameless
/// config, a hint given twice or outside the candidates, an unknown prompt placeholder, item text that
/// shows nothing — are refused naming the file and key (or the file and line).
struct MeaninglessInputTests {
    static func decodeConfigs(_ json: String) -> String {
        do {
            _ = try StrictJSON.decode(DetectionConfigFile.self, from: Data(json.utf8), path: "c.json")
            return "accepted"
        } catch {
            return "\(error)"
        }
    }

    @Test(arguments: [
        (#"{"name": "a", "candidates": []}"#,
         "c.json (configs.0.candidates): candidates '[]': names no language; leave candidates out (or write \"none\") for unconstrained detection"),
        (#"{"name": "a", "candidates": ""}"#,
         "c.json (configs.0.candidates): candidates '': names no language; leave candidates out (or write \"none\") for unconstrained detection"),
        (#"{"name": "a", "candidates": "profile:supported + + app:"}"#,
         "c.json (configs.0.candidates): candidates 'profile:supported + + app:': has an empty term; join terms with one '+', e.g. profile:supported + ru + device:en,uk"),
        (#"{"name": "a", "candidates": "profile:supported + app:"}"#,
         "c.json (configs.0.candidates): candidates 'profile:supported + app:': term 'app:' has an empty language code; write codes separated by single commas, e.g. app:ru or device:en,uk"),
        (#"{"name": "a", "candidates": "ru + device:en,,uk"}"#,
         "c.json (configs.0.candidates): candidates 'ru + device:en,,uk': term 'device:en,,uk' has an empty language code; write codes separated by single commas, e.g. app:ru or device:en,uk"),
        (#"{"name": ""}"#, "c.json (configs.0.name): must name the config (it labels every row of the report), not ''"),
        (#"{"name": " \u200B "}"#, "c.json (configs.0.name): must name the config (it labels every row of the report), not ' \u{200B} '"),
        (#"{"name": "a", "hints": {"ru": 0.5, "RU": 0.3}}"#, "c.json (configs.0.hints): ru has two weights (0.3 and 0.5); give each language one weight"),
        (#"{"name": "a", "candidates": ["ru", "uk"], "hints": {"de": 0.5}}"#,
         "c.json (configs.0.hints): hints 'de=0.5': config 'a': de is not among its candidates (ru,uk), so the hint would do nothing; add de to the candidates or remove the hint"),
    ])
    func configFileRefusals(config: String, message: String) {
        #expect(Self.decodeConfigs(#"{"configs": [\#(config)]}"#) == message)
    }

    @Test(arguments: [
        #"{"name": "a", "candidates": "none"}"#, #"{"name": "a", "candidates": null}"#, #"{"name": "a", "candidates": ["ru"], "hints": {"ru-RU": 2}}"#,
        #"{"name": "a", "candidates": "profile:supported + app:ru", "hints": {"de": 1}}"#,
    ])
    func meaningfulConfigsStillLoad(config: String) {
        #expect(Self.decodeConfigs(#"{"configs": [\#(config)]}"#) == "accepted")
    }

    /// `profile:supported` is known only with the profile: a hint outside it is refused when the run resolves it.
    @Test func aHintOutsideProfileCandidatesIsRefusedWhenResolved() {
        let config = DetectionConfig(name: "p", candidates: .expression("profile:supported + app:ru"), hints: [LanguageCode(normalised: "de"): 1])
        #expect(throws: ConfigurationError.invalidValue(name: "hints", value: "de=1",
                                                         reason: "config 'p': de is not among its candidates (en,ru), so the hint would do nothing; add de to the candidates or remove the hint")) {
            try config.resolvedCandidates(supported: [LanguageCode(normalised: "en")])
        }
        #expect((try? config.resolvedCandidates(supported: [LanguageCode(normalised: "de")])) != nil)
    }

    @Test func aRepeatedHintFlagIsRefused() {
        #expect(throws: ConfigurationError.invalidValue(name: "hints", value: "ru=0.5,ru=0.3", reason: "ru has two weights (0.5 and 0.3); give each language one weight")) {
            try DetectionConfig.parseHints("ru=0.5,ru=0.3")
        }
    }
}
