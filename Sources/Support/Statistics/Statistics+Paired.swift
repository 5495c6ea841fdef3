import Foundation

/// Paired and multiple-comparison statistics for `compare`.
extension Statistics {
    /// Holm's step-down adjustment: adjusted p-values in the input order. Controls the family-wise
    /// error rate of the family at the level the adjusted values are compared with.
    package static func holm(_ pValues: [Double]) -> [Double] {
        let order = pValues.indices.sorted { pValues[$0] < pValues[$1] }
        var adjusted = [Double](repeating: 1, count: pValues.count)
        var running = 0.0
        for (rank, index) in order.enumerated() {
            running = max(running, min(1, Double(pValues.count - rank) * pValues[index]))
            adjusted[index] = running
        }
        return adjusted
    }

    /// Bootstrap distribution of the mean of `values` (one value per independent unit, e.g. an item's
    /// mean log-ratio over its repeats, so repeats are resampled together): sorted, seeded.
    package static func bootstrapMeans(_ values: [Double], resamples: Int = 2000, seed: UInt64 = 42) -> [Double] {
        guard !values.isEmpty else { return [] }
        var generator = SplitMix64(seed: seed)
        let n = values.count
        var means: [Double] = []
        means.reserveCapacity(resamples)
        for _ in 0..<resamples {
            var sum = 0.0
            for _ in 0..<n { sum += values[Int(generator.next() % UInt64(n))] }
            means.append(sum / Double(n))
        }
        return means.sorted()
    }

    /// Two-level bootstrap of the mean over units grouped in blocks (items measured in the same block of
    /// time): each resample draws as many blocks as there are, with replacement, then the items of each
    /// drawn block with replacement, and averages every drawn item. A shift shared by a block's items
    /// (the machine was slower then) varies between resamples, so it widens the interval instead of
    /// passing for an effect. Sorted, seeded; with one block it is `bootstrapMeans`.
    package static func bootstrapClusteredMeans(_ blocks: [[Double]], resamples: Int = 2000, seed: UInt64 = 42) -> [Double] {
        let blocks = blocks.filter { !$0.isEmpty }
        guard blocks.count > 1 else { return bootstrapMeans(blocks.first ?? [], resamples: resamples, seed: seed) }
        var generator = SplitMix64(seed: seed)
        var means: [Double] = []
        means.reserveCapacity(resamples)
        for _ in 0..<resamples {
            var sum = 0.0, count = 0
            for _ in blocks.indices {
                let block = blocks[Int(generator.next() % UInt64(blocks.count))]
                for _ in block.indices { sum += block[Int(generator.next() % UInt64(block.count))] }
                count += block.count
            }
            means.append(sum / Double(count))
        }
        return means.sorted()
    }

    /// One-sided bootstrap p-value that the statistic exceeds `bound` (`above`) or falls below it:
    /// (resamples on the wrong side of the bound + 1) / (resamples + 1).
    package static func bootstrapPValue(_ sortedEstimates: [Double], beyond bound: Double, above: Bool) -> Double {
        let wrongSide = above ? sortedEstimates.filter { $0 <= bound }.count : sortedEstimates.filter { $0 >= bound }.count
        return Double(wrongSide + 1) / Double(sortedEstimates.count + 1)
    }
}
