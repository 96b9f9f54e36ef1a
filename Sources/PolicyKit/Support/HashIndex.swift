/// Items of a growing list by hash, to find an earlier item equal to a new one in O(1): an
/// open-addressing table of item indices with their hashes. Dictionaries keyed by the items
/// themselves (a key's text, a decoded value) hashed every item again on each growth and retained
/// and released what they held at every step: a sixth of linting a mapping of 50 000 keys, a third
/// of a list of 30 000 exceptions. The hashes are the standard library's (seeded per process, so
/// no file can be written to make its items collide); equality is the caller's.
struct HashIndex {
    private var hashes: [UInt64] = []
    /// The item index in each slot; -1 for an empty one.
    private var slots: [Int32] = []
    /// Items inserted: the caller's items `0..<count` when it inserts them in order.
    private(set) var count = 0

    /// The index of an inserted item with `hash` that `matches`, if there is one.
    @inline(__always)
    func find(hash: UInt64, where matches: (Int) -> Bool) -> Int? {
        guard !slots.isEmpty else { return nil }
        let mask = slots.count - 1
        var i = Int(truncatingIfNeeded: hash) & mask
        while slots[i] >= 0 {
            if hashes[i] == hash, matches(Int(slots[i])) { return Int(slots[i]) }
            i = (i + 1) & mask
        }
        return nil
    }

    /// Adds item `index` with `hash`.
    mutating func insert(hash: UInt64, index: Int) {
        // At most half full: probes stay short.
        if (count + 1) * 2 > slots.count { grow() }
        place(hash, Int32(truncatingIfNeeded: index))
        count += 1
    }

    private mutating func place(_ hash: UInt64, _ index: Int32) {
        let mask = slots.count - 1
        var i = Int(truncatingIfNeeded: hash) & mask
        while slots[i] >= 0 { i = (i + 1) & mask }
        hashes[i] = hash
        slots[i] = index
    }

    private mutating func grow() {
        let oldHashes = hashes, oldSlots = slots
        let size = max(64, slots.count * 2)
        hashes = Array(repeating: 0, count: size)
        slots = Array(repeating: -1, count: size)
        // The hashes are kept: growing never hashes an item again.
        for i in oldSlots.indices where oldSlots[i] >= 0 { place(oldHashes[i], oldSlots[i]) }
    }
}

extension Hasher {
    /// The hash as 64 bits, for `HashIndex`.
    consuming func finalize64() -> UInt64 { UInt64(bitPattern: Int64(finalize())) }
}
