#if canImport(Glibc)
import Glibc
import PolicySource
import PolicyCheck
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
internal import CPrefetch

/// One thing that happens at a time: 16 bytes, no reference, so four of them fill a cache line
/// and the heap is one flat block.
package struct Event {
    package enum Kind: UInt8 {
        /// A fault starts or ends (first at a time: the state changes before anything else then).
        case boundary
        /// A new call starts.
        case arrival
        /// A call's next attempt is sent (`token` is the call's client: see `Engine.failed`).
        case retry
        /// An answer reaches the client: 200, or the status of the outage the call noted.
        case answerOK, answerOutage
        /// The client stops waiting for its attempt: its timeout, or the call's deadline.
        case giveUp
        /// Queue mode: the request in service is done.
        case serviceDone
    }

    /// Time in nanoseconds shifted left by 8, and the kind: one integer to order by.
    package var key: UInt64
    package var slot: UInt32
    package var token: UInt32

    @inline(__always)
    package init(time: Int64, kind: Kind, slot: UInt32 = 0, token: UInt32 = 0) {
        key = UInt64(time) << 8 | UInt64(kind.rawValue)
        self.slot = slot
        self.token = token
    }

    package var time: Int64 { Int64(key >> 8) }
    package var kind: Kind { Kind(rawValue: UInt8(truncatingIfNeeded: key)) ?? .boundary }
}

/// Raw storage for plain values, grown by doubling and freed by its owner (`release`): the engine
/// makes one of each per run and frees them at its end, so no per-event allocation or reference
/// counting touches the hot loop. Large blocks are aligned to 2 MiB and offered to the kernel
/// for huge pages: a client table of a million entries is then a few TLB entries, not thousands.
/// Kept, over plain arrays, because the simulate benchmark at a million clients is measurably
/// slower without it; a copy shares the block, and only the engine that made it releases it.
package struct Slab<T> {
    package private(set) var base: UnsafeMutablePointer<T>
    package private(set) var capacity: Int
    /// The block as allocated (`base` may start a few values into it, for alignment).
    private var block: UnsafeMutableRawPointer

    package static var hugeThreshold: Int { 4 << 20 }

    /// Room for `capacity` values; with `lead`, `base` starts that many values into a block
    /// aligned to 64 bytes (the heap puts its child groups on cache lines so).
    package init(capacity: Int, lead: Int = 0) {
        self.capacity = max(1, capacity)
        let bytes = (self.capacity + lead) * MemoryLayout<T>.stride
        let alignment = bytes >= Slab.hugeThreshold ? 2 << 20 : 64
        var raw: UnsafeMutableRawPointer?
        // Whole pages for the huge ones, so madvise covers exactly the block.
        let size = (bytes + alignment - 1) / alignment * alignment
        if posix_memalign(&raw, alignment, size) != 0 || raw == nil {
            fatalError("out of memory: \(size) bytes for the simulation")
        }
        #if canImport(Glibc)
        if alignment > 64 { _ = madvise(raw, size, MADV_HUGEPAGE) }
        #endif
        block = raw!
        base = (block + lead * MemoryLayout<T>.stride).bindMemory(to: T.self, capacity: self.capacity)
    }

    /// `count` copies of `value`.
    package init(repeating value: T, count: Int) {
        self.init(capacity: count)
        base.initialize(repeating: value, count: capacity)
    }

    /// Room for at least `needed`, keeping the first `count` values.
    @inline(__always)
    package mutating func reserve(_ needed: Int, keeping count: Int, lead: Int = 0) {
        guard needed > capacity else { return }
        var newCapacity = capacity * 2
        while newCapacity < needed { newCapacity *= 2 }
        let grown = Slab(capacity: newCapacity, lead: lead)
        grown.base.moveInitialize(from: base, count: count)
        release()
        self = grown
    }

    @inline(__always)
    package subscript(i: Int) -> T {
        get { base[i] }
        nonmutating set { base[i] = newValue }
    }

    /// Asks for value `i`'s cache line without waiting for it: a read the hot loop will make soon
    /// then finds it there instead of stalling on memory (a million clients' budgets fit no cache).
    /// Kept because the simulate benchmark at a million clients is measurably slower without it;
    /// an index past the storage is no request (no pointer is formed outside the block).
    @inline(__always)
    package func prefetch(_ i: Int) {
        guard i < capacity else { return }
        policyc_prefetch(base + i)
    }

    /// Frees the memory; the values are plain, so nothing else is to be undone.
    package func release() {
        free(block)
    }
}

