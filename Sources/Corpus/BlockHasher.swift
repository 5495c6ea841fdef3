import Support
import Dispatch
import Foundation
import ByteIO
import Synchronization

/// The SHA-256 of blocks given in order, computed on a thread of its own so that reading a corpus does
/// not wait for it (hashing was the reading thread's largest cost: about 0.2 s per 34 MB). At most
/// `depth` blocks wait to be hashed; `update` blocks the caller beyond that, so memory stays bounded.
final class BlockHasher: Sendable {
    private let queue = DispatchQueue(label: "langbench.corpus-hash")
    private let room: DispatchSemaphore
    /// Updated on `queue`, in order; the lock is never contended, it only lets the compiler see that.
    private let hash = Mutex(SHA256())

    init(depth: Int = 4) {
        room = DispatchSemaphore(value: max(1, depth))
    }

    /// Hashes `block` after the blocks given before it.
    func update(_ block: Data) {
        room.wait()
        queue.async {
            self.hash.withLock { $0.update(block) }
            self.room.signal()
        }
    }

    /// The hex SHA-256 of every block given so far (waits for them to be hashed).
    var digest: String {
        queue.sync {
            hash.withLock { hash in
                var copy = hash
                return copy.finalize()
            }
        }
    }
}
