import Support
import Foundation
import Corpus

/// What a wrong answer costs, by true and predicted language (`Config/confusion-costs.json`): a Ukrainian
/// message answered as Russian is not the same error as a Russian one answered as Ukrainian. A right answer
/// costs 0; an error not listed, an abstention and a detector failure cost `default`. Keys are primary language
/// subtags, `true->predicted`.
public struct ConfusionCosts: Sendable, Hashable, Codable {
    /// The default matrix, inside the tool's resources (`ToolResources`).
    package static let defaultResource = "Config/confusion-costs.json"
    package static var defaultPath: String { ToolResources.path(defaultResource) }

    package var defaultCost: Double
    package var costs: [String: Double]

    enum CodingKeys: String, CodingKey { case defaultCost = "default", costs }

    package init(defaultCost: Double = 1, costs: [String: Double]) {
        self.defaultCost = defaultCost
        self.costs = costs
    }

    public init(from decoder: Decoder) throws {
        try StrictJSON.rejectUnknownKeys(in: decoder, allowed: ["schema_version", "default", "costs"])
        let c = try decoder.container(keyedBy: StrictJSON.AnyKey.self)
        if let version = try c.decodeIfPresent(Int.self, forKey: .init(stringValue: "schema_version")) { try StrictJSON.checkSchemaVersion(version) }
        defaultCost = try c.decodeIfPresent(Double.self, forKey: .init(stringValue: "default")) ?? 1
        costs = try c.decodeIfPresent([String: Double].self, forKey: .init(stringValue: "costs")) ?? [:]
        try StrictJSON.check(Self.range.contains(defaultCost), "default", in: decoder, "must be a cost between 0 and 100, not \(defaultCost)")
        for (key, cost) in costs.sorted(by: { $0.key < $1.key }) {
            let parts = key.components(separatedBy: "->")
            // try?: why a part is no language code adds nothing to the message, which says what a key must be.
            try StrictJSON.check(parts.count == 2 && parts.allSatisfy { (try? LanguageCode($0))?.language == $0 } && parts[0] != parts[1],
                                 "costs.\(key)", in: decoder, "must be true->predicted with two different primary language subtags, e.g. uk->ru")
            try StrictJSON.check(Self.range.contains(cost), "costs.\(key)", in: decoder, "must be a cost between 0 and 100, not \(cost)")
        }
    }

    static let range = 0.0...100.0

    package static func load(_ path: String = defaultPath) throws -> ConfusionCosts {
        try StrictJSON.load(ConfusionCosts.self, from: path)
    }

    /// The default matrix when its file is there (resources without it give no cost-weighted error); a file that is
    /// there but invalid is an error naming it.
    package static func standard() throws -> ConfusionCosts? {
        FileManager.default.fileExists(atPath: defaultPath) ? try load(defaultPath) : nil
    }

    /// The cost of answering `predicted` (nil: no answer) to an item of `gold`: 0 when right (locale-equivalent).
    package func cost(gold: LanguageCode, predicted: LanguageCode?) -> Double {
        if let predicted, predicted.isEquivalent(to: gold) { return 0 }
        return errorCost(gold: gold, predicted: predicted)
    }

    /// The cost of an answer already known to be wrong (no equivalence asked: a caller that scored it has).
    package func errorCost(gold: LanguageCode, predicted: LanguageCode?) -> Double {
        guard let predicted else { return defaultCost }
        return costs["\(gold.language)->\(predicted.language)"] ?? defaultCost
    }

    /// The mean cost per item of a config from its confusion counts (rows gold, columns predicted labels; a label
    /// that is no language code — an abstention, a failure — costs `default`).
    package func meanCost(_ matrix: ConfusionMatrix) -> Double {
        var total = 0.0, n = 0
        for (row, gold) in matrix.rows.enumerated() {
            let lang = LanguageCode(normalised: gold)
            for (column, label) in matrix.columns.enumerated() where matrix.counts[row][column] > 0 {
                let predicted = ["und", "error"].contains(label) ? nil : LanguageCode(normalised: label)
                total += Double(matrix.counts[row][column]) * cost(gold: lang, predicted: predicted)
                n += matrix.counts[row][column]
            }
        }
        return n > 0 ? total / Double(n) : 0
    }
}
