import Support
import Foundation
@testable import Generation
import Corpus
import Synchronization

package extension GenerationRunner {
    /// Runs `items` and returns the records the sink received, in corpus order, then variant (lane), route and
    /// repeat: what a test reads where a job would read its store's log.
    package func records(_ items: [CorpusItem], skip: Set<String> = []) async throws -> [GenerationRecord] {
        let received = Mutex<[GenerationRecord]>([])
        _ = try await run(items, skip: skip) { output in received.withLock { $0.append(output.record) } }
        let position = items.map(\.id).firstPositions, lane = lanes.map(\.name).firstPositions
        return received.withLock { $0 }.sorted {
            (position[$0.itemID] ?? 0, lane[$0.variant] ?? 0, $0.route, $0.repeatIndex) < (position[$1.itemID] ?? 0, lane[$1.variant] ?? 0, $1.route, $1.repeatIndex)
        }
    }
}
