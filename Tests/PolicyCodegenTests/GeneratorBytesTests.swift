import Testing
@testable import PolicySource
@testable import PolicyCheck
@testable import PolicyCodegen
@testable import TestSupport

/// The generators write bytes straight into one buffer, with fast paths for the usual text. These
/// check each fast path against the String-based code it replaced (kept here as the reference):
/// same bytes for every input, hostile ones above all. Correctness only; nothing here is timed.
@Suite struct GeneratorBytesTests {
    /// Pieces that meet in every way: line breaks of each kind, comment marks, quotes, escapes,
    /// controls, bidi, combining marks (one after a space), a prepended mark before a space,
    /// astral scalars, trailing spaces and tabs.
    static let pieces = [
        "a", "Z", "0", " ", "  ", "\t", "\r", "\n", "\r\n", "\u{0B}", "\u{0C}", "\u{85}", "\u{2028}", "\u{2029}",
        "*", "/", "*/", "/*", "**", "//", "\"", "\\", "\\(", "$", "${", "`", "'", "\0", "\u{7F}", "\u{80}", "\u{9F}",
        "\u{1B}[31m", "é", "e\u{301}", " \u{301}", "\u{600} ", "\u{200E}", "\u{202E}", "\u{2066}", "\u{FEFF}",
        "😀", "👩‍👩‍👧", "中文", "\u{10FFFF}", "—", "%", "ok.", "Retry policy", "-",
    ]

    static func texts(count: Int, seed: UInt64) -> [String] {
        var rng = Rng(state: seed)
        var out = ["", " ", "\n", "*", "/", "*/", "plain text.", "trailing  ", "é", "\u{600} ", "a\r\n\r\nb"]
        for _ in 0..<count {
            out.append((0..<(1 + rng.below(10))).map { _ in rng.pick(pieces) }.joined())
        }
        return out
    }

    // MARK: the code these replaced (as of f23edf6)

    static func oldSwiftLiteral(_ s: String) -> String {
        var out = "\""
        for u in s.unicodeScalars {
            switch u.value {
            case 0x22: out += "\\\""
            case 0x5C: out += "\\\\"
            case 0x20...0x7E: out.unicodeScalars.append(u)
            default: out += "\\u{" + String(u.value, radix: 16, uppercase: true) + "}"
            }
        }
        return out + "\""
    }

    static func oldKotlinLiteral(_ s: String) -> String {
        var out = "\""
        for unit in s.utf16 {
            switch unit {
            case 0x22: out += "\\\""
            case 0x5C: out += "\\\\"
            case 0x24: out += "\\$"
            case 0x20...0x7E: out.unicodeScalars.append(Unicode.Scalar(UInt8(unit)))
            default:
                let hex = String(unit, radix: 16, uppercase: true)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            }
        }
        return out + "\""
    }

    static func oldCommentLines(_ text: String) -> [String] {
        // On the UTF-8 bytes: the breaks are ASCII or the sequences C2 85 (U+0085) and E2 80 A8/A9
        // (U+2028/9), which in valid UTF-8 stand only for themselves. Scalar by scalar cost most of
        // generating.
        var lines: [String] = []
        var text = text
        text.withUTF8 { b in
            var start = 0
            var i = 0
            var lastWasCR = false
            while i < b.count {
                var breakLength = 0
                switch b[i] {
                case 0x0A where lastWasCR:
                    lastWasCR = false
                    i += 1
                    start = i
                    continue
                case 0x0A, 0x0D, 0x0B, 0x0C: breakLength = 1
                case 0xC2 where i + 1 < b.count && b[i + 1] == 0x85: breakLength = 2
                case 0xE2 where i + 2 < b.count && b[i + 1] == 0x80 && (b[i + 2] == 0xA8 || b[i + 2] == 0xA9): breakLength = 3
                default: break
                }
                if breakLength > 0 {
                    lines.append(String(decoding: UnsafeBufferPointer(rebasing: b[start..<i]), as: UTF8.self))
                    lastWasCR = b[i] == 0x0D
                    i += breakLength
                    start = i
                } else {
                    lastWasCR = false
                    i += 1
                }
            }
            lines.append(String(decoding: UnsafeBufferPointer(rebasing: b[start..<b.count]), as: UTF8.self))
        }
        return lines.map { line in
            var l = printable(line)
            while l.last == " " || l.last == "\t" { l.removeLast() }
            return l
        }
    }

    static func oldSwiftDoc(_ text: String) -> [String] {
        oldCommentLines(text).map { $0.isEmpty ? "///" : "/// " + $0 }
    }

    static func oldKotlinDoc(_ text: String) -> [String] {
        var out = ["/**"]
        for line in oldCommentLines(text) {
            var bytes: [UInt8] = []
            for c in line.utf8 {
                if let last = bytes.last, (last == 0x2A && c == 0x2F) || (last == 0x2F && c == 0x2A) { bytes.append(0x20) }
                bytes.append(c)
            }
            let safe = String(decoding: bytes, as: UTF8.self)
            out.append(safe.isEmpty ? " *" : " * " + safe)
        }
        out.append(" */")
        return out
    }

    // MARK: tests

