import Support
import Checks
import Detection
import Foundation
import Generation

/// What `langbench init` writes: a minimal suite that runs as written from any directory — a suite file, a small
/// chat corpus and detection corpus drawn from the authored ones, a copy of the default profile to edit, a
/// thresholds file and a README saying what to edit first. Paths inside are relative to the suite file.
package enum SuiteTemplate {
    /// Languages of the chat corpus: two the model supports, two it does not (both Cyrillic).
    package static let chatLanguages = ["en", "de", "ru", "uk"]
    package static let chatItemsPerLanguage = 2
    /// Languages of the detection corpus: the Cyrillic neighbours plain detectors confuse, and two others.
    package static let detectionLanguages = ["en", "de", "ru", "uk", "bg", "mk"]
    package static let detectionItemsPerLanguage = 8

    package static let suiteFile = "bench.json"
    package static let files = [suiteFile, "profile.json", "thresholds.json", "corpora/chat.tsv", "corpora/detection.tsv", "README.md"]

    /// Every file's path (relative to the suite's directory) and contents, drawn from the tool's resources.
    package static func files(resources: URL) throws -> [(path: String, contents: String)] {
        let read = { (relative: String) throws -> String in
            let url = resources.appendingPathComponent(relative)
            return try ReportError.reading(url) { try String(contentsOf: url, encoding: .utf8) }
        }
        let chat = draw(try read("Corpora/chat-prompts.tsv"), languages: chatLanguages, perLanguage: chatItemsPerLanguage)
        let detection = draw(try read("Corpora/short-phrases.tsv"), languages: detectionLanguages, perLanguage: detectionItemsPerLanguage)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let thresholds = String(decoding: try encoder.encode(Thresholds.default), as: UTF8.self) + "\n"
        return [
            (suiteFile, suite),
            ("profile.json", try read(ModelProfile.defaultResource)),
            ("thresholds.json", thresholds),
            ("corpora/chat.tsv", chat),
            ("corpora/detection.tsv", detection),
            ("README.md", readme),
        ]
    }

    /// The header, then the first `perLanguage` items of each language in `languages`, crisis-tagged items left out
    /// (a suite's own crisis items are the team's to write, with its own keywords).
    static func draw(_ tsv: String, languages: [String], perLanguage: Int) -> String {
        let lines = tsv.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let header = lines.first else { return "" }
        let columns = header.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        guard let lang = columns.firstIndex(of: "lang") else { return header + "\n" }
        let tags = columns.firstIndex(of: "tags")
        var taken: [String: [String]] = [:]
        for line in lines.dropFirst() where !line.isEmpty {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard fields.count > lang, languages.contains(String(fields[lang])), taken[String(fields[lang]), default: []].count < perLanguage else { continue }
            if let tags, fields.count > tags, fields[tags].split(separator: ";").contains("crisis") { continue }
            taken[String(fields[lang]), default: []].append(line)
        }
        return ([header] + languages.flatMap { taken[$0] ?? [] }).joined(separator: "\n") + "\n"
    }

    static let suite = """
    {
      "schema_version": 1,
      "detection": {
        "corpora": ["corpora/detection.tsv"],
        "configs": [
          {"name": "unconstrained"},
          {"name": "constrained", "candidates": "profile:supported + app:ru + device:en,uk"},
          {"name": "constrained+priors", "candidates": "profile:supported + app:ru + device:en,uk", "hints": {"ru": 0.5, "en": 0.35}}
        ]
      },
      "generation": {
        "corpora": ["corpora/chat.tsv"],
        "profile": "profile.json",
        "route": "both",
        "repeat": 1,
        "concurrency": 1,
        "warmup": 1,
        "seed": 42
      }
    }

    """

    static let readme = """
    # A LangBench suite

    Written by `langbench init`; runs as written. Paths in `bench.json` are relative to it, so run it from anywhere:

        langbench doctor                                # llama-server, model and LangBench's own files ready?
        langbench run --config bench.json --out Reports/first
        langbench compare Reports/first Reports/second --thresholds thresholds.json

    Edit first:
    1. `profile.json` — your app's prompts: `prompts.instructions` per reply language (written in that language,
       with one example exchange), `supported_languages` as your model declares them, and `model` if you ship
       another GGUF (a bare file name is looked up in LangBench's model cache; a path is relative to this file).
    2. `corpora/chat.tsv` — short messages like your users' (`id`, `lang`, `text`, `tags`, `history`); tag crisis
       messages `crisis` (they are never shown or logged, only counted).
    3. `bench.json` `detection.configs` — your app's candidate languages (`app:`), the device's (`device:`) and priors.
    4. `corpora/detection.tsv` — single words and short phrases in the languages your users write.
    5. `thresholds.json` — what counts as a regression in `compare`.

    Runs go to `Reports/` under the working directory (keep it out of version control). `report.md` says who was
    served in their own language, by route and language; `report.html` shows the same with the items.

    """
}
