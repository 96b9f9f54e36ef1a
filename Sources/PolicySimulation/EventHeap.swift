/// One thing that happens at a time: 16 bytes, no reference, so the heap is one flat array.
struct Event {
    enum Kind: UInt8 {
        /// A fault starts or ends (first at a time: the state changes before anything else then).
        case boundary
        /// A new call starts.
        case arrival
        /// A call's next attempt is sent.
        case retry
        /// An answer reaches the client: 200, or the status of the outage the call noted.
        case answerOK, answerOutage
        /// The client stops waiting for its attempt: its timeout, or the call's deadline.
        case giveUp
        /// Queue mode: the request in service is done.
        case serviceDone
    }

    /// Time in nanoseconds shifted left by 8, and the kind: one integer to order by.
    var key: UInt64
    var slot: UInt32
    var token: UInt32

    @inline(__always)
    init(time: Int64, kind: Kind, slot: UInt32 = 0, token: UInt32 = 0) {
        key = UInt64(time) << 8 | UInt64(kind.rawValue)
        self.slot = slot
        self.token = token
    }

    var time: Int64 { Int64(key >> 8) }
    var kind: Kind { Kind(rawValue: UInt8(truncatingIfNeeded: key)) ?? .boundary }
}

/// A first-in first-out queue of values: the server's queue and the answers under way. Values
/// are taken from the front by moving an index; the array drops its taken front once that is
/// at least half of it, so no more values are moved than were taken (O(1) a value, amortized).
struct Fifo<T> {
    private var items: [T] = []
    private var head = 0

    init() {}

    var count: Int { items.count - head }
    var isEmpty: Bool { head == items.count }

    /// The value `offset` places from the first (`offset < count`).
    @inline(__always)
    subscript(offset: Int) -> T { items[head + offset] }

    @inline(__always)
    mutating func append(_ value: T) {
        items.append(value)
    }

    /// Removes and returns the first value (the queue is not empty).
    @inline(__always)
    mutating func removeFirst() -> T {
        let first = items[head]
        head += 1
        if head >= 1024 && head * 2 >= items.count {
            items.removeFirst(head)
            head = 0
        }
        return first
    }
}

/// A 4-ary min-heap of events by key: half the levels of a binary heap, which is what a run's
/// heap of a million timeouts spends its time walking. Events of one key come out in an order
/// fixed by the sequence of pushes and pops, which a run repeats exactly.
struct EventHeap {
    private var items: [Event] = []

    init() {}

    var count: Int { items.count }
    var isEmpty: Bool { items.isEmpty }

    /// The earliest event; only when not empty.
    @inline(__always)
    var top: Event { items[0] }

    @inline(__always)
    mutating func push(_ event: Event) {
        var i = items.count
        items.append(event)
        while i > 0 {
            let parent = (i - 1) >> 2
            if items[parent].key <= event.key { break }
            items[i] = items[parent]
            i = parent
        }
        items[i] = event
    }

    /// Removes the earliest event (only when not empty).
    @inline(__always)
    mutating func removeTop() {
        let last = items.removeLast()
        let n = items.count
        guard n > 0 else { return }
        var i = 0
        while true {
            let first = 4 * i + 1
            if first >= n { break }
            var child = first
            var key = items[first].key
            var c = first + 1
            while c < min(first + 4, n) {
                if items[c].key < key {
                    key = items[c].key
                    child = c
                }
                c += 1
            }
            if last.key <= key { break }
            items[i] = items[child]
            i = child
        }
        items[i] = last
    }
}
