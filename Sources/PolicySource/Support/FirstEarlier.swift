/// For each item of `bytes`, the index of the first earlier item with the same bytes, or nil. Item
/// `i` is `bytes[ends[i - 1] ..< ends[i]]` (the first from 0): identifiers written one after
/// another, with no String made for any. By hashing each key (`hashOfBytes`: seeded per process,
/// so no file can be written to make keys collide) and sorting the hashes as plain integers:
/// cheaper than sorting the keys as Strings, and a word an item where a hash table of the keys
/// would be the largest thing held while the rules run.
///
/// `hash` is `hashOfBytes` but for tests, which give one that collides to check that keys are
/// still told apart by their bytes.
package func firstEarlier(_ bytes: UnsafeBufferPointer<UInt8>, ends: [Int32],
                  hash: (UnsafeBufferPointer<UInt8>) -> UInt64 = hashOfBytes) -> [Int32?] {
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
    // Each run's later items take its first for theirs, then each is checked against it by bytes
    // in the items' own order: one key read in turn, the other wherever it is (in the hashes'
    // order both would be read at random). A run that holds two keys, whose hash bits they share,
    // fails a check, and then every run is compared key by key below.
    /// Each run of two or more items of equal hash bits, as positions in `order`.
    func forEachRun(_ body: (ClosedRange<Int>) -> Void) {
        var run = 0
        for k in order.indices where k + 1 == count || order[k + 1] & ~indexMask != order[run] & ~indexMask {
            if k > run { body(run...k) }
            run = k + 1
        }
    }
    forEachRun { run in
        let first = Int32(truncatingIfNeeded: order[run.lowerBound] & indexMask)
        for j in (run.lowerBound + 1)...run.upperBound { out[Int(order[j] & indexMask)] = first }
    }
    if out.indices.allSatisfy({ i in out[i].map { sameBytes(key(Int($0)), key(i)) } ?? true }) { return out }
    out = [Int32?](repeating: nil, count: count)
    var firsts: [Int] = []
    forEachRun { run in
        firsts.removeAll(keepingCapacity: true)
        for j in run {
            let i = Int(order[j] & indexMask)
            if let first = firsts.first(where: { sameBytes(key($0), key(i)) }) {
                out[i] = Int32(first)
            } else {
                firsts.append(i)
            }
        }
    }
    return out
}

/// The standard library's hash of some bytes: seeded per process, so no file can be written to
/// make two keys share their hash bits.
func hashOfBytes(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
    var hasher = Hasher()
    hasher.combine(bytes: UnsafeRawBufferPointer(bytes))
    return hasher.finalize64()
}
