import BenchSupport
import Foundation
import LlamaBackend
import LangBench
import LanguageRecognition

/// `langbench train`: builds the recognizer's model from lists exported by `scripts/train-model`.
struct TrainCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "train",
        abstract: "Build the built-in recognizer's model from exported word lists.",
        discussion: """
        Normally run by scripts/train-model, which exports the lists first. The same lists give the same \
        model file byte for byte; --check compares instead of writing (exit 1 when they differ). \
        --held-out writes nothing: it trains without a held-out slice of the lists and prints the accuracy on \
        it (the figures the settings were tuned on; never on evaluation corpora).
        """,
        groups: [OptionGroup("Training", [
            .value("lists", "dir", help: "Folder with manifest.tsv and <lang>.tsv lists from scripts/train-model --export-only."),
            .value("out", "file", help: "Model file to write.", default: "Models/recognizer.lbrm"),
            .flag("check", help: "Compare with the existing --out file instead of writing it."),
            .flag("held-out", help: "Measure accuracy on a held-out slice of the lists instead of writing a model."),
        ])]
    )

    let lists: String?
    let out: String
    let check: Bool
    let heldOut: Bool

    init(_ arguments: ParsedArguments) throws {
        lists = arguments.value("lists")
        out = try arguments.string("out")
        check = arguments.flag("check")
        heldOut = arguments.flag("held-out")
    }

    func validate() throws {
        if lists == nil { throw UsageError("--lists is required (scripts/train-model --export-only prints the folder)", command: "langbench train") }
    }

    func run(_ context: CommandContext) async throws -> ExitStatus {
        let wordLists = try WordList.readExport(directory: URL(fileURLWithPath: lists!))
        context.note("training on \(wordLists.count) lists (\(wordLists.map(\.words.count).reduce(0, +)) words)")
        if heldOut {
            context.stdout.write(try Self.heldOutReport(wordLists))
            return .success
        }
        let data = try Trainer.trainModelFile(lists: wordLists)
        let url = URL(fileURLWithPath: out)
        let digest = SHA256.hex(data)
        if check {
            // A missing file is "different"; one that exists but cannot be read is an error, not a verdict.
            let existing = FileManager.default.fileExists(atPath: url.path) ? try ReportError.reading(url) { try Data(contentsOf: url) } : nil
            let same = existing == data
            context.stdout.write("\(same ? "identical" : "different"): \(out) (built \(data.count) bytes, sha256 \(digest))\n")
            return same ? .success : .checkFailed
        }
        try AtomicFile.write(data, to: url)
        context.stdout.write("wrote \(out): \(data.count) bytes, sha256 \(digest)\n")
        return .success
    }

    /// Accuracy (macro over languages) per held-out slice, with every language as a candidate and with
    /// the Cyrillic ones only.
    static func heldOutReport(_ lists: [WordList]) throws -> String {
        let split = HeldOutSplit(lists: lists)
        let model = try Trainer.train(lists: split.training)
        let all = lists.map(\.language)
        let cyrillic = all.filter { model.script(of: $0) == .cyrillic }
        var out = "slice\tcandidates\tn\tmacro_accuracy\n"
        var perLanguage = ""
        for (name, candidates) in [("all", all), ("cyrillic", cyrillic)] {
            let recognizer = LanguageRecognizer(model: model, constraints: candidates)
            let items = split.items.filter { candidates.contains($0.language) }
            let evaluation = AccuracyEvaluation(items: items) { recognizer.recognize($0).dominantLanguage }
            let slices = evaluation.sliceNames.filter { $0 != "all" }
            for slice in evaluation.sliceNames {
                let n = evaluation.items(slice)
                out += "\(slice)\t\(name)\t\(n)\t" + String(format: "%.4f", evaluation.macroAccuracy(slice)) + "\n"
            }
            // Per language: accuracy (recall) in each slice, the table docs/recognizer.md shows.
            perLanguage += "\nlanguage\tcandidates\t" + slices.joined(separator: "\t") + "\n"
            for language in candidates where items.contains(where: { $0.language == language }) {
                let cells = slices.map { String(format: "%.1f", (evaluation.slices[$0]?.labels[language]?.recall ?? 0) * 100) }
                perLanguage += "\(language)\t\(name)\t" + cells.joined(separator: "\t") + "\n"
            }
        }
        return out + perLanguage
    }
}
