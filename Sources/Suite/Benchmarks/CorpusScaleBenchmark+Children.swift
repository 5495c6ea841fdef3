import Support
import Foundation
import Corpus
import Detection
import Recognizer

extension CorpusScaleBenchmark {
    /// The recognizer's single-thread words/s (wall, and per CPU second of this thread) over `texts` with the
    /// benchmark's candidates, measured in this process for at least `seconds` (what a raw-speed child does).
    package static func rawSpeed(texts: [String], seconds: Double) throws -> CorpusScaleSchedule.RawSpeed {
        let model = try LanguageModel(contentsOf: try BuiltinDetector.modelURL(path: nil))
        let recognizer = LanguageRecognizer(model: model, constraints: languages)
        let cpu = SystemCall.cpuSeconds(children: false) ?? 0
        let measured = DetectorBenchmark.throughput(texts: texts, minimumSeconds: seconds) { recognizer.recognize($0).dominantLanguage }
        let used = (SystemCall.cpuSeconds(children: false) ?? 0) - cpu
        return CorpusScaleSchedule.RawSpeed(wall: measured.textsPerSecond, cpu: used > 0 ? Double(measured.texts) / used : 0)
    }
}

extension CorpusScaleSchedule.Probes {
    /// Each measurement in child processes of `probe`: the raw speed by `rawArguments` (a child that prints
    /// `RawSpeed`), `rawProcesses` fresh ones per block; `detect` over `corpus` into `directory/detect-jobsN`.
    package static func children(_ probe: ChildProbe, rawArguments: [String], rawProcesses: Int, corpus: URL, directory: URL) -> Self {
        Self(
            rawBlock: { try (0..<rawProcesses).map { _ in try probe.measure(rawArguments, as: CorpusScaleSchedule.RawSpeed.self).figures } },
            rawTogether: { try probe.measureTogether($0, rawArguments, as: CorpusScaleSchedule.RawSpeed.self).map(\.wall) },
            detect: { jobs in
                let out = directory.appendingPathComponent("detect-jobs\(jobs)")
                let cpuBefore = SystemCall.cpuSeconds(children: true) ?? 0
                let wall = try probe.run(["detect", "--corpus", corpus.path, "--candidates", CorpusScaleBenchmark.languages.joined(separator: ","),
                                          "--out", out.path, "--quiet", "--jobs", String(jobs)])
                let cpu = (SystemCall.cpuSeconds(children: true) ?? 0) - cpuBefore
                let timings = try DetectionOutput.read(out.path).timings
                let recognizer = timings.allSatisfy { $0.cpuSeconds != nil } ? timings.compactMap(\.cpuSeconds).reduce(0, +) : nil
                return CorpusScaleSchedule.Detected(wallSeconds: wall, cpuSeconds: cpu, outputBytes: try CorpusScaleBenchmark.directoryBytes(out),
                                                    recognizerCPUSeconds: recognizer)
            })
    }
}
