import Corpus
import ByteIO

/// Results of several sorted sources merged into one order through the one k-way merge (`KWayMerge`): by
/// config then item id (a log's segments, a run's shards), or by item id alone (a run read as one pass
/// per config, joined by id). Ties come out in source order; what a tie means (a duplicate, a conflict, an
/// overlap, one item's answers) is the caller's to say.
package struct ResultMerge {
    package enum Order: Sendable { case configThenID, id }

    /// A source's next result, its config number and its source.
    package struct Head: MergeHead {
        package var config: Int
        package var result: DetectionResult
        package var source: Int
        var byConfig: Bool

        package func isBefore(_ other: Head) -> Bool {
            if byConfig, config != other.config { return config < other.config }
            if result.itemID != other.result.itemID { return result.itemID < other.result.itemID }
            return source < other.source
        }
    }

    private var merge: KWayMerge<Head>
    /// Reads source `n`'s next result into a head; false past its last.
    private let fill: (Int, inout Head) throws -> Bool

    /// `read(n)`: source `n`'s next result and its config number; nil past its last.
    package init(sources: Int, order: Order, read: @escaping (Int) throws -> (config: Int, result: DetectionResult)?) throws {
        let byConfig = order == .configThenID
        let fill = { (source: Int, head: inout Head) throws -> Bool in
            guard let (config, result) = try read(source) else { return false }
            head = Head(config: config, result: result, source: source, byConfig: byConfig)
            return true
        }
        let empty = DetectionResult(itemID: "", lang: LanguageCode(normalised: "und"), tags: [], length: .one, config: "", detector: "")
        merge = try KWayMerge(sources: sources, empty: Head(config: -1, result: empty, source: -1, byConfig: byConfig), read: fill)
        self.fill = fill
    }

    /// The next head in the merged order; nil when every source is done.
    package mutating func next() throws -> Head? {
        guard let source = try merge.next(read: fill) else { return nil }
        return merge.heads[source]
    }
}
