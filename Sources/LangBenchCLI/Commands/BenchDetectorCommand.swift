import Detection
import Foundation
import Corpus
import Recognizer

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
        var out = BenchDetectorOutput(modelPath: url.path, modelBytes: (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? 0,
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
            out.peer = await Self.measurePeer(command: command, words: words, candidates: candidates, seconds: seconds)
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

    static func measurePeer(command: String, words: [String], candidates: [String], seconds: Double) async -> BenchDetectorOutput.Peer {
        let detector = ExternalDetector(command: command, timeout: .seconds(600))
        let codes = candidates.map { LanguageCode(normalised: $0) }
        let startup = DispatchTime.now().uptimeNanoseconds
        if case .failed(let reason) = await detector.identify(words[0], candidates: codes, hints: [:]) {
            await detector.shutdown()
            return .init(name: detector.name, wordsPerSecond: nil, startupSeconds: nil, failure: reason)
        }
        let started = Double(DispatchTime.now().uptimeNanoseconds - startup) / 1e9
        var count = 0
        let begin = DispatchTime.now().uptimeNanoseconds
        var elapsed = 0.0
        repeat {
            for word in words {
                _ = await detector.identify(word, candidates: codes, hints: [:])
                count += 1
            }
            elapsed = Double(DispatchTime.now().uptimeNanoseconds - begin) / 1e9
        } while elapsed < seconds
        await detector.shutdown()
        return .init(name: detector.name, wordsPerSecond: Double(count) / elapsed, startupSeconds: started, failure: nil)
    }
}

/// The figures of one `bench detector` run, rendered as text.
struct BenchDetectorOutput {
    struct Peer {
        var name: String
        var wordsPerSecond: Double?
        var startupSeconds: Double?
        var failure: String?
    }

    var modelPath: String
    var modelBytes: Int
    var loadMilliseconds: Double
    var residentBytes: Int?
    var words: Int
    var corpora: Int
    var candidates: Int
    var builtinWordsPerSecond: Double
    var peer: Peer?
    var baseline: Baseline?

    /// A second model timed against the first in interleaved blocks.
    struct Baseline {
        var path: String
        var loadMilliseconds: Double
        /// Words/s per block, the model's and the baseline's, paired by block.
        var modelWordsPerSecond: [Double]
        var baselineWordsPerSecond: [Double]

        /// Per-pair ratios model / baseline, sorted.
        var ratios: [Double] { zip(modelWordsPerSecond, baselineWordsPerSecond).map { $0 / $1 }.sorted() }
        var medianRatio: Double {
            let r = ratios
            return r.count % 2 == 1 ? r[r.count / 2] : (r[r.count / 2 - 1] + r[r.count / 2]) / 2
        }
    }

    var text: String {
        var out = "model: \(modelPath) (\(String(format: "%.1f", Double(modelBytes) / 1_048_576)) MiB)\n"
        out += "load: \(String(format: "%.1f", loadMilliseconds)) ms (best of 3)"
        out += residentBytes.map { ", resident +\(String(format: "%.1f", Double($0) / 1_048_576)) MiB\n" } ?? "\n"
        out += "texts: \(words) single words from \(corpora) corpora, \(candidates) candidate languages, 1 thread\n"
        out += "builtin: \(Int(builtinWordsPerSecond)) words/s\n"
        if let baseline, !baseline.ratios.isEmpty {
            let median = { (v: [Double]) in v.sorted()[v.count / 2] }
            out += "baseline model: \(baseline.path), load \(String(format: "%.1f", baseline.loadMilliseconds)) ms (best of 3)\n"
            out += "model vs baseline, \(baseline.ratios.count) interleaved ABBA block pairs: \(Int(median(baseline.modelWordsPerSecond))) vs "
                + "\(Int(median(baseline.baselineWordsPerSecond))) words/s (medians), ratio \(String(format: "%.3f", baseline.medianRatio)) "
                + "(median; pairs \(String(format: "%.3f", baseline.ratios.first!))–\(String(format: "%.3f", baseline.ratios.last!)))\n"
        }
        if let peer {
            if let rate = peer.wordsPerSecond {
                out += "peer \(peer.name): \(Int(rate)) words/s (started in \(String(format: "%.1f", peer.startupSeconds ?? 0)) s), "
                out += "builtin is \(String(format: "%.0f", builtinWordsPerSecond / rate))× faster\n"
            } else {
                out += "peer \(peer.name): failed: \(peer.failure ?? "unknown")\n"
            }
        } else {
            out += "peer: none (set one up with scripts/detectors/lingua, or pass --peer exec:<command>)\n"
        }
        out += "words_per_second=\(Int(builtinWordsPerSecond))\n"
        return out
    }
}
