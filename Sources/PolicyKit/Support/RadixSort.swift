extension Array where Element == UInt64 {
    /// Sorts ascending, as `sort()` does, a byte at a time from the least significant (a stable
    /// radix sort: eight passes over the items, none of them comparing two). `name-collision`
    /// sorts one integer a profile; for 70 000 profiles `sort()` cost 18.8 million instructions.
    mutating func radixSort() {
        let n = count
        // Below a few hundred items the counting costs more than the comparisons it saves.
        guard n >= 256 else { return sort() }
        var counts = [Int](repeating: 0, count: 8 * 256)
        var other = [UInt64](repeating: 0, count: n)
        counts.withUnsafeMutableBufferPointer { counts in
            // Every byte's counts in one pass.
            withUnsafeBufferPointer { keys in
                for key in keys {
                    for digit in 0..<8 { counts[digit << 8 | Int(truncatingIfNeeded: key >> UInt64(digit << 3) & 0xFF)] += 1 }
                }
            }
            for digit in 0..<8 {
                let shift = UInt64(digit << 3)
                // A byte every item has (the high bytes of small numbers) leaves the order as it is.
                if counts[digit << 8 | Int(truncatingIfNeeded: self[0] >> shift & 0xFF)] == n { continue }
                var start = 0
                for b in 0..<256 {
                    let c = counts[digit << 8 | b]
                    counts[digit << 8 | b] = start
                    start += c
                }
                withUnsafeBufferPointer { from in
                    other.withUnsafeMutableBufferPointer { to in
                        for key in from {
                            let slot = digit << 8 | Int(truncatingIfNeeded: key >> shift & 0xFF)
                            to[counts[slot]] = key
                            counts[slot] += 1
                        }
                    }
                }
                swap(&self, &other)
            }
        }
    }
}
