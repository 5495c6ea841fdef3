import Foundation

/// One language's training list, as exported by `scripts/train-model`: folded words with a weight.
public struct WordList: Sendable, Equatable {
    /// How to read the weights.
    public enum Kind: String, Sendable, Codable {
        /// Weights are corpus frequencies (wordfreq).
        case frequency
        /// Every word is a valid form without a frequency (hunspell expansions); weights are ignored.
        case forms
    }

    public var language: String
    public var kind: Kind
    public var words: [(word: [UInt32], weight: Double)]
    /// Words of a frequency list that are dictionary forms added by the export (marked `form` in the list),
    /// not measured frequencies; the held-out split measures them as their own slices.
    public var addedForms: Set<[UInt32]> = []
    /// The export manifest's line for this list (source, sha256), recorded in the model's provenance.
    public var source: String

    public init(language: String, kind: Kind, words: [(word: String, weight: Double)], source: String = "") {
        self.language = language
        self.kind = kind
        self.words = words.map { (Array($0.word.unicodeScalars.map(\.value)), $0.weight) }
        self.source = source
    }

    init(language: String, kind: Kind, scalarWords: [(word: [UInt32], weight: Double)], source: String,
         addedForms: Set<[UInt32]> = []) {
        self.language = language
        self.kind = kind
        self.words = scalarWords
        self.source = source
        self.addedForms = addedForms
    }

    public static func == (a: WordList, b: WordList) -> Bool {
        a.language == b.language && a.kind == b.kind && a.source == b.source && a.words.count == b.words.count
            && a.addedForms == b.addedForms && zip(a.words, b.words).allSatisfy { $0.word == $1.word && $0.weight == $1.weight }
    }

    /// The script of the list: that of most of its first thousand words.
    var script: Script? {
        var counts: [Script: Int] = [:]
        for entry in words.prefix(1000) {
            if let first = entry.word.first, let s = Script.of(first) { counts[s, default: 0] += 1 }
        }
        return counts.max { $0.value != $1.value ? $0.value < $1.value : $0.key > $1.key }?.key
    }

    /// Reads every list of an export folder (`manifest.tsv` + `<lang>.tsv`).
    public static func readExport(directory: URL) throws -> [WordList] {
        let manifestURL = directory.appendingPathComponent("manifest.tsv")
        guard let manifest = try? String(contentsOf: manifestURL, encoding: .utf8) else {
            throw TrainingError.missingExport(path: manifestURL.path)
        }
        var lists: [WordList] = []
        for (n, line) in manifest.split(separator: "\n").enumerated() where !line.hasPrefix("#") {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard fields.count >= 5, let kind = Kind(rawValue: fields[1]) else {
                throw TrainingError.malformedList(path: manifestURL.path, line: n + 1)
            }
            if let package = EvaluationSources.package(in: fields[4]) {
                throw TrainingError.evaluationSource(path: manifestURL.path, line: n + 1, package: package)
            }
            let url = directory.appendingPathComponent("\(fields[0]).tsv")
            lists.append(try read(url: url, language: fields[0], kind: kind, source: String(line)))
        }
        return lists.sorted { $0.language < $1.language }
    }

    /// Reads one `word<TAB>weight[<TAB>form]` list (`form` marks a dictionary form added by the export).
    public static func read(url: URL, language: String, kind: Kind, source: String) throws -> WordList {
        guard let data = try? Data(contentsOf: url) else { throw TrainingError.missingExport(path: url.path) }
        var words: [(word: [UInt32], weight: Double)] = []
        var added = Set<[UInt32]>()
        var lineNumber = 0
        for line in data.split(separator: UInt8(ascii: "\n")) {
            lineNumber += 1
            let fields = line.split(separator: UInt8(ascii: "\t"), omittingEmptySubsequences: false)
            guard fields.count == 2 || (fields.count == 3 && fields[2].elementsEqual("form".utf8)),
                  let weight = Double(String(decoding: fields[1], as: UTF8.self)) else {
                throw TrainingError.malformedList(path: url.path, line: lineNumber)
            }
            let word = Array(String(decoding: fields[0], as: UTF8.self).unicodeScalars.map(\.value))
            words.append((word, weight))
            if fields.count == 3 { added.insert(word) }
        }
        return WordList(language: language, kind: kind, scalarWords: words, source: source, addedForms: added)
    }
}

/// Why training could not run.
public enum TrainingError: Error, Equatable, CustomStringConvertible {
    case missingExport(path: String)
    case malformedList(path: String, line: Int)
    case noLists
    /// A list comes from a package the outside evaluation corpus is built from.
    case evaluationSource(path: String, line: Int, package: String)

    public var description: String {
        switch self {
        case let .missingExport(path): "cannot read \(path); export the lists first with scripts/train-model --export-only"
        case let .malformedList(path, line): "\(path):\(line): expected word<TAB>weight (and optionally <TAB>form); re-export with scripts/train-model"
        case .noLists: "no word lists to train on"
        case let .evaluationSource(path, line, package):
            "\(path):\(line): \(package) is a source of the outside evaluation corpus; training on it would measure the model on its own training text"
        }
    }
}
