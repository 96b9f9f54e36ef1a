/// The first value stored under each key. A few keys are scanned: most files name a few things,
/// and hashing them cost more than comparing them. Past `scanned` keys they are hashed, so that a
/// file of thousands stays linear. Keys compare by their bytes, in both forms (see `sameText`).
struct FirstByKey<Value> {
    private var few: [(key: String, value: Value)] = []
    private var many: [ExactText: Value] = [:]
    /// How many keys to make room for once they are hashed: growing a table of tens of thousands
    /// held the old and the new one at once (the peak memory of a file of 50 000 profiles).
    private var expecting = 0
    static var scanned: Int { 16 }

    init(expecting count: Int = 0) {
        expecting = count
    }

    subscript(key: String) -> Value? {
        guard few.count < Self.scanned else { return many[ExactText(key)] }
        for entry in few where sameText(entry.key, key) { return entry.value }
        return nil
    }

    /// Stores `value` under `key`, unless a value is stored there already.
    mutating func keepFirst(_ key: String, _ value: Value) {
        guard few.count < Self.scanned else {
            // One lookup: the default is stored only when the slot is empty (`keep` changes nothing).
            keep(&many[ExactText(key), default: value])
            return
        }
        if self[key] != nil { return }
        few.append((key, value))
        if few.count == Self.scanned {
            many.reserveCapacity(max(expecting, 2 * Self.scanned))
            for entry in few { many[ExactText(entry.key)] = entry.value }
        }
    }
}

/// Touches its argument: through `Dictionary`'s `default:` subscript, an insert-if-absent in one lookup.
@inline(__always)
private func keep<T>(_ value: inout T) {}
