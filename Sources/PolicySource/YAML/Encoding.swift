/// The UTF-8 check made before libyaml sees a byte (libyaml would silently accept UTF-16).
package enum Encoding {
    struct Problem {
        var mark: Mark
        var message: String
    }

    static func problem(in bytes: [UInt8]) -> Problem? {
        if bytes.starts(with: [0xFF, 0xFE, 0, 0]) || bytes.starts(with: [0, 0, 0xFE, 0xFF]) {
            return Problem(mark: .start, message: "the file is UTF-32, not UTF-8; save it as UTF-8")
        }
        if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) {
            return Problem(mark: .start, message: "the file is UTF-16, not UTF-8; save it as UTF-8")
        }
        // UTF-16 without a byte order mark: ASCII text with a zero byte beside every character.
        if bytes.count >= 2 && (bytes[0] == 0) != (bytes[1] == 0) {
            return Problem(mark: .start, message: "the file looks like UTF-16 (zero bytes between characters), not UTF-8; save it as UTF-8")
        }
        if let offset = firstInvalidUTF8(bytes) {
            return Problem(
                mark: mark(at: offset, in: bytes),
                message: "the file is not valid UTF-8: byte 0x\(String(bytes[offset], radix: 16, uppercase: true)) at offset \(offset) cannot start or continue a character")
        }
        return nil
    }

    /// The offset of the first byte that is not part of a well-formed UTF-8 sequence, if any.
    static func firstInvalidUTF8(_ bytes: [UInt8]) -> Int? {
        bytes.withUnsafeBufferPointer { firstInvalidUTF8($0) }
    }

    package static func firstInvalidUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var i = 0
        let n = bytes.count
        while i < n {
            // ASCII 32 bytes at a time, then eight: no byte of the words has its top bit set (a
            // word a step is slower, and this runs over the whole file before libyaml's first
            // event).
            if let base = bytes.baseAddress {
                while i + 32 <= n {
                    let p = UnsafeRawPointer(base + i)
                    let any = p.loadUnaligned(as: UInt64.self) | p.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
                        | p.loadUnaligned(fromByteOffset: 16, as: UInt64.self) | p.loadUnaligned(fromByteOffset: 24, as: UInt64.self)
                    if any & 0x8080_8080_8080_8080 != 0 { break }
                    i += 32
                }
                while i + 8 <= n, UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self) & 0x8080_8080_8080_8080 == 0 {
                    i += 8
                }
                if i >= n { break }
            }
            let b = bytes[i]
            if b < 0x80 {
                i += 1
                continue
            }
            // Two-byte characters in a row (accented Latin, Greek, Cyrillic, Hebrew, Arabic) at
            // once: one by one through the switch below, a file of accented words is slow.
            if b >= 0xC2, b <= 0xDF, i + 1 < n, bytes[i + 1] & 0xC0 == 0x80 {
                i += 2
                while i + 1 < n, bytes[i] >= 0xC2, bytes[i] <= 0xDF, bytes[i + 1] & 0xC0 == 0x80 { i += 2 }
                continue
            }
            // So too three-byte characters whose second byte may be any continuation (all but
            // E0 and ED): most of the Basic Multilingual Plane, CJK among it.
            if b >= 0xE1, b != 0xED, b <= 0xEF, i + 2 < n, bytes[i + 1] & 0xC0 == 0x80, bytes[i + 2] & 0xC0 == 0x80 {
                i += 3
                while i + 2 < n, bytes[i] >= 0xE1, bytes[i] != 0xED, bytes[i] <= 0xEF,
                      bytes[i + 1] & 0xC0 == 0x80, bytes[i + 2] & 0xC0 == 0x80 { i += 3 }
                continue
            }
            let length: Int
            var lower: UInt8 = 0x80, upper: UInt8 = 0xBF
            switch b {
            case 0xC2...0xDF: length = 2
            case 0xE0: length = 3; lower = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED: length = 3; upper = 0x9F
            case 0xF0: length = 4; lower = 0x90
            case 0xF1...0xF3: length = 4
            case 0xF4: length = 4; upper = 0x8F
            default: return i
            }
            guard i + length <= n else { return i }
            if bytes[i + 1] < lower || bytes[i + 1] > upper { return i }
            var k = 2
            while k < length {
                if bytes[i + k] & 0xC0 != 0x80 { return i }
                k += 1
            }
            i += length
        }
        return nil
    }

    /// 1-based line and column (in Unicode scalars) of a byte offset, as every position is
    /// reported (the editor's line breaks, line 1 after a BOM).
    static func mark(at offset: Int, in bytes: [UInt8]) -> Mark {
        LineIndex(bytes).mark(at: offset)
    }
}