/// A first-in first-out ring of plain values on a `Slab`, doubled (and laid out from its start
/// again) when full: the server's queue and the answers under way.
package struct Ring<T> {
    private var slab: Slab<T>
    private var head = 0
    package private(set) var count = 0

    package init(capacity: Int) {
        slab = Slab(capacity: capacity)
    }

    package var isEmpty: Bool {
        @inline(__always) get { count == 0 }
    }

    /// The value `offset` places from the first (`offset < count`).
    @inline(__always)
    package subscript(offset: Int) -> T {
        slab[(head + offset) % slab.capacity]
    }

    @inline(__always)
    package mutating func append(_ value: T) {
        if count == slab.capacity {
            let grown = Slab<T>(capacity: slab.capacity * 2)
            for i in 0..<count { (grown.base + i).initialize(to: self[i]) }
            slab.release()
            slab = grown
            head = 0
        }
        slab[(head + count) % slab.capacity] = value
        count += 1
    }

    /// Removes and returns the first value (the ring is not empty).
    @inline(__always)
    package mutating func removeFirst() -> T {
        let first = slab[head]
        head = (head + 1) % slab.capacity
        count -= 1
        return first
    }

    package func release() {
        slab.release()
    }
}

/// A 4-ary min-heap of events by key: half the levels of a binary heap, and each node's children
/// on one cache line. Events of one key come out in an order fixed by the sequence of pushes and
/// pops, which a run repeats exactly.
package struct EventHeap {
    /// Children of node i are 4i+1 … 4i+4; three values of lead put each such group on a line.
    private static let lead = 3
    private var items = Slab<Event>(capacity: 1024, lead: EventHeap.lead)
    package private(set) var count = 0

    package init() {}

    package var isEmpty: Bool { count == 0 }

    /// The earliest event; only when not empty.
    @inline(__always)
    package var top: Event { items[0] }

    @inline(__always)
    package mutating func push(_ event: Event) {
        items.reserve(count + 1, keeping: count, lead: EventHeap.lead)
        let base = items.base
        var i = count
        count += 1
        while i > 0 {
            let parent = (i - 1) >> 2
            if base[parent].key <= event.key { break }
            base[i] = base[parent]
            i = parent
        }
        base[i] = event
    }

    /// Removes the earliest event (only when not empty).
    @inline(__always)
    package mutating func removeTop() {
        count -= 1
        guard count > 0 else { return }
        let base = items.base
        let last = base[count]
        let n = count
        var i = 0
        while true {
            let first = 4 * i + 1
            if first >= n { break }
            // The next level's four candidate groups are asked for while this one is compared:
            // in a heap larger than the cache (a million clients') their misses then overlap
            // instead of coming one level after another. The last three may lie past the items
            // (never past the block: `prefetch` asks for nothing there).
            let grandchildren = 4 * first + 1
            if grandchildren < n {
                items.prefetch(grandchildren)
                items.prefetch(grandchildren + 4)
                items.prefetch(grandchildren + 8)
                items.prefetch(grandchildren + 12)
            }
            var child = first
            var key = base[first].key
            let end = min(first + 4, n)
            var c = first + 1
            while c < end {
                if base[c].key < key {
                    key = base[c].key
                    child = c
                }
                c += 1
            }
            if last.key <= key { break }
            base[i] = base[child]
            i = child
        }
        base[i] = last
    }

    package func release() {
        items.release()
    }
}
