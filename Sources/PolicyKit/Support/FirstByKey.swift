/// The first value stored under each key. A few keys are scanned: most files name a few things,
/// and hashing them cost more than comparing them. Past `scanned` keys they are hashed, so that a
/// file of thousands stays linear. Keys compare by their bytes, in both forms (see `sameText`).
struct FirstByKey<Value> {
    private var few: [(key: String, value: Value)] = []
    private var many: [ExactText: Value] = [:]
    static var scanned: Int { 16 }

    subscript(key: String) -> Value? {
        guard few.count < Self.scanned else { return many[ExactText(key)] }
        for entry in few where sameText(entry.key, key) { return entry.value }
        return nil
    }

    /// Stores `value` under `key`, unless a value is stored there already.
    mutating func keepFirst(_ key: String, _ value: Value) {
        guard few.count < Self.scanned else {
            if many[ExactText(key)] == nil { many[ExactText(key)] = value }
            return
        }
        if self[key] != nil { return }
        few.append((key, value))
        if few.count == Self.scanned {
            for entry in few { many[ExactText(entry.key)] = entry.value }
        }
    }
}
