import Foundation
import Support

/// `corpus import`: localisation files of several languages and sources turned into one single-label detection
/// corpus and one multi-label ambiguity list. A text found in more than one language is never a single-label item.
/// Each language's items are drawn evenly across sources (none above half) and length buckets, in an order keyed
/// on the text and the seed, so the files' order does not change the result.
package struct CorpusImport: Sendable {
    /// One input: files of one language (or a String Catalog's languages) from one source.
    package struct Input: Sendable, Equatable {
        package var source: String
        package var language: LanguageCode?
        package var path: String
        package init(source: String, language: LanguageCode?, path: String) {
            self.source = source
            self.language = language
            self.path = path
        }
    }

    /// A chosen item before it is written.
    package struct Phrase: Sendable, Hashable {
        package var language: LanguageCode
        package var text: String
        package var source: String
        package var cluster: String
        package var bucket: LengthBucket
    }

    /// The corpus, the ambiguity list and what was read and left out, per language.
    package struct Result: Sendable {
        package var items: [CorpusItem]
        /// Texts found in more than one language: every label, the sources.
        package var ambiguous: [(text: String, languages: [LanguageCode], sources: [String])]
        /// Per language: unique single-label candidates by source, and rejections by reason.
        package var available: [LanguageCode: [String: Int]]
        package var rejected: [LanguageCode: [String: Int]]
    }

    package var inputs: [Input]
    package var filter = PhraseFilter()
    /// Items wanted per language (`--per-language`); a language with fewer candidates gives all it has.
    package var perLanguage = 2000
    /// Largest share of a language's items one source may give (`--max-source-share`).
    package var maxSourceShare = 0.5
    package var seed: UInt64 = 42
    /// The prefix of every item id (`--id-prefix`).
    package var idPrefix = "out"
    /// The corpus every item is tagged as (`corpus:<name>`, `--corpus-tag`): a report slices its items on their own.
    package var corpusTag: String?

    package init(inputs: [Input]) { self.inputs = inputs }

    package func run() throws(ImportError) -> Result {
        var read: [(source: String, language: LanguageCode, string: LocalisedString)] = []
        for input in inputs {
            let files = try Self.files(input.path)
            for file in files {
                guard let format = LocalisationFormat(path: file) else { continue }
                for (language, strings) in try format.read(file, language: input.language) {
                    guard let language = language ?? input.language else { throw .noLanguage(path: file) }
                    read += strings.map { (input.source, language, $0) }
                }
            }
        }
        let english = Set(read.filter { $0.language.language == "en" }.map { PhraseFilter.cleaned($0.string.text).lowercased() }
                          + read.compactMap { $0.string.english.map { PhraseFilter.cleaned($0).lowercased() } })
        var rejected: [LanguageCode: [String: Int]] = [:]
        var candidates: [String: [LanguageCode: Phrase]] = [:]
        for (source, language, string) in read {
            if let reason = filter.rejection(string, language: language, english: english) {
                rejected[language, default: [:]][reason, default: 0] += 1
                continue
            }
            let text = PhraseFilter.cleaned(string.text)
            let phrase = Phrase(language: language, text: text, source: source, cluster: Self.tagValue(string.cluster),
                                bucket: LengthBucket(text: text, lang: language))
            // The same text twice in one language keeps the first source by name: file order does not matter.
            if let kept = candidates[text]?[language], (kept.source, kept.cluster) <= (source, phrase.cluster) { continue }
            candidates[text, default: [:]][language] = phrase
        }
        var byLanguage: [LanguageCode: [Phrase]] = [:]
        var ambiguous: [(String, [LanguageCode], [String])] = []
        for (text, languages) in candidates {
            if languages.count > 1 {
                ambiguous.append((text, languages.keys.sorted(), Set(languages.values.map(\.source)).sorted()))
            } else if let phrase = languages.values.first {
                byLanguage[phrase.language, default: []].append(phrase)
            }
        }
        var items: [CorpusItem] = [], available: [LanguageCode: [String: Int]] = [:]
        for (language, phrases) in byLanguage {
            for phrase in phrases { available[language, default: [:]][phrase.source, default: 0] += 1 }
            items += choose(phrases).map(item)
        }
        items.sort { ($0.lang.identifier, $0.id) < ($1.lang.identifier, $1.id) }
        ambiguous.sort { $0.0 < $1.0 }
        if items.isEmpty { throw .noUsableItem(paths: inputs.map(\.path)) }
        return Result(items: items, ambiguous: ambiguous, available: available, rejected: rejected)
    }

    /// Up to `perLanguage` phrases of one language, dealt in turn from each (source, length bucket) cell in the
    /// seeded order until the cells run dry; a source stops at its share.
    func choose(_ phrases: [Phrase]) -> [Phrase] {
        var cells: [String: [Phrase]] = [:]
        for phrase in phrases { cells["\(phrase.source)\t\(phrase.bucket.rawValue)", default: []].append(phrase) }
        var queues = cells.keys.sorted().map { key in cells[key]!.sorted { rank($0.text) < rank($1.text) }[...] }
        let cap = max(1, Int((Double(perLanguage) * maxSourceShare).rounded(.down)))
        var chosen: [Phrase] = [], perSource: [String: Int] = [:]
        while chosen.count < perLanguage, queues.contains(where: { !$0.isEmpty }) {
            for index in queues.indices where chosen.count < perLanguage {
                guard let next = queues[index].first else { continue }
                guard perSource[next.source, default: 0] < cap else { queues[index] = []; continue }
                queues[index] = queues[index].dropFirst()
                chosen.append(next)
                perSource[next.source, default: 0] += 1
            }
        }
        return chosen
    }

    func rank(_ text: String) -> UInt64 {
        var hash = FNV1a64()
        hash.add(littleEndian: seed)
        hash.add(text)
        return hash.value
    }

    func item(_ phrase: Phrase) -> CorpusItem {
        var tags: Set<String> = ["source:\(phrase.source)", "cluster:\(phrase.cluster)", Self.sliceTag(phrase.bucket)]
        if let letters = CyrillicLetters.tag(phrase.text, language: phrase.language) { tags.insert(letters) }
        if let corpusTag { tags.insert("corpus:\(corpusTag)") }
        var hash = FNV1a64()
        hash.add(phrase.text)
        let id = "\(idPrefix)-\(phrase.language.identifier)-\(FNV1a64.hex(hash.value).prefix(12))"
        return CorpusItem(id: id, lang: phrase.language, text: phrase.text, tags: tags)
    }

    /// lingua's names for the length slices, as the authored corpora use them.
    static func sliceTag(_ bucket: LengthBucket) -> String {
        switch bucket {
        case .one: "single-words"
        case .twoToThree: "word-pairs"
        case .fourToEight, .ninePlus: "sentences"
        }
    }

    /// A cluster as a tag value: no separator or space.
    static func tagValue(_ raw: String) -> String {
        String(raw.map { $0 == ";" || $0.isWhitespace ? "_" : $0 })
    }

    /// The localisation files at `path`: the file itself, or every file under the folder in path order.
    static func files(_ path: String) throws(ImportError) -> [String] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw .unreadable(path: path, reason: "no such file or directory")
        }
        guard isDirectory.boolValue else {
            guard LocalisationFormat(path: path) != nil else { throw .unknownFormat(path: path) }
            return [path]
        }
        let enumerator = FileManager.default.enumerator(atPath: path)
        var files: [String] = []
        while let relative = enumerator?.nextObject() as? String {
            if LocalisationFormat(path: relative) != nil { files.append((path as NSString).appendingPathComponent(relative)) }
        }
        return files.sorted()
    }
}
