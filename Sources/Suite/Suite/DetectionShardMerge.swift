import Support
import Detection
import Foundation
import Comparison
import Provenance
import ByteIO

/// `merge` of detection shards: a k-way merge (`ResultMerge`) of the shards' canonical streams (`DetectionStore`)
/// into one run's per-item CSV, results log and reports, in memory that does not grow with the
/// shards. Shards must not overlap: a result in two of them is an error naming both.
struct DetectionShardMerge {
    let directories: [String]
    let stores: [DetectionStore]
    let echoes: [DetectionReport.ConfigEcho]
    let header: DetectionLogHeader?

    func write(timings: [DetectionRunner.Timing], provenance: Provenance, into output: URL) throws -> DetectionReport {
        try write(try stores.map { try $0.cursor() }, timings: timings, provenance: provenance, into: output)
    }

    /// An item's number in the run (its row in the outcome bits, which pair a config's result with the
    /// first config's) is its number in its config's stream: every config of a run has the same items,
    /// which each config's end checks (`align`).
    private func write(_ cursors: [DetectionStore.Cursor], timings: [DetectionRunner.Timing], provenance: Provenance,
                       into output: URL) throws -> DetectionReport {
        let store = try DetectionStore.Writer(creating: output, header: header ?? DetectionLogHeader(configs: echoes, settings: .init()), echoes: echoes,
                                              itemCount: stores.map(\.report.items).reduce(0, +))
        var merge = try ResultMerge(sources: cursors.count, order: .configThenID) { shard in
            try cursors[shard].next().map { (cursors[shard].configNumber, $0) }
        }
        var previous: (shard: Int, config: Int, id: String)?
        var config = -1, index = 0
        var first: IDSequence?, sequence = IDSequence()
        while let head = try merge.next() {
            let (shard, number, result) = (head.source, head.config, head.result)
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
        report.sharedTexts = SharedTextSlice.merged(stores.map(\.report.sharedTexts))
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
