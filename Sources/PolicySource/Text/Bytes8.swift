/// Eight bytes at a time, as one little-endian word (the first byte in the low byte): the checks
/// `NameFold` and `ASCIIName` make of every byte of every name, made of eight at once. Each byte's
/// sum below stays under 0x100, so no carry crosses into the next byte.
package enum Bytes8 {
    @inline(__always)
    package static func each(_ c: UInt8) -> UInt64 { 0x0101_0101_0101_0101 &* UInt64(c) }

    @inline(__always)
    package static func load(_ b: UnsafeBufferPointer<UInt8>, at i: Int) -> UInt64 {
        UInt64(littleEndian: UnsafeRawPointer(b.baseAddress! + i).loadUnaligned(as: UInt64.self))
    }

    /// The high bit of each byte from `lo` through `hi` (both below 0x80), the other bits clear.
    @inline(__always)
    static func within(_ w: UInt64, _ lo: UInt8, _ hi: UInt8) -> UInt64 {
        let low7 = w & each(0x7F)
        return (low7 &+ each(0x80 - lo)) & ~(low7 &+ each(0x7F - hi)) & ~w & each(0x80)
    }

    @inline(__always)
    package static func has(_ w: UInt64, _ c: UInt8) -> Bool {
        let x = w ^ each(c)
        return (x &- each(0x01)) & ~x & each(0x80) != 0
    }

    @inline(__always)
    package static func allLettersOrDigits(_ w: UInt64) -> Bool {
        within(w, 0x30, 0x39) | within(w, 0x41, 0x5A) | within(w, 0x61, 0x7A) == each(0x80)
    }

    @inline(__always)
    static func allLettersDigitsOrDashes(_ w: UInt64) -> Bool {
        within(w, 0x30, 0x39) | within(w, 0x41, 0x5A) | within(w, 0x61, 0x7A) | within(w, 0x2D, 0x2D) == each(0x80)
    }

    @inline(__always)
    package static func allLowercaseOrDigits(_ w: UInt64) -> Bool {
        within(w, 0x30, 0x39) | within(w, 0x61, 0x7A) == each(0x80)
    }

    /// ASCII capitals lowercased; every other byte as it was.
    @inline(__always)
    package static func lowercased(_ w: UInt64) -> UInt64 {
        w | within(w, 0x41, 0x5A) >> 2
    }

    package static func contains(_ b: UnsafeBufferPointer<UInt8>, _ c: UInt8) -> Bool {
        var i = 0
        while i + 8 <= b.count {
            if has(load(b, at: i), c) { return true }
            i += 8
        }
        return b[i...].contains(c)
    }
}
