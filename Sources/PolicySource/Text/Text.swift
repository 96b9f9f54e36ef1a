/// Substring search on the UTF-8 bytes, for all of policyc. The standard library's own versions
/// (`contains(_:)`, `firstRange(of:)` with a string) live in `_StringProcessing`, whose static
/// archive pulls the whole regex engine (~1 MB) into the one-file binary; and they compare
/// Characters (canonical equivalence), while policy text compares exactly, by its bytes.
extension StringProtocol {
    /// Whether `other` occurs in the text, byte for byte. Non-generic, so it is chosen over the
    /// standard library's generic one.
    public func contains(_ other: String) -> Bool {
        firstRange(of: other) != nil
    }

    /// Where `other` first occurs, byte for byte (an empty `other` occurs at the start).
    public func firstRange(of other: String) -> Range<Index>? {
        let hay = utf8, needle = Array(other.utf8)
        guard let first = needle.first else { return startIndex..<startIndex }
        var i = hay.startIndex
        while i != hay.endIndex {
            if hay[i] == first {
                var j = i, k = 0
                while k < needle.count, j != hay.endIndex, hay[j] == needle[k] {
                    hay.formIndex(after: &j)
                    k += 1
                }
                if k == needle.count { return i..<j }
            }
            hay.formIndex(after: &i)
        }
        return nil
    }

    /// Every occurrence of `target` replaced with `replacement`, left to right.
    public func replacingAll(_ target: String, with replacement: String) -> String {
        guard !target.isEmpty else { return String(self) }
        var out = ""
        var rest = self[...]
        while let r = rest.firstRange(of: target) {
            out += rest[..<r.lowerBound]
            out += replacement
            rest = rest[r.upperBound...]
        }
        return out + rest
    }
}

extension String {
    /// `count` spaces (none for a negative count), as indentation. `String(repeating: " ",
    /// count:)` appends one string at a time, which is slow: a fix written for each of many
    /// deeply indented keys would take most of lint's time.
    public static func spaces(_ count: Int) -> String {
        let count = Swift.max(0, count)
        return String(unsafeUninitializedCapacity: count) { buffer in
            _ = buffer.prefix(count).initialize(from: repeatElement(UInt8(ascii: " "), count: count))
            return count
        }
    }
}

extension String {
    /// `unicodeScalars.count`, from the UTF-8 bytes (a String's are valid): each byte that does
    /// not continue a scalar (10xxxxxx) starts one. Eight bytes at a time: walking the scalar
    /// view is far slower on a long name.
    public var scalarCount: Int {
        var text = self
        return text.withUTF8 { b in
            var count = 0, i = 0
            if let base = b.baseAddress {
                while i + 8 <= b.count {
                    let w = UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)
                    // A byte's top bit set and the next clear: its bit 6 shifted up is clear.
                    count += 8 - (w & ~(w << 1) & 0x8080_8080_8080_8080).nonzeroBitCount
                    i += 8
                }
            }
            while i < b.count {
                if b[i] & 0xC0 != 0x80 { count += 1 }
                i += 1
            }
            return count
        }
    }
}
