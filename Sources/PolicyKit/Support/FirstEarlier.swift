/// For each of `count` items, the index of the first earlier item with the same key (keys compare
/// by their bytes), or nil; `keyed` holds the items that have a key, each with its index, in any
/// order. By sorting the keys, not hashing them: for a file of 50 000 profiles the hash tables of
/// two languages' identifiers were the largest thing held while its rules ran (5 MB, against
/// 2.4 MB for the sorted keys).
func firstEarlier(count: Int, _ keyed: consuming [(key: String, index: Int32)]) -> [Int32?] {
    // By bytes, then by index: each run of one key starts with its first item.
    keyed.sort(by: keyThenIndex)
    return firstEarlier(count: count, grouped: keyed)
}

/// The order `firstEarlier` sorts in: by bytes, then by index.
func keyThenIndex(_ a: (key: String, index: Int32), _ b: (key: String, index: Int32)) -> Bool {
    if utf8Precedes(a.key, b.key) { return true }
    if utf8Precedes(b.key, a.key) { return false }
    return a.index < b.index
}

/// `firstEarlier` of items already grouped: each key's items next to each other, in index order
/// (sorted by `keyThenIndex`, or sorted so within groups that no key spans).
func firstEarlier(count: Int, grouped keyed: [(key: String, index: Int32)]) -> [Int32?] {
    var out = [Int32?](repeating: nil, count: count)
    var runStart = 0
    for k in keyed.indices {
        if k > 0, sameText(keyed[k].key, keyed[runStart].key) {
            out[Int(keyed[k].index)] = keyed[runStart].index
        } else {
            runStart = k
        }
    }
    return out
}
