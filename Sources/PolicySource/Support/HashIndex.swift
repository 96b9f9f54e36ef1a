/// Items of a growing list by hash, to find an earlier item equal to a new one in O(1): an
/// open-addressing table of item indices with their hashes. A dictionary keyed by the items
/// themselves (a key's text, a decoded value) would hash every item again on each growth and
/// retain and release what it holds at every step. The hashes are the standard library's (seeded
/// per process, so no file can be written to make its items collide); equality is the caller's.
package struct HashIndex {
    /// Each slot: the high 32 bits of an item's hash, then its index; `empty` for none. One word a
    /// slot: half the table a separate array of whole hashes needs.
    private var slots: [UInt64] = []
    private static let empty = UInt64.max

    package init() {}
    /// Items inserted: the caller's items `0..<count` when it inserts them in order.
    package private(set) var count = 0

    /// The index of an inserted item with `hash` that `matches`, if there is one.
    @inline(__always)
    package func find(hash: UInt64, where matches: (Int) -> Bool) -> Int? {
        guard !slots.isEmpty else { return nil }
        let mask = slots.count - 1
        let tag = hash & 0xFFFF_FFFF_0000_0000
        var i = Self.position(tag) & mask
        while slots[i] != Self.empty {
            if slots[i] & 0xFFFF_FFFF_0000_0000 == tag {
                let index = Int(truncatingIfNeeded: slots[i] & 0xFFFF_FFFF)
                if matches(index) { return index }
            }
            i = (i + 1) & mask
        }
        return nil
    }

    /// Adds item `index` (below 2³² − 1) with `hash`.
    package mutating func insert(hash: UInt64, index: Int) {
        // At most two thirds full: probes stay short.
        if (count + 1) * 3 > slots.count * 2 { grow() }
        place(hash & 0xFFFF_FFFF_0000_0000 | UInt64(UInt32(truncatingIfNeeded: index)))
        count += 1
    }

    /// Where a hash (or a slot) starts its probe: from the hash's high half, which the slot keeps,
    /// so growing places every slot again without its item.
    @inline(__always)
    private static func position(_ slot: UInt64) -> Int { Int(truncatingIfNeeded: slot >> 32) }

    private mutating func place(_ slot: UInt64) {
        let mask = slots.count - 1
        var i = Self.position(slot) & mask
        while slots[i] != Self.empty { i = (i + 1) & mask }
        slots[i] = slot
    }

    /// Placed by what the slots keep: growing never hashes an item again.
    private mutating func grow() {
        let old = slots
        slots = Array(repeating: Self.empty, count: max(64, slots.count * 2))
        for slot in old where slot != Self.empty { place(slot) }
    }
}

extension Hasher {
    /// The hash as 64 bits, for `HashIndex`.
    package consuming func finalize64() -> UInt64 { UInt64(bitPattern: Int64(finalize())) }
}
