import BenchSupport
import Detection
import Foundation
import Reports
import RunComparison
import RunProvenance
import Storage

/// `merge` of detection shards: a k-way merge of the shards' canonical streams (`DetectionStore`)
/// into one run's per-item CSV, results log and reports, in memory that does not grow with the
/// shards. Shards must not overlap: a result in two of them is an error naming both.
struct DetectionShardMerge {
    let directories: [String]
    let stores: [DetectionStore]
    let echoes: [DetectionReport.ConfigEcho]
    let header: DetectionLogHeader?

    func write(timings: [DetectionRunner.Timing], provenance: Provenance, into output: URL) throws -> DetectionReport {
        try DetectionStore.reading(stores) { try write($0, timings: timings, provenance: provenance, into: output) }
    }

    /// An item's number in the run (its row in the outcome bits, which pair a config's result with the
    /// first config's) is its number in its config's stream: every config of a run has the same items,
    /// which each config's end checks (`align`).
    private func write(_ cursors: [DetectionStore.Cursor], timings: [DetectionRunner.Timing], provenance: Provenance,
                       into output: URL) throws -> DetectionReport {
        let store = try DetectionStore.Writer(creating: output, header: header ?? DetectionLogHeader(configs: echoes, settings: .init()), echoes: echoes,
                                              itemCount: stores.map(\.report.items).reduce(0, +))
        var merge = try KWay(cursors)
        var previous: (shard: Int, config: Int, id: String)?
        var config = -1, index = 0
        var first: IDSequence?, sequence = IDSequence()
        while let (shard, number, result) = try merge.next() {
            if let previous, previous.config == number, previous.id == result.itemID {
                throw ComparisonError.cannotMerge("\(directories[previous.shard]) and \(directories[shard]) both hold config \(result.config), item \(result.itemID): "
                                                  + "shards must not overlap (the same shard given twice?)")
            }
            previous = (shard, number, result.itemID)
            if number != config {
                if config >= 0 { try align(&first, sequence, config: config) }
                config = number
                index = 0
                sequence = IDSequence()
            }
            sequence.add(result.itemID)
            try store.record(result, config: number, position: index)
            index += 1
        }
        if config >= 0 { try align(&first, sequence, config: config) }
        var report = try store.finish(timings: timings, provenance: provenance)
        report.confusionCosts = stores.first?.report.confusionCosts  // the shards of one run share their matrix
        try DetectionOutput.write(report, to: output)
        return report
    }

    /// Checks that the ids of config number `config` are the first config's (which `first` becomes when not yet set).
    private func align(_ first: inout IDSequence?, _ sequence: IDSequence, config: Int) throws {
        guard let first else {
            first = sequence
            return
        }
        if first != sequence {
            throw ComparisonError.cannotMerge("config \(echoes[config].name) holds other items than config \(echoes[0].name) across \(directories.joined(separator: ", ")) "
                                              + "(\(sequence.count) against \(first.count)): these are not shards of one run")
        }
    }
}

/// A sequence of ids as its length and FNV-1a hash: what telling two configs' item lists apart needs.
private struct IDSequence: Equatable {
    var count = 0
    var hash = FNV1a64()

    mutating func add(_ id: String) {
        count += 1
        hash.add(id)
        hash.separate()
    }

    static func == (a: IDSequence, b: IDSequence) -> Bool { a.count == b.count && a.hash.value == b.hash.value }
}

/// The shards' results in canonical order (config, then item id) through the k-way merge (`KWayMerge`); ties
/// (which `DetectionShardMerge` refuses) come out in shard order.
private struct KWay {
    /// A shard's next result, its config number, and the shard (which breaks ties).
    struct Head: MergeHead {
        var config = -1
        var result: DetectionResult?
        var shard = 0

        func isBefore(_ other: Head) -> Bool {
            if config != other.config { return config < other.config }
            let (id, otherID) = (result?.itemID ?? "", other.result?.itemID ?? "")
            return id != otherID ? id < otherID : shard < other.shard
        }
    }

    private let cursors: [DetectionStore.Cursor]
    private var merge: KWayMerge<Head>

    init(_ cursors: [DetectionStore.Cursor]) throws {
        self.cursors = cursors
        merge = try KWayMerge(sources: cursors.count, empty: Head(), read: Self.reader(cursors))
    }

    /// The next result, its shard and its config number.
    mutating func next() throws -> (shard: Int, config: Int, result: DetectionResult)? {
        guard let shard = try merge.next(read: Self.reader(cursors)), let result = merge.heads[shard].result else { return nil }
        return (shard, merge.heads[shard].config, result)
    }

    private static func reader(_ cursors: [DetectionStore.Cursor]) -> (Int, inout Head) throws -> Bool {
        { shard, head in
            guard let result = try cursors[shard].next() else { return false }
            head = Head(config: cursors[shard].configNumber, result: result, shard: shard)
            return true
        }
    }
}
