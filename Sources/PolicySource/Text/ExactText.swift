/// Policy text compares by its Unicode scalars — its UTF-8 bytes — as the server, JSON, Kotlin and
/// TypeScript compare strings. Swift's `==` on String is canonical equivalence: it takes
/// "\u{958}" for "\u{915}\u{93C}" and even the Kelvin sign "\u{212A}" for "K", so two codes, keys
/// or names that every other reader tells apart would be one to lint. Every comparison of text
/// from a policy goes through `sameText` or `ExactText`.
@inline(__always)
public func sameText(_ a: String, _ b: String) -> Bool {
    // The lengths first: O(1) for native strings, and most unequal texts differ there.
    guard a.utf8.count == b.utf8.count else { return false }
    let same = a.utf8.withContiguousStorageIfAvailable { x in
        b.utf8.withContiguousStorageIfAvailable { y in sameBytes(x, y) }
    }
    if let same, let same { return same }
    // Text not stored as contiguous UTF-8 (bridged from elsewhere): byte by byte all the same.
    return a.utf8.elementsEqual(b.utf8)
}

/// Whether two runs of bytes are the same, eight bytes at a time.
@inline(__always)
func sameBytes(_ x: UnsafeBufferPointer<UInt8>, _ y: UnsafeBufferPointer<UInt8>) -> Bool {
    guard x.count == y.count else { return false }
    var i = 0
    if let p = x.baseAddress, let q = y.baseAddress {
        while i + 8 <= x.count {
            guard UnsafeRawPointer(p + i).loadUnaligned(as: UInt64.self)
                == UnsafeRawPointer(q + i).loadUnaligned(as: UInt64.self) else { return false }
            i += 8
        }
    }
    while i < x.count {
        if x[i] != y[i] { return false }
        i += 1
    }
    return true
}

/// A String as a dictionary or set key that hashes and compares by UTF-8 bytes (see `sameText`).
public struct ExactText: Hashable, Sendable, CustomStringConvertible {
    public var text: String

    @inline(__always)
    public init(_ text: String) {
        self.text = text
    }

    public var description: String { text }

    @inline(__always)
    public static func == (a: ExactText, b: ExactText) -> Bool { sameText(a.text, b.text) }

    public func hash(into hasher: inout Hasher) {
        let hashed: Void? = text.utf8.withContiguousStorageIfAvailable { Self.hash(UnsafeRawBufferPointer($0), into: &hasher) }
        if hashed == nil {
            // The same bytes the same way, so equal texts hash alike however they are stored.
            Array(text.utf8).withUnsafeBytes { Self.hash($0, into: &hasher) }
        }
    }

    /// How a text of these UTF-8 bytes hashes: the length first (a variable-length value must not
    /// hash as its prefix would), then the bytes.
    @inline(__always)
    static func hash(_ bytes: UnsafeRawBufferPointer, into hasher: inout Hasher) {
        hasher.combine(bytes.count)
        hasher.combine(bytes: bytes)
    }
}
