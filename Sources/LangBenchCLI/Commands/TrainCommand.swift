import Support
import Foundation
import Recognizer
import ByteIO

/// `langbench train`: builds the recognizer's model from lists exported by `scripts/train-model`.
struct TrainCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "train",
        abstract: "Build the built-in recognizer's model from exported word lists.",
        discussion: """
        Normally run by scripts/train-model, which exports the lists first. The same lists give the same \
        model file byte for byte; --check compares instead of writing (exit 1 when they differ). \
        --held-out writes nothing: it trains without a held-out slice of the lists, fits the per-language \
        biases on the tuning half of that slice and prints the accuracy on the other half without biases, \
        with the fitted ones and with the trainer's (the figures the settings were tuned on; never on \
        evaluation corpora).
        """,
        groups: [OptionGroup("Training", [
            .value("lists", "dir", help: "Folder with manifest.tsv and <lang>.tsv lists from scripts/train-model --export-only."),
            .value("out", "file", help: "Model file to write.", default: "Models/recognizer.lbrm"),
            .flag("check", help: "Compare with the existing --out file instead of writing it."),
            .flag("held-out", help: "Measure accuracy on a held-out slice of the lists instead of writing a model."),
            .flag("without-added-forms", help: "With --held-out: train without the dictionary forms the export added (same items)."),
            .flag("tuning-half", help: "With --held-out: report on the tuning half (to choose settings) instead of the report half."),
            .value("candidates", "codes", help: "With --held-out: also measure with these languages as candidates (comma-separated)."),
        ])]
    )

    let lists: String?
    let out: String
    let check: Bool
    let heldOut: Bool
    let withoutAddedForms: Bool
    let candidates: [String]
    let tuningHalf: Bool

    init(_ arguments: ParsedArguments) throws {
        lists = arguments.value("lists")
        out = try arguments.string("out")
        check = arguments.flag("check")
        heldOut = arguments.flag("held-out")
        withoutAddedForms = arguments.flag("without-added-forms")
        tuningHalf = arguments.flag("tuning-half")
        candidates = arguments.value("candidates").map { $0.split(separator: ",").map(String.init) } ?? []
    }

    func validate() throws {
        if lists == nil { throw UsageError("--lists is required (scripts/train-model --export-only prints the folder)", command: "langbench train") }
        if (withoutAddedForms || tuningHalf || !candidates.isEmpty) && !heldOut {
            throw UsageError("--without-added-forms, --tuning-half and --candidates need --held-out", command: "langbench train")
        }
    }

    func run(_ context: CommandContext) async throws -> ExitStatus {
        let wordLists = try WordList.readExport(directory: URL(fileURLWithPath: lists!))
        let unknown = candidates.filter { code in !wordLists.contains { $0.language == code } }
        if !unknown.isEmpty {
            throw UsageError("--candidates: no list for \(unknown.joined(separator: ",")); use codes of the export's manifest",
                             command: "langbench train")
        }
        context.note("training on \(wordLists.count) lists (\(wordLists.map(\.words.count).reduce(0, +)) words)")
        if heldOut {
            context.stdout.write(try Self.heldOutReport(wordLists, trainOnAddedForms: !withoutAddedForms, listed: candidates,
                                                           reportOnTuningHalf: tuningHalf))
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
}
