import Detection
import Foundation
import Corpus
import Recognizer
import Suite

/// `langbench bench detector`: the built-in recognizer's single-word throughput, model load time and
/// memory, with a peer detector measured in the same run.
struct BenchDetectorCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "detector",
        abstract: "Measure the built-in recognizer's speed, load time and memory against a peer.",
        discussion: """
        Texts are the single-word items of the corpora, identified one at a time on one thread with the \
        corpora's languages as candidates. The peer (default: scripts/detectors/lingua when its virtualenv \
        exists) is timed over the same words through the exec line protocol, so its figure includes the pipe. \
        The last line is machine-readable: words_per_second=<N>. Build with -c release for meaningful figures.
        """,
        groups: [OptionGroup("Benchmark", [
            .repeated("corpus", "path", help: "Corpus to take single words from (default: Corpora/short-phrases.tsv and Corpora/cyrillic-confusables.tsv)."),
            .value("model", "file", help: "Recognizer model file.", computedDefault: RecognizerModelOption.bundled),
            .value("baseline-model", "file", help: "A second model file (e.g. the previous one) timed against --model in interleaved ABBA blocks."),
            .value("peer", "detector", help: "exec:<command> to compare with, or none.", computedDefault: "exec:scripts/detectors/lingua if set up"),
            .value("seconds", "s", help: "Minimum measuring time per detector.", default: "3"),
        ])]
    )

    let corpora: [String]
    let modelPath: String?
    let baselinePath: String?
    let peer: String?
    let seconds: Double

    init(_ arguments: ParsedArguments) throws {
        let given = arguments.values("corpus")
        corpora = given.isEmpty ? ["Corpora/short-phrases.tsv", "Corpora/cyrillic-confusables.tsv"] : given
        modelPath = arguments.value("model")
        baselinePath = arguments.value("baseline-model")
        peer = arguments.value("peer")
        seconds = try arguments.double("seconds")
    }

    func validate() throws {
        if seconds <= 0 { throw UsageError("--seconds must be positive", command: "langbench bench detector") }
        if let peer, peer != "none", DetectorKind(peer)?.isExec != true {
            throw UsageError("--peer must be exec:<command> or none", command: "langbench bench detector")
        }
    }

    func run(_ context: CommandContext) async throws -> ExitStatus {
        let url = try BuiltinDetector.modelURL(path: modelPath)
        let loads = try (0..<3).map { _ in try DetectorBenchmark.load(contentsOf: url) }
        let model = loads[0].model
        let corpus = try CorpusLoader().load(corpora.filter { FileManager.default.fileExists(atPath: $0) || !corpora.isEmpty })
        let words = corpus.items.filter { !$0.text.contains(where: \.isWhitespace) }.map(\.text)
        let candidates = Array(Set(corpus.items.map(\.lang.identifier))).sorted()
        guard !words.isEmpty else { throw UsageError("the corpora have no single-word items", command: "langbench bench detector") }
        try RecognizerModelOption.validate(candidates, model: model, option: "corpus", command: "langbench bench detector")

        let recognizer = LanguageRecognizer(model: model, constraints: candidates)
        let builtin = DetectorBenchmark.throughput(texts: words, minimumSeconds: seconds) { recognizer.recognize($0).dominantLanguage }
        // try?: the size is shown only, of a model just loaded from this path; 0 MiB says it could not be read.
        var out = DetectorBenchFigures(modelPath: url.path, modelBytes: (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? 0,
                                      loadMilliseconds: loads.map(\.milliseconds).min()!, residentBytes: loads[0].residentBytes,
                                      words: words.count, corpora: corpora.count, candidates: candidates.count,
                                      builtinWordsPerSecond: builtin.textsPerSecond)
        if let baselinePath {
            let baselineURL = URL(fileURLWithPath: baselinePath)
            let baselineLoads = try (0..<3).map { _ in try DetectorBenchmark.load(contentsOf: baselineURL) }
            try RecognizerModelOption.validate(candidates, model: baselineLoads[0].model, option: "corpus", command: "langbench bench detector")
            let baseline = LanguageRecognizer(model: baselineLoads[0].model, constraints: candidates)
            let rates = DetectorBenchmark.pairedThroughput(texts: words, pairs: 6, secondsPerBlock: seconds / 6,
                                                           a: { recognizer.recognize($0).dominantLanguage },
                                                           b: { baseline.recognize($0).dominantLanguage })
            out.baseline = .init(path: baselinePath, loadMilliseconds: baselineLoads.map(\.milliseconds).min()!,
                                 modelWordsPerSecond: rates.a, baselineWordsPerSecond: rates.b)
        }
        if let command = peerCommand() {
            context.note("measuring peer exec:\(command) (first use may install it)")
            out.peer = await DetectorBenchFigures.Peer.measure(command: command, words: words, candidates: candidates, seconds: seconds)
        }
        context.stdout.write(out.text)
        return .success
    }

    private func peerCommand() -> String? {
        if let peer { return if case .exec(let command) = DetectorKind(peer) { command } else { nil } }
        let lingua = "scripts/detectors/lingua"
        let venv = FileManager.default.fileExists(atPath: ".venv-detectors/lingua/bin/python")
        return FileManager.default.isExecutableFile(atPath: lingua) && venv ? lingua : nil
    }
}