    @Test func literalsAreTheSameAsBefore() {
        for text in Self.texts(count: 3000, seed: 1) {
            #expect(SwiftGenerator.literal(text) == Self.oldSwiftLiteral(text), "\(Self.oldSwiftLiteral(text))")
            #expect(KotlinGenerator.literal(text) == Self.oldKotlinLiteral(text), "\(Self.oldKotlinLiteral(text))")
        }
    }

    @Test func docCommentsAreTheSameAsBefore() {
        for text in Self.texts(count: 3000, seed: 2) {
            #expect(SwiftGenerator.doc(text) == Self.oldSwiftDoc(text), "\(Self.oldSwiftLiteral(text))")
            #expect(KotlinGenerator.doc(text) == Self.oldKotlinDoc(text), "\(Self.oldSwiftLiteral(text))")
        }
    }

    /// A doc line written in place (values checked, fixed text trusted) is exactly what the
    /// escaping path makes of the same text, whatever the values are.
    @Test func docLinesInPlaceAreWhatDocTextWrites() {
        let values = Self.texts(count: 1500, seed: 3)
        for (i, name) in values.enumerated() {
            let kind = values[(i * 7) % values.count]
            for language in [CodeWriter.Language.swift, .kotlin] {
                let fast = CodeWriter(language)
                fast.indent {
                    fast.doc("Profile `", name, "` (line ", i - 50, "): ", kind, ".")
                    fast.doc("The policy's name (`policy`, ", i, ").")
                    fast.doc { fast.docLine("Retry policy `", name, "`: the values.") }
                }
                let slow = CodeWriter(language)
                slow.indent {
                    slow.doc { slow.docText("Profile `\(name)` (line \(i - 50)): \(kind).") }
                    slow.doc { slow.docText("The policy's name (`policy`, \(i)).") }
                    slow.doc { slow.docText("Retry policy `\(name)`: the values.") }
                }
                let same = fast.bytes == slow.bytes
                #expect(same, "\(Self.oldSwiftLiteral(name)), \(Self.oldSwiftLiteral(kind)):\n\(fast.text)---\n\(slow.text)")
            }
        }
    }

    @Test func numbersAreWrittenAsInterpolationWritesThem() {
        var numbers = [0, 1, -1, 9, 10, 11, 99, 100, 101, Int.max, Int.min, Int.max - 1, Int.min + 1]
        var power = 1
        for _ in 0..<18 {
            power *= 10
            numbers += [power - 1, power, power + 1, -power]
        }
        var rng = Rng(state: 4)
        for _ in 0..<2000 { numbers.append(Int(bitPattern: UInt(rng.next() << 31 ^ rng.next())) >> rng.below(63)) }
        for n in numbers {
            let w = CodeWriter(.swift)
            w.write(n)
            #expect(w.text == "\(n)")
        }
    }

    @Test func generatedFilesAreTheirBytes() {
        let text = "// é\r\n\u{2028}😀\0end"
        let a = GeneratedFile(path: "Swift/A.swift", contents: text)
        let b = GeneratedFile(path: "Swift/A.swift", bytes: Array(text.utf8))
        #expect(a == b && a.bytes == Array(text.utf8) && b.contents == text)
        var c = a
        c.contents = "x"
        #expect(c.bytes == [0x78])
    }

    @Test func lastComponentIsWhatSplittingByCharacterGives() {
        var paths = ["", "/", "//", "a", "/a", "a/", "/a/b.yaml", "/a/b/", "a//b", "/x/\r\n/y", "/x/y\r", "/é/ü.yaml",
                     "/a/\u{301}b", "/a/b\u{301}/", "./a", "/a/ b ", "/a/\u{600}/b"]
        var rng = Rng(state: 5)
        let parts = ["a", "b.yaml", "/", "//", ".", "..", " ", "\r", "\n", "é", "\u{301}", "-", "😀"]
        for _ in 0..<2000 { paths.append((0..<(1 + rng.below(8))).map { _ in rng.pick(parts) }.joined()) }
        for p in paths {
            #expect(Generator.lastComponent(p) == String(p.split(separator: "/").last ?? ""), "\(Self.oldSwiftLiteral(p))")
        }
    }

    /// `keyLines` says what `lines` says, also after `lines` changes; the generators read neither
    /// (generated text names keys, not lines).
    @Test func keyLinesFollowLines() throws {
        var policy = try GenSupport.canonical
        #expect(policy.keyLines == KeyLines(policy.lines) && policy.keyLines.byPath == policy.lines)
        #expect(policy.lines.count == 15)
        policy.lines["retry.retryOn"] = 999
        policy.lines["description"] = nil
        #expect(policy.keyLines.retryOn == 999 && policy.keyLines.description == nil)
        #expect(policy.keyLines.byPath == policy.lines)
        let canonical = try GenSupport.canonical
        #expect(SwiftGenerator.source(for: policy) == SwiftGenerator.source(for: canonical))
        #expect(KotlinGenerator.source(for: policy, package: "a.b") == KotlinGenerator.source(for: canonical, package: "a.b"))
        #expect(SwiftGenerator.source(for: policy).contains("The HTTP statuses that are retried (`retryOn`)."))
    }
}
