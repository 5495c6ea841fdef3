import Detection
import Foundation
import Corpus
import Suite
import Recognizer

// langbench-client MODEL OUT: the recognizer on one text with constraints, then a detection job over two items, as a
// package outside LangBench calls them. Prints one line per result.
let arguments = CommandLine.arguments
guard arguments.count == 3 else {
    FileHandle.standardError.write(Data("usage: langbench-client MODEL OUT\n".utf8))
    exit(64)
}
let model = try LanguageModel(contentsOf: URL(fileURLWithPath: arguments[1]))
let recognizer = LanguageRecognizer(model: model, constraints: ["ru", "uk"])
print("recognized:", recognizer.recognize("привіт").hypotheses.first?.language ?? "und")

let items = [CorpusItem(id: "a", lang: try LanguageCode("uk"), text: "дякую"), CorpusItem(id: "b", lang: try LanguageCode("ru"), text: "спасибо")]
let job = DetectionJob(corpus: Corpus(items: items, sources: []), configs: [DetectionConfig(name: "plain")], supported: [],
                       factory: DetectorFactory(recognizerModel: arguments[1]), directory: URL(fileURLWithPath: arguments[2]),
                       command: ["langbench-client"], resume: false, jobs: 1)
let report = try await job.run()
print("accuracy:", report.metrics(config: "plain")?.accuracy ?? -1)
