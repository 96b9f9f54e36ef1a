extension Array where Element == UInt64 {
    /// Sorts ascending, as `sort()` does, by the integers' bits eleven at a time (least
    /// significant first): `name-collision` sorts one integer a profile, and the standard
    /// library's merge sort is slower for many profiles, with a branch mispredicted in most
    /// comparisons. A digit that every element shares is skipped, and short arrays are left
    /// to `sort()`.
    package mutating func radixSort() {
        let n = count
        guard n >= Self.radixMinimum else { return sort() }
        let digits = (UInt64.bitWidth + Self.digitBits - 1) / Self.digitBits
        let buckets = 1 << Self.digitBits, mask = UInt64(buckets - 1)
        // Every digit's counts in one read of the elements.
        var counts = [Int](repeating: 0, count: digits * buckets)
        for x in self {
            var x = x
            for d in 0..<digits {
                counts[d * buckets + Int(truncatingIfNeeded: x & mask)] += 1
                x >>= UInt64(Self.digitBits)
            }
        }
        var other = [UInt64](repeating: 0, count: n)
        var inSelf = true
        withUnsafeMutableBufferPointer { a in
            other.withUnsafeMutableBufferPointer { b in
                counts.withUnsafeMutableBufferPointer { counts in
                    for d in 0..<digits {
                        let base = d * buckets
                        // A digit all elements share moves nothing.
                        if counts[base + Int(truncatingIfNeeded: (inSelf ? a[0] : b[0]) >> UInt64(d * Self.digitBits) & mask)] == n {
                            continue
                        }
                        var start = 0
                        for k in 0..<buckets {
                            let c = counts[base + k]
                            counts[base + k] = start
                            start += c
                        }
                        let from = inSelf ? a : b, to = inSelf ? b : a
                        let shift = UInt64(d * Self.digitBits)
                        for x in from {
                            let k = base + Int(truncatingIfNeeded: x >> shift & mask)
                            to[counts[k]] = x
                            counts[k] += 1
                        }
                        inSelf.toggle()
                    }
                }
            }
        }
        if !inSelf { self = other }
    }

    static let digitBits = 11
    static let radixMinimum = 512
}
