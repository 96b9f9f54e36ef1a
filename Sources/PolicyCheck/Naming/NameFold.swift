import PolicySource

/// A name's fold: a 64-bit hash of its bytes with '-' and '_' left out and ASCII letters
/// lowercased. Every identifier made from a valid name (ASCII, no '_') by `Naming` folds as the name
/// does, so two names with one identifier in any language have one fold, and a name whose fold
/// no taken word has cannot become one. Rules compare folds first, cheaply,
/// and make identifiers only for the names that share one (PerfFastPathTests checks the property).
///
/// The folded bytes are hashed eight at a time (`Folder`), and read eight at a time where no
/// byte needs a look of its own: byte by byte, `bad-name` and `name-collision` spent a large part
/// of linting many long names on folding them.
enum NameFold {
    /// `Values.isName(text) ? of(text) : nil`, in one pass over the bytes: `name-collision` asks
    /// both of every profile.
    static func ofName(_ text: String) -> UInt64? {
        var text = text
        return text.withUTF8 { u -> UInt64? in
            guard !u.isEmpty, u.count <= Values.maxNameLength, Values.isLower(u[0]) else { return nil }
            var folder = Folder()
            var i = 0
            // The first part: a lowercase letter, then letters and digits.
            while i + 8 <= u.count {
                let w = Bytes8.load(u, at: i)
                guard Bytes8.allLettersOrDigits(w) else { break }
                folder.add8(w | Bytes8.each(0x20))
                i += 8
            }
            while i < u.count, Values.isLower(u[i]) || Values.isUpper(u[i]) || Values.isDigit(u[i]) {
                folder.add(ASCIIName.lower(u[i]))
                i += 1
            }
            // Then parts of lowercase letters and digits, each after one '-' (left out of the fold).
            while i < u.count {
                guard u[i] == 0x2D else { return nil }
                i += 1
                let start = i
                while i + 8 <= u.count {
                    let w = Bytes8.load(u, at: i)
                    guard Bytes8.allLowercaseOrDigits(w) else { break }
                    folder.add8(w)
                    i += 8
                }
                while i < u.count, Values.isLower(u[i]) || Values.isDigit(u[i]) {
                    folder.add(u[i])
                    i += 1
                }
                if i == start { return nil }
            }
            return folder.value
        }
    }

    static func of(_ text: String) -> UInt64 {
        var text = text
        return text.withUTF8 { b in
            var folder = Folder()
            var i = 0
            while i + 8 <= b.count {
                let w = Bytes8.load(b, at: i)
                if !Bytes8.has(w, 0x2D) && !Bytes8.has(w, 0x5F) {
                    folder.add8(Bytes8.lowercased(w))
                } else {
                    for c in b[i..<i + 8] where c != 0x2D && c != 0x5F { folder.add(ASCIIName.lower(c)) }
                }
                i += 8
            }
            for c in b[i...] where c != 0x2D && c != 0x5F { folder.add(ASCIIName.lower(c)) }
            return folder.value
        }
    }

    /// The hash of a sequence of folded bytes, however they are given: eight at a time through
    /// splitmix64's mixer (`mix64`), the count last, so that a fold is one value whether its bytes
    /// came one by one or eight at once, across dashes or not. Folds need no seed: names that
    /// share one are then compared by their bytes.
    struct Folder {
        private var hash: UInt64 = 0x243F_6A88_85A3_08D3
        /// The bytes not yet mixed in, the first in the low byte, and how many.
        private var pending: UInt64 = 0
        private var filled = 0
        private var count = 0

        init() {}

        @inline(__always)
        mutating func add(_ c: UInt8) {
            pending |= UInt64(c) << UInt64(filled &* 8)
            filled &+= 1
            count &+= 1
            if filled == 8 {
                hash = mix64(hash ^ pending)
                pending = 0
                filled = 0
            }
        }

        /// Eight bytes, the first in the low byte.
        @inline(__always)
        mutating func add8(_ w: UInt64) {
            count &+= 8
            if filled == 0 {
                hash = mix64(hash ^ w)
            } else {
                hash = mix64(hash ^ (pending | w << UInt64(filled &* 8)))
                pending = w >> UInt64(64 &- filled &* 8)
            }
        }

        var value: UInt64 { mix64(hash ^ pending ^ UInt64(truncatingIfNeeded: count) &* 0x9E37_79B9_7F4A_7C15) }
    }

    /// A set of folds as a 4096-bit filter: `mayContain` is false only for a fold not in the set.
    struct Filter: Sendable {
        private var bits = [UInt64](repeating: 0, count: 64)

        init<S: Sequence>(_ words: S) where S.Element == String {
            for word in words {
                let i = Self.bit(Self.mix(NameFold.of(word)))
                bits[i >> 6] |= 1 << UInt64(i & 63)
            }
        }

        func mayContain(_ fold: UInt64) -> Bool {
            let i = Self.bit(Self.mix(fold))
            return bits[i >> 6] & (1 << UInt64(i & 63)) != 0
        }

        private static func mix(_ h: UInt64) -> UInt64 { h ^ (h >> 29) }
        private static func bit(_ h: UInt64) -> Int { Int(truncatingIfNeeded: h & 4095) }
    }
}

/// splitmix64's finalizer: a bijection of 64 bits whose every output bit depends on every input bit.
@inline(__always)
private func mix64(_ x: UInt64) -> UInt64 {
    var z = x
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
}
