/// For each item of `bytes`, the index of the first earlier item with the same bytes, or nil. Item
/// `i` is `bytes[ends[i - 1] ..< ends[i]]` (the first from 0): identifiers written one after
/// another, with no String made for any. By hashing each key (the standard library's hash, seeded
/// per process, so no file can be written to make keys collide) and sorting the hashes as plain
/// integers: sorting the keys as Strings by a closure cost 120 million instructions on 37,000
/// profile names of one fold, all distinct. A hash table of the keys was the largest thing held
/// while the rules ran (5 MB for 50,000 profiles); the sorted hashes are a word an item.
///
/// `hash` is the standard library's but for tests, which give one that collides to check that
/// keys are still told apart by their bytes.
func firstEarlier(_ bytes: UnsafeBufferPointer<UInt8>, ends: [Int32],
                  hash: (UnsafeBufferPointer<UInt8>) -> UInt64 = standardHash) -> [Int32?] {
    let count = ends.count
    var out = [Int32?](repeating: nil, count: count)
    guard count > 1 else { return out }
    func key(_ i: Int) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: bytes[(i == 0 ? 0 : Int(ends[i - 1]))..<Int(ends[i])])
    }
    // Each item as one integer: the top bits of its key's hash, then its index. Sorted, the items
    // of one key end up side by side in index order, so each run's first is its key's first; a
    // run whose hash bits two keys share is only a run to compare by bytes.
    let indexBits = max(1, Int.bitWidth - (count - 1).leadingZeroBitCount)
    let indexMask: UInt64 = (1 << UInt64(indexBits)) - 1
    var order = [UInt64](repeating: 0, count: count)
    for i in 0..<count { order[i] = hash(key(i)) & ~indexMask | UInt64(i) }
    order.radixSort()
    var firsts: [Int] = []
    var run = 0
    for k in order.indices where k + 1 == count || order[k + 1] & ~indexMask != order[run] & ~indexMask {
        defer { run = k + 1 }
        guard k > run else { continue }
        firsts.removeAll(keepingCapacity: true)
        for j in run...k {
            let i = Int(order[j] & indexMask)
            if let first = firsts.first(where: { key($0).elementsEqual(key(i)) }) {
                out[i] = Int32(first)
            } else {
                firsts.append(i)
            }
        }
    }
    return out
}

/// The standard library's hash of some bytes, as `HashIndex` takes it.
func standardHash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
    var hasher = Hasher()
    hasher.combine(bytes: UnsafeRawBufferPointer(bytes))
    return hasher.finalize64()
}
