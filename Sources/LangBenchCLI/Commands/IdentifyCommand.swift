import Foundation
import Corpus
import Recognizer

/// `langbench identify TEXT...`: ranked language hypotheses from the built-in recognizer.
struct IdentifyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "identify",
        abstract: "Identify the language of short texts with the built-in recognizer.",
        discussion: """
        Prints each text's ranked hypotheses (probabilities sum to 1 over the candidates), or 'und' when the \
        text has no letters. Hints are prior weights (prior × likelihood, renormalised); a candidate without \
        a hint weighs 1/N. Example: langbench identify --candidates ru,uk,bg --hints ru=0.5 "Привет, как дела?"
        """,
        arguments: [ArgumentSpec("texts", help: "Texts to identify (one hypothesis list each).", repeating: true, optional: true)],
        groups: [OptionGroup("Recognition", [
            .value("candidates", "codes", help: "Candidate languages, e.g. ru,uk,bg.", computedDefault: "every language of the model"),
            .value("hints", "weights", help: "Prior weights, e.g. ru=0.5,en=0.35."),
            .value("max", "n", help: "Hypotheses to print per text.", default: "5"),
            .value("model", "file", help: "Recognizer model file.", computedDefault: RecognizerModelOption.bundled),
            .flag("json", help: "Print one JSON object per text."),
            .flag("model-info", help: "Print the model's languages, tables and provenance instead."),
        ])]
    )

    let texts: [String]
    let candidates: [String]
    let hints: [String: Double]
    let maximum: Int
    let modelPath: String?
    let json: Bool
    let modelInfo: Bool

    init(_ arguments: ParsedArguments) throws {
        texts = arguments.positionals
        candidates = try arguments.value("candidates").map(DetectorOptions.codes)?.map(\.identifier) ?? []
        if arguments.value("candidates") != nil && candidates.isEmpty {
            throw UsageError("--candidates names no language; leave it out for every language of the model", command: "langbench identify")
        }
        hints = Dictionary(uniqueKeysWithValues: try (arguments.value("hints").map(DetectorOptions.parseHints) ?? [:])
            .map { ($0.key.identifier, $0.value) })
        maximum = try arguments.int("max", range: 1...1000)
        modelPath = arguments.value("model")
        json = arguments.flag("json")
        modelInfo = arguments.flag("model-info")
    }

    func validate() throws {
        if texts.isEmpty && !modelInfo { throw UsageError("give at least one text to identify", command: "langbench identify") }
        if maximum < 1 { throw UsageError("--max must be at least 1", command: "langbench identify") }
    }

    func run(_ context: CommandContext) async throws -> ExitStatus {
        let model = try RecognizerModelOption.loadModel(path: modelPath)
        if modelInfo {
            context.stdout.write(IdentifyOutput.modelInfo(model))
            return .success
        }
        try RecognizerModelOption.validate(candidates, model: model, option: "candidates", command: "langbench identify")
        try RecognizerModelOption.validate(Array(hints.keys), model: model, option: "hints", command: "langbench identify")
        let recognizer = LanguageRecognizer(model: model, constraints: candidates, hints: hints)
        for text in texts {
            let result = recognizer.recognize(text)
            context.stdout.write(json ? IdentifyOutput.json(text, result, maximum: maximum)
                                      : IdentifyOutput.text(text, result, maximum: maximum))
        }
        return .success
    }
}

/// Renders `identify` results (as strings, so that they can be tested without a process).
enum IdentifyOutput {
    static func text(_ text: String, _ result: Recognition, maximum: Int) -> String {
        var out = "\(text)\n"
        switch result.evidence {
        case .noLetters: return out + "  und  (no letters)\n"
        case .noCandidates: return out + "  und  (no candidate language is known to the model)\n"
        case .priorOnly: out += "  (no letters in a candidate's script: hypotheses are the prior)\n"
        case .script: break
        }
        for h in result.hypotheses.prefix(maximum) {
            out += "  " + h.language.padding(toLength: 8, withPad: " ", startingAt: 0) + String(format: "%.4f", h.probability) + "\n"
        }
        return out
    }

    static func json(_ text: String, _ result: Recognition, maximum: Int) -> String {
        struct Line: Encodable {
            struct Entry: Encodable { var lang: String; var p: Double }
            var text: String
            var language: String
            var evidence: String
            var hypotheses: [Entry]
        }
        let evidence: String = switch result.evidence {
        case .noLetters: "no-letters"
        case .noCandidates: "no-candidates"
        case .priorOnly: "prior-only"
        case .script(let script): "script:\(script)"
        }
        let line = Line(text: text, language: result.languageOrUndetermined, evidence: evidence,
                        hypotheses: result.hypotheses.prefix(maximum).map { .init(lang: $0.language, p: $0.probability) })
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (String(data: (try? encoder.encode(line)) ?? Data(), encoding: .utf8) ?? "{}") + "\n"
    }

    static func modelInfo(_ model: LanguageModel) -> String {
        var out = "languages: \(model.languages.joined(separator: ","))\n"
        out += "parameters: lambda=\(model.parameters.lambda) token-evidence-cap=\(model.parameters.tokenEvidenceCap)\n"
        out += model.tableSummary.map { "table: \($0)\n" }.joined()
        out += "licence: \(model.metadata.licence)\n"
        out += model.metadata.training.map { "training: \($0)\n" }.joined()
        out += model.metadata.sources.map { "source: \($0)\n" }.joined()
        return out
    }
}
