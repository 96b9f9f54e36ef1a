import Testing
@testable import PolicySource
@testable import PolicyCheck
@testable import TestSupport

/// The text layer's byte-level kernels must never change a result: each returns exactly what the
/// plain code returns. Correctness only; nothing here is timed.
@Suite struct PerfFastPathTests {
    @Test func jsonQuotingByBytesIsQuotingByScalars() {
        func reference(_ s: String) -> String {
            var out = "\""
            for scalar in s.unicodeScalars {
                switch scalar {
                case "\"": out += "\\\""
                case "\\": out += "\\\\"
                case "\n": out += "\\n"
                case "\r": out += "\\r"
                case "\t": out += "\\t"
                case "\u{2028}", "\u{2029}": out += "\\u" + String(scalar.value, radix: 16)
                default:
                    if scalar.value < 0x20 || scalar.value == 0x7F {
                        let hex = String(scalar.value, radix: 16)
                        out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                    } else {
                        out.unicodeScalars.append(scalar)
                    }
                }
            }
            return out + "\""
        }
        var rng = Rng(state: 83)
        let pieces = ["a", " ", "\"", "\\", "\n", "\r", "\t", "\u{0}", "\u{1B}", "\u{1F}", "\u{7F}", "\u{85}", "\u{9F}",
                      "\u{2028}", "\u{2029}", "\u{2027}", "\u{202A}", "é", "日", "😀", "\u{E2}", "/"]
        for _ in 0..<3000 {
            let text = (0..<rng.below(12)).map { _ in rng.pick(pieces) }.joined()
            #expect(JSON.quote(text) == reference(text), "\(text.debugDescription)")
        }
    }

    /// `scalarCount`, counted from the bytes eight at a time, is `unicodeScalars.count`: for text
    /// of one- to four-byte scalars, at every length around the eight-byte steps.
    @Test func scalarCountIsTheScalarViewsCount() {
        var rng = Rng(state: 73)
        let pieces = ["a", "É", "日", "😀", "\u{301}", "\u{7F}", "\u{80}", "\u{7FF}", "\u{800}", "\u{FFFF}", "\u{10000}", "-"]
        for length in 0..<40 {
            for _ in 0..<25 {
                let text = (0..<length).map { _ in rng.pick(pieces) }.joined()
                #expect(text.scalarCount == text.unicodeScalars.count, "\(text.debugDescription)")
                #expect(text.dropFirst(length / 2).description.scalarCount == text.dropFirst(length / 2).unicodeScalars.count)
            }
        }
    }

    /// `String.spaces`, written into the string's storage at once, is `String(repeating:)`'s
    /// spaces, and no spaces for a count below one (a column of 0 gives an indent of -1).
    @Test(arguments: [-3, -1, 0, 1, 2, 15, 16, 17, 900, 5000])
    func spacesAreThatManySpaces(_ count: Int) {
        let spaces = String.spaces(count)
        #expect(spaces == String(repeating: " ", count: max(0, count)))
        #expect(spaces.utf8.count == max(0, count))
        #expect(spaces.utf8.allSatisfy { $0 == UInt8(ascii: " ") })
        #expect((spaces + "x").count == max(0, count) + 1)
    }

    @Test func byteOrderIsTheOrderOfUTF8Views() {
        var rng = Rng(state: 17)
        let prefixes = ["", "a", "Benchmarks/.work/corpus/clean-2000/p1", "Policies/ios-player", "日本/"]
        let alphabet = Array("ab/.-0é日\u{0}")
        var strings: [String] = []
        for _ in 0..<600 {
            let tail = String((0..<rng.below(20)).map { _ in rng.pick(alphabet) })
            strings.append(rng.pick(prefixes) + tail)
        }
        for _ in 0..<3000 {
            let a = rng.pick(strings), b = rng.pick(strings)
            #expect(utf8Precedes(a, b) == a.utf8.lexicographicallyPrecedes(b.utf8), "\(a) \(b)")
        }
    }

    /// The byte-by-byte check the word-at-a-time one must agree with.
    static func referenceFirstInvalid(_ bytes: [UInt8]) -> Int? {
        var i = 0
        while i < bytes.count {
            let b = bytes[i]
            if b < 0x80 { i += 1; continue }
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
            guard i + length <= bytes.count else { return i }
            if bytes[i + 1] < lower || bytes[i + 1] > upper { return i }
            for k in 2..<max(2, length) where bytes[i + k] & 0xC0 != 0x80 { return i }
            i += length
        }
        return nil
    }

    @Test func utf8CheckFindsTheFirstBadByteAtEveryOffset() {
        var rng = Rng(state: 23)
        // Two-byte characters (read as a run) among the others, and sequences that break a run:
        // a lead without its continuation, a lead of two bytes before an ASCII byte, the last
        // two-byte lead (DF) and the first three-byte one (E0).
        let pieces: [[UInt8]] = [[0x61], [0x20], Array("é".utf8), Array("日".utf8), Array("😀".utf8), [0xFF], [0xC3],
                                 [0xE0, 0x80], [0xED, 0xA0, 0x80], [0x80], [0xF4, 0x90, 0x80, 0x80],
                                 Array("жж".utf8), [0xDF, 0xBF], [0xC2, 0x7F], [0xDF], [0xC1, 0xBF], [0xE0, 0xA0, 0x80],
                                 Array("日本\u{212A}\u{FFFF}".utf8), [0xEF, 0xBF], [0xE1, 0x80, 0x7F], [0xEE, 0xC0, 0x80], [0xED, 0x9F, 0xBF]]
        for round in 0..<3000 {
            var bytes: [UInt8] = []
            for _ in 0..<rng.below(40) {
                // Mostly ASCII runs, so the 32- and eight-byte steps are taken and left at every
                // offset; every other round, pieces only, so runs of two-byte characters are long.
                bytes += round % 2 == 0 || rng.below(4) == 0 ? rng.pick(pieces)
                    : [UInt8](repeating: 0x61, count: rng.below(rng.below(2) == 0 ? 12 : 90))
            }
            #expect(Encoding.firstInvalidUTF8(bytes) == Self.referenceFirstInvalid(bytes), "\(bytes)")
        }
    }
}
