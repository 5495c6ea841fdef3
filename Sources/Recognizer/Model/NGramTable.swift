/// The character n-gram part of one script's model: one open-addressing hash table per order (1–5) over
/// every n-gram kept for any language of the script, with one quantised row per language.
///
/// For an n-gram `s = h·c` a row holds, per language, the fully interpolated Witten–Bell −log P(c | h)
/// and (orders 1–4, where `s` can be a history) the −log back-off weight N1+(s·) / (C(s) + N1+(s·)).
/// Sharing slots across languages makes one probe sequence serve every language.
struct NGramTable: Sendable {
    /// The table of one order.
    struct Order: Sendable {
        let capacity: Int
        /// 32-bit fingerprints (upper hash bits, never 0); 0 marks an empty slot.
        let keys: FixedBuffer<UInt32>
        /// `capacity × width` quantised −log P, in steps of `NGramTable.logpStep` nats.
        let logp: FixedBuffer<UInt8>
        /// `capacity × width` quantised −log back-off weight in steps of `NGramTable.bowStep`; empty for order 5.
        let bow: FixedBuffer<UInt8>

        var view: View { View(capacity: capacity, keys: keys.pointer, logp: logp.pointer, bow: bow.pointer) }
    }

    /// Borrowed pointers into an `Order`, valid while the model that owns it is alive. Read-only pointers
    /// into immutable buffers, hence `@unchecked Sendable`.
    struct View: @unchecked Sendable {
        let capacity: Int
        let keys: UnsafePointer<UInt32>
        let logp: UnsafePointer<UInt8>
        let bow: UnsafePointer<UInt8>

        /// The slot holding the n-gram with this (finished) hash, or -1.
        @inline(__always)
        func slot(of hash: UInt64) -> Int {
            let fp = NGramTable.fingerprint(hash)
            var found = -1
            HashSlots.probe(hash, capacity: capacity) { i in
                let key = keys[i]
                if key == fp { found = i }
                return key != fp && key != 0
            }
            return found
        }
    }

    /// Number of languages per row.
    let width: Int
    /// Tables for orders 1…5 at indices 0…4.
    let orders: [Order]

    static let logpStep: Float = 0.1
    static let bowStep: Float = 0.06
    static let maxOrder = 5

    var byteCount: Int { orders.reduce(0) { $0 + $1.keys.count * 4 + $1.logp.count + $1.bow.count } }

    @inline(__always)
    static func fingerprint(_ hash: UInt64) -> UInt32 {
        let f = UInt32(truncatingIfNeeded: hash >> 32)
        return f == 0 ? 1 : f
    }

    /// Builds the table from (order, hash, logp row, bow row) entries; insertion order is the entries'
    /// order, so callers sort them for a reproducible layout.
    static func build(width: Int, entries: [(order: Int, hash: UInt64, logp: ArraySlice<UInt8>, bow: ArraySlice<UInt8>)]) -> NGramTable {
        var orders: [Order] = []
        for k in 1...maxOrder {
            let mine = entries.filter { $0.order == k }
            let capacity = HashSlots.capacity(for: mine.count)
            var keys = [UInt32](repeating: 0, count: capacity)
            var logp = [UInt8](repeating: 0, count: capacity * width)
            var bow = [UInt8](repeating: 0, count: k < maxOrder ? capacity * width : 0)
            for entry in mine {
                let i = HashSlots.freeSlot(entry.hash, in: keys)
                keys[i] = fingerprint(entry.hash)
                for (l, v) in entry.logp.enumerated() { logp[i * width + l] = v }
                if k < maxOrder { for (l, v) in entry.bow.enumerated() { bow[i * width + l] = v } }
            }
            orders.append(Order(capacity: capacity, keys: FixedBuffer(keys), logp: FixedBuffer(logp), bow: FixedBuffer(bow)))
        }
        return NGramTable(width: width, orders: orders)
    }

    static func quantizeLogp(_ lp: Double) -> UInt8 {
        UInt8(max(0, min(255, (-lp / Double(logpStep)).rounded())))
    }

    static func quantizeBow(_ lb: Double) -> UInt8 {
        UInt8(max(0, min(255, (-lb / Double(bowStep)).rounded())))
    }
}

/// Slot arithmetic shared by the model's open-addressing tables (part of the file format).
enum HashSlots {
    static let loadFactor = 0.8

    /// The slot count for a number of entries (at least one empty slot, so probes always end).
    static func capacity(for count: Int) -> Int {
        max(count + 1, Int((Double(count) / loadFactor).rounded(.up)))
    }

    /// Home slot of a hash: its low 32 bits scaled to the capacity.
    @inline(__always)
    static func home(_ hash: UInt64, capacity: Int) -> Int {
        Int((UInt64(UInt32(truncatingIfNeeded: hash)) &* UInt64(capacity)) >> 32)
    }

    /// Visits slots from the home slot of `hash` onwards (linear probing, wrapping) while `visit` says to go on.
    /// Visits each slot at most once: the loader refuses a table without an empty slot, and this bound keeps a probe
    /// finite should one get through.
    @inline(__always)
    static func probe(_ hash: UInt64, capacity: Int, _ visit: (Int) -> Bool) {
        var i = home(hash, capacity: capacity)
        var left = capacity
        while visit(i) {
            left -= 1
            if left == 0 { return }
            i += 1
            if i == capacity { i = 0 }
        }
    }

    /// The slot where a table being built (0 = empty) takes a new entry for `hash`.
    static func freeSlot<T: FixedWidthInteger>(_ hash: UInt64, in slots: [T]) -> Int {
        var free = 0
        probe(hash, capacity: slots.count) { i in
            free = i
            return slots[i] != 0
        }
        return free
    }
}
