/// The forms of a form list (hunspell expansions) that have no frequency of their own: a set of 16-bit
/// fingerprints in an open-addressing table, so each form costs 2.5 bytes instead of a 4-byte posting.
/// Every member has the same list probability, 10^(−level/64).
struct FormSet: Sendable {
    /// Row of the language in its script model.
    let language: Int
    let level: UInt32
    /// Fingerprints (hash bits 48–63, never 0); 0 marks an empty slot.
    let slots: FixedBuffer<UInt16>

    var capacity: Int { slots.count }

    @inline(__always)
    static func fingerprint(_ hash: UInt64) -> UInt16 {
        let f = UInt16(truncatingIfNeeded: hash >> 48)
        return f == 0 ? 1 : f
    }

    @inline(__always)
    func contains(hash: UInt64) -> Bool {
        let fp = Self.fingerprint(hash)
        let s = slots.pointer
        var found = false
        HashSlots.probe(hash, capacity: capacity) { i in
            found = s[i] == fp
            return !found && s[i] != 0
        }
        return found
    }

    /// Builds the set from word hashes in the given order (callers sort them for a reproducible layout).
    static func build(language: Int, level: UInt32, hashes: [UInt64]) -> FormSet {
        let capacity = HashSlots.capacity(for: hashes.count)
        var slots = [UInt16](repeating: 0, count: capacity)
        for h in hashes {
            slots[HashSlots.freeSlot(h, in: slots)] = fingerprint(h)
        }
        return FormSet(language: language, level: level, slots: FixedBuffer(slots))
    }
}
