extension Dictionary {
    /// The value at `key`, which is `value` when there was none (it is put there then): one
    /// lookup, for the maps that keep each key's first occurrence.
    public mutating func firstValue(for key: Key, else value: Value) -> Value {
        func read(_ stored: inout Value) -> Value { stored }
        return read(&self[key, default: value])
    }
}
