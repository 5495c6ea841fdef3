import Detection
import Foundation
import Corpus

/// The figures of one `bench detector` run, rendered as text.
package struct DetectorBenchFigures {
    package struct Peer {
        package var name: String
        package var wordsPerSecond: Double?
        package var startupSeconds: Double?
        package var failure: String?

        /// A peer detector (`exec:` command) timed over `words` for at least `seconds`, after a first call that starts it.
        package static func measure(command: String, words: [String], candidates: [String], seconds: Double) async -> Peer {
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

    package var modelPath: String
    package var modelBytes: Int
    package var loadMilliseconds: Double
    package var residentBytes: Int?
    package var words: Int
    package var corpora: Int
    package var candidates: Int
    package var builtinWordsPerSecond: Double
    package var peer: Peer?
    package var baseline: Baseline?

    package init(modelPath: String, modelBytes: Int, loadMilliseconds: Double, residentBytes: Int?, words: Int, corpora: Int, candidates: Int,
                 builtinWordsPerSecond: Double) {
        (self.modelPath, self.modelBytes, self.loadMilliseconds, self.residentBytes) = (modelPath, modelBytes, loadMilliseconds, residentBytes)
        (self.words, self.corpora, self.candidates, self.builtinWordsPerSecond) = (words, corpora, candidates, builtinWordsPerSecond)
    }

    /// A second model timed against the first in interleaved blocks.
    package struct Baseline {
        package var path: String
        package var loadMilliseconds: Double
        /// Words/s per block, the model's and the baseline's, paired by block.
        package var modelWordsPerSecond: [Double]
        package var baselineWordsPerSecond: [Double]

        package init(path: String, loadMilliseconds: Double, modelWordsPerSecond: [Double], baselineWordsPerSecond: [Double]) {
            (self.path, self.loadMilliseconds, self.modelWordsPerSecond, self.baselineWordsPerSecond) = (path, loadMilliseconds, modelWordsPerSecond, baselineWordsPerSecond)
        }

        /// Per-pair ratios model / baseline, sorted.
        package var ratios: [Double] { zip(modelWordsPerSecond, baselineWordsPerSecond).map { $0 / $1 }.sorted() }
        package var medianRatio: Double {
            let r = ratios
            return r.count % 2 == 1 ? r[r.count / 2] : (r[r.count / 2 - 1] + r[r.count / 2]) / 2
        }
    }

    package var text: String {
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
