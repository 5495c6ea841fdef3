import Support

/// Counts of a corpus per language, tag and length bucket.
package struct CorpusStatistics: Sendable {
    package var total: Int
    package var byLanguage: [(LanguageCode, Int)]
    package var byTag: [(String, Int)]
    /// Per language, counts per bucket in `LengthBucket.allCases` order.
    package var lengthByLanguage: [(LanguageCode, [Int])]

    package init(_ corpus: Corpus) {
        total = corpus.items.count
        var languages: [LanguageCode: Int] = [:]
        var tags: [String: Int] = [:]
        var lengths: [LanguageCode: [Int]] = [:]
        for item in corpus.items {
            languages[item.lang, default: 0] += 1
            for tag in item.tags { tags[tag, default: 0] += 1 }
            let bucket = LengthBucket.allCases.firstIndex(of: LengthBucket(text: item.text, lang: item.lang))!
            lengths[item.lang, default: Array(repeating: 0, count: LengthBucket.allCases.count)][bucket] += 1
        }
        byLanguage = languages.sorted { $0.key < $1.key }
        byTag = tags.sorted { $0.key < $1.key }
        lengthByLanguage = lengths.sorted { $0.key < $1.key }
    }

    package var report: ReportDocument {
        var languages = ReportTable(title: "Items per language", columns: [.init("lang"), .numeric("items"), .numeric("share_pct", title: "share %")])
        for (lang, count) in byLanguage { languages.append([.text(lang.identifier), .int(count), .percent(Double(count) / Double(max(total, 1)))]) }
        languages.append([.text("all"), .int(total), .percent(total > 0 ? 1 : 0)])
        var tags = ReportTable(title: "Items per tag", columns: [.init("tag"), .numeric("items")])
        for (tag, count) in byTag { tags.append([.text(tag), .int(count)]) }
        var lengths = ReportTable(title: "Items per length bucket (words; ja/zh by characters)",
                                  columns: [.init("lang")] + LengthBucket.allCases.map { .numeric("len_\($0.rawValue)", title: $0.rawValue) })
        for (lang, counts) in lengthByLanguage { lengths.append([.text(lang.identifier)] + counts.map(ReportCell.int)) }
        return ReportDocument(title: "Corpus statistics", tables: [languages, tags, lengths])
    }
}
