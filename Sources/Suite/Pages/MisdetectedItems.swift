import Support
import Detection
import Foundation
import Corpus

/// The run page's table of misdetected items: one row per config and item it answered wrongly (or not at all), in id
/// order — the config, the item's true language, the answer and its confidence, whether the true language was among
/// the config's candidates (outside: wrong by construction), the text. Built in the same pass as the differing items;
/// the first `rowCap` rows are listed and every row counted. A crisis-flagged item is counted in `hidden`, never listed.
package struct MisdetectedItems {
    static let tableID = "detection-misdetected"
    static let filters = ["config", "lang", "predicted", "candidate"]

    /// A link to this table filtered to one config's items of `lang` answered `predicted` (`#<table>?<filter>=<value>&…`).
    static func link(config: String, lang: String, predicted: String) -> String {
        func encoded(_ value: String) -> String { value.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-_."))) ?? value }
        return "#\(tableID)?config=\(encoded(config))&lang=\(encoded(lang))&predicted=\(encoded(predicted))"
    }

    let rowCap: Int
    private let configs: [String]
    /// Per config, its resolved candidates (nil: unconstrained).
    private let candidates: [[LanguageCode]?]
    private let texts: ItemTexts
    private let crisis: Set<String>
    private(set) var table: ReportTable
    private(set) var rows = 0
    private(set) var hidden = 0

    init(configs: [String], candidates: [[String]?], texts: ItemTexts, crisis: Set<String>, rowCap: Int) {
        self.configs = configs
        self.candidates = configs.indices.map { index in
            (index < candidates.count ? candidates[index] : nil)?.map(LanguageCode.init(normalised:))
        }
        self.texts = texts
        self.crisis = crisis
        self.rowCap = rowCap
        table = ReportTable(title: "Misdetected items", columns: [
            .init("config"), .init("item_id"), .init("lang", title: "true"), .init("predicted"), .numeric("confidence"),
            .init("candidate", title: "true language a candidate"), .init("length"), .init("text"),
        ])
    }

    /// Adds item `id`'s wrong answers, config by config (nil where a config has no result).
    mutating func add(_ id: String, answers: [DetectionResult?]) {
        for (config, answer) in answers.enumerated() {
            guard let answer, !answer.correct else { continue }
            if crisis.contains(id) {
                hidden += 1
                continue
            }
            rows += 1
            guard rows <= rowCap else { continue }
            let inside = candidates[config].map { set in set.contains { $0.isEquivalent(to: answer.lang) } ? "yes" : "no" } ?? "unconstrained"
            table.append([.text(configs[config]), .text(id), .text(answer.lang.identifier), .text(answer.predictedLabel),
                          answer.confidence.map { .number($0, digits: 4) } ?? .empty, .text(inside), .text(answer.length.rawValue),
                          .optionalText(texts.text(id))])
        }
    }
}
