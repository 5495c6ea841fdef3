import Support
import Dispatch
import Foundation
@testable import ByteIO
import Testing

/// The byte-level helpers: the buffered writer lands bytes written through a cursor in the room reserved for
/// them, across block flushes and lines longer than a block, in order; the index heap merges sorted runs into one
/// sorted sequence; ordered work hands results back in the order the jobs were submitted, however long each took.
struct StorageTests {
    @Test func linesThroughTheCursorAndAppendsLandInOrder() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("writer-\(UUID().uuidString).txt")
        defer { try? FileManager.default.removeItem(at: url) }
        var random = SplitMix64(seed: 7)
        var expected: [UInt8] = []
        let writer = try BufferedFileWriter(url: url, atomic: true, blockSize: 64)
        for line in 0..<500 {
            // Lines of 0 to 300 bytes: many shorter than the 64-byte block, some several blocks long.
            let bytes = (0..<Int(random.next() % 301)).map { UInt8(truncatingIfNeeded: $0 &+ line) }
            expected += bytes
            if line % 3 == 0 {
                writer.append(bytes: bytes)
            } else {
                try writer.write(bound: bytes.count + Int(random.next() % 5)) { cursor in
                    for byte in bytes.prefix(7) { cursor.put(byte) }
                    cursor.put(Array(bytes.dropFirst(7)))
                }
            }
        }
        try writer.finish()
        #expect(Array(try Data(contentsOf: url)) == expected)
    }

    @Test func theIndexHeapMergesSortedRunsInOrder() {
        var random = SplitMix64(seed: 11)
        let runs = (0..<7).map { _ in (0..<Int(random.next() % 40)).map { _ in Int(random.next() % 100) }.sorted() }
        var positions = Array(repeating: 0, count: runs.count)
        var heap = IndexHeap()
        let less = { (a: Int, b: Int) -> Bool in
            (runs[a][positions[a]], a) < (runs[b][positions[b]], b)
        }
        for run in runs.indices where !runs[run].isEmpty { heap.push(run, by: less) }
        var merged: [(value: Int, run: Int)] = []
        while let top = heap.top {
            merged.append((runs[top][positions[top]], top))
            positions[top] += 1
            if positions[top] < runs[top].count { heap.topChanged(by: less) } else { heap.removeTop(by: less) }
        }
        #expect(merged.map(\.value) == runs.flatMap { $0 }.sorted())
        // Equal values come out in run order: the comparison's tie-break is kept.
        #expect(zip(merged, merged.dropFirst()).allSatisfy { $0.value < $1.value || ($0.value == $1.value && $0.run <= $1.run) })
    }

    @Test func orderedWorkReturnsResultsInSubmissionOrder() {
        let work = OrderedWork<Int>(width: 3)
        var taken: [Int] = []
        for job in 0..<20 {
            if work.isFull, let result = work.next() { taken.append(result) }
            // Early jobs sleep longest: finished out of order, taken in order.
            work.submit { usleep(useconds_t((20 - job) * 300)); return job }
        }
        while let result = work.next() { taken.append(result) }
        #expect(taken == Array(0..<20))
    }
}
