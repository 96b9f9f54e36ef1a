/// For each item of `bytes`, the index of the first earlier item with the same bytes, or nil. Item
/// `i` is `bytes[ends[i - 1] ..< ends[i]]` (the first from 0): identifiers written one after
/// another, with no String made for any. By hashing each key (`keyedHash`: keyed per process, so
/// no file can be written to make keys collide) and sorting the hashes as plain integers: sorting
/// the keys as Strings by a closure cost 120 million instructions on 37,000 profile names of one
/// fold, all distinct. A hash table of the keys was the largest thing held while the rules ran
/// (5 MB for 50,000 profiles); the sorted hashes are a word an item.
///
/// `hash` is `keyedHash` but for tests, which give one that collides to check that keys are still
/// told apart by their bytes.
package func firstEarlier(_ bytes: UnsafeBufferPointer<UInt8>, ends: [Int32],
                  hash: (UnsafeBufferPointer<UInt8>) -> UInt64 = keyedHash) -> [Int32?] {
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
    // in the items' own order: one key read in turn, the other wherever it is. Checked in the
    // hashes' order, both keys were read at random (4.4 of name-collision's last 9 ms on 36,000
    // names of one fold). A run that holds two keys, whose hash bits they share, fails a check,
    // and then every run is compared key by key below.
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

/// A hash of some bytes under a key drawn per process: eight bytes at a time through splitmix64's
/// mixer, from a state that holds the key and the length. Without the key no file can be written
/// to make two keys share their hash bits; with the standard library's SipHash, as safe for that,
/// `firstEarlier` took 52 million instructions on 36,000 names, with this 40.
package func keyedHash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
    let n = bytes.count
    var h = hashKey ^ (UInt64(n) &* 0x9E37_79B9_7F4A_7C15)
    guard let base = bytes.baseAddress else { return mix64(h) }
    var i = 0
    while i + 8 <= n {
        h = mix64(h ^ UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self))
        i += 8
    }
    if i < n {
        var tail: UInt64 = 0
        for k in 0..<(n - i) { tail |= UInt64(base[i + k]) << UInt64(8 * k) }
        h = mix64(h ^ tail)
    }
    return mix64(h)
}

private let hashKey = UInt64.random(in: .min ... .max)

/// splitmix64's finalizer: a bijection of 64 bits whose every output bit depends on every input bit.
@inline(__always)
package func mix64(_ x: UInt64) -> UInt64 {
    var z = x
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
}
