/// Whether `a` sorts before `b` by their UTF-8 bytes (a prefix first): the order of every sorted
/// list of paths and names policyc prints or writes. On the contiguous bytes: the generic
/// comparison of two UTF8Views is far slower. Borrowed, not copied:
/// `withUTF8` needs a mutable copy of each string, and retaining and releasing them cost more
/// than comparing them.
public func utf8Precedes(_ a: String, _ b: String) -> Bool {
    let precedes = a.utf8.withContiguousStorageIfAvailable { x in
        b.utf8.withContiguousStorageIfAvailable { y -> Bool in
            let common = min(x.count, y.count)
            var i = 0
            // Eight bytes at a time past a shared prefix (paths share long ones), then byte by byte.
            if let p = x.baseAddress, let q = y.baseAddress {
                while i + 8 <= common,
                      UnsafeRawPointer(p + i).loadUnaligned(as: UInt64.self) == UnsafeRawPointer(q + i).loadUnaligned(as: UInt64.self) {
                    i += 8
                }
            }
            while i < common {
                if x[i] != y[i] { return x[i] < y[i] }
                i += 1
            }
            return x.count < y.count
        }
    }
    if let precedes, let precedes { return precedes }
    // Text not stored as contiguous UTF-8 (bridged from elsewhere): the generic comparison.
    return a.utf8.lexicographicallyPrecedes(b.utf8)
}

/// Whether every UTF-8 byte of `s` satisfies `test`, on the contiguous bytes: the generic
/// `s.utf8.allSatisfy` cost several times as much a byte, on every message and generated line.
@inline(__always)
package func allUTF8(_ s: String, _ test: (UInt8) -> Bool) -> Bool {
    if let result = s.utf8.withContiguousStorageIfAvailable({ bytes -> Bool in
        for b in bytes where !test(b) { return false }
        return true
    }) {
        return result
    }
    return s.utf8.allSatisfy(test)
}
