/// Names of ASCII letters, digits and '-' only (every valid policy and profile name), converted on
/// bytes in one pass. The Character-based conversions are far slower, and the rules convert every
/// profile name of every file; for such names both give the same result (see
/// PerfFastPathTests).
package enum ASCIIName {
    package enum Kind { case upperCamel, lowerCamel, screamingSnake }

    /// nil when `name` has any other character. A name without parts (only dashes) gives "".
    package static func convert(_ name: String, _ kind: Kind) -> String? {
        var name = name
        return name.withUTF8 { b -> String? in
            guard isASCIIName(b) else { return nil }
            // Made in a scratch buffer, then copied: a String made with room for the longest
            // result is a heap string even when the name fits the 15 bytes of a small one, and a
            // rule that keeps 50 000 profile constants kept 64 bytes of heap for each.
            return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 2 * b.count + 1) { out -> String in
                let n = write(b, kind, to: out, at: 0)
                return String(decoding: UnsafeBufferPointer(rebasing: out[..<n]), as: UTF8.self)
            }
        }
    }

    /// `convert`'s bytes of a name already known to be ASCII (`isASCIIName`), written to `out`
    /// from `start` (room for 2·count bytes there), with no String made: `name-collision`
    /// compares 65 000 profiles' identifiers so. Where they end.
    package static func write(_ b: UnsafeBufferPointer<UInt8>, _ kind: Kind, to out: UnsafeMutableBufferPointer<UInt8>, at start: Int) -> Int {
        guard let name = b.baseAddress, !b.isEmpty else { return start }
        precondition(start >= 0 && out.count - start >= 2 * b.count, "no room for the identifier")
        let to = out.baseAddress! + start
        if kind == .screamingSnake { return start + screamingSnake(name, b.count, to: to) }
        guard Bytes8.contains(b, 0x2D) else {
            // The camel-case identifier of a name without dashes is the name, its first letter
            // raised for upper camel case: copied, not made a byte at a time.
            to.update(from: name, count: b.count)
            if kind == .upperCamel { to[0] = upper(name[0]) }
            return start + b.count
        }
        return start + camelCase(b, upperFirst: kind == .upperCamel, to: to)
    }

    /// `write`'s camel case: dashes left out, the first letter of each part raised but the first
    /// part's (lower camel case) or of every part (upper).
    private static func camelCase(_ b: UnsafeBufferPointer<UInt8>, upperFirst: Bool, to out: UnsafeMutablePointer<UInt8>) -> Int {
        var n = 0
        var partStart = true  // at the first byte of a part (parts lie between dashes)
        var anyPart = false
        for c in b {
            if c == 0x2D {
                partStart = true
                continue
            }
            out[n] = partStart && (upperFirst || anyPart) ? upper(c) : c
            n &+= 1
            partStart = false
            anyPart = true
        }
        return n
    }

    /// `write`'s SCREAMING_SNAKE, through pointers and without a branch on the bytes. Written with
    /// branches it is slower, and names of random capitals (an attacker's case variants)
    /// mispredicted about every other byte; it is made for every name of a group
    /// `name-collision` compares, and for every name whose constants may be taken. Each byte's
    /// class (`snakeClass`) and its neighbours' say whether an underscore goes before it
    /// (`snakeUnderscores`); an underscore is always stored and kept only then, and a dash is
    /// stored and not kept. Room for 2·count bytes at `out`: before byte i at most 2·i are
    /// written, so the two stores for it land below 2·count.
    private static func screamingSnake(_ b: UnsafePointer<UInt8>, _ count: Int, to out: UnsafeMutablePointer<UInt8>) -> Int {
        // Leading dashes make nothing, and the first part has no underscore before it.
        var i = 0
        while i < count && b[i] == 0x2D { i &+= 1 }
        guard i < count else { return 0 }
        out[0] = upper(b[i])
        var n = 1
        let underscores = snakeUnderscores
        // The classes of the previous, this and the next byte, two bits each; past the end a dash.
        var window = snakeClass(b[i]) << 2 | (i &+ 1 < count ? snakeClass(b[i &+ 1]) : 0)
        i &+= 1
        while i < count {
            let c = b[i]
            window = (window << 2 | (i &+ 1 < count ? snakeClass(b[i &+ 1]) : 0)) & 63
            out[n] = 0x5F
            n &+= Int(truncatingIfNeeded: underscores >> window & 1)
            let k = window >> 2 & 3
            out[n] = c &- UInt8(truncatingIfNeeded: (k &+ 1) & 4) << 3  // a lowercase letter (3) raised
            n &+= Int(truncatingIfNeeded: (k &+ 3) >> 2)  // all but a dash (0) kept
            i &+= 1
        }
        return n
    }

    /// The class of a byte of an ASCII name, in the order of their codes: 0 a dash, 1 a digit, 2 a
    /// capital, 3 a lowercase letter. From its bits, not by comparisons, which the compiler makes
    /// branches: 0x40 is set in letters only; then 0x20 tells a lowercase letter (0x61–0x7A)
    /// from a capital (0x41–0x5A), else 0x10 a digit (0x30–0x39) from a dash (0x2D).
    @inline(__always)
    private static func snakeClass(_ c: UInt8) -> UInt64 {
        let letter = UInt64(c >> 6 & 1)
        return letter << 1 | UInt64(c) >> (4 &+ letter) & 1
    }

    /// Bit `previous << 4 | this << 2 | next` (classes, `snakeClass`) is set when SCREAMING_SNAKE
    /// puts an underscore before `this`, a byte after the first part's first: a part starts after
    /// a dash, and a hump (`Naming.humps`) is a capital after a lowercase letter or a digit, or
    /// the last capital of a run before a lowercase letter.
    private static let snakeUnderscores: UInt64 = {
        var bits: UInt64 = 0
        for previous in 0..<4 as Range<UInt64> {
            for this in 1..<4 as Range<UInt64> {  // never before a dash
                for next in 0..<4 as Range<UInt64> {
                    let partStarts = previous == 0
                    let hump = this == 2 && (previous == 1 || previous == 3 || (previous == 2 && next == 3))
                    if partStarts || hump { bits |= 1 << (previous << 4 | this << 2 | next) }
                }
            }
        }
        return bits
    }()

    package static func isASCIIName(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
        // Eight bytes at a time (`Bytes8`): a byte at a time is slower, and this is asked of
        // every name whose constants may be taken.
        var i = 0
        while i + 8 <= b.count {
            guard Bytes8.allLettersDigitsOrDashes(Bytes8.load(b, at: i)) else { return false }
            i += 8
        }
        for c in b[i...] where !(isLower(c) || isUpper(c) || isDigit(c) || c == 0x2D) { return false }
        return true
    }

    static func isLower(_ b: UInt8) -> Bool { b >= 0x61 && b <= 0x7A }
    static func isUpper(_ b: UInt8) -> Bool { b >= 0x41 && b <= 0x5A }
    static func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }
    static func upper(_ b: UInt8) -> UInt8 { isLower(b) ? b - 0x20 : b }
    package static func lower(_ b: UInt8) -> UInt8 { isUpper(b) ? b + 0x20 : b }
}
