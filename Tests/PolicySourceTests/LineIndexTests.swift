import Testing
@testable import PolicySource
@testable import TestSupport

/// The one line index: which characters break lines under each rule, and columns in each unit,
/// hand-counted, and against a plain walk of the text's scalars on random texts.
@Suite struct LineIndexTests {
    static func texts(_ text: String, _ breaks: LineIndex.Breaks) -> [String] {
        LineIndex(text, breaks: breaks).lineTexts
    }

    @Test func eachRuleBreaksAtItsOwnCharacters() {
        let text = "a\nb\r\nc\rd\u{85}e\u{2028}f\u{2029}g\u{0B}h\u{0C}i"
        #expect(Self.texts(text, .lineFeed) == ["a", "b\r", "c\rd\u{85}e\u{2028}f\u{2029}g\u{0B}h\u{0C}i"])
        #expect(Self.texts(text, .editor) == ["a", "b", "c", "d\u{85}e\u{2028}f\u{2029}g\u{0B}h\u{0C}i"])
        #expect(Self.texts(text, .yaml) == ["a", "b", "c", "d", "e", "f", "g\u{0B}h\u{0C}i"])
        #expect(Self.texts(text, .unicode) == ["a", "b", "c", "d", "e", "f", "g", "h", "i"])
    }

    @Test func crlfIsOneBreakAndALoneCRIsOne() {
        let lines = LineIndex("a\r\n\r\r\nb\r")
        #expect(lines.lineTexts == ["a", "", "", "b", ""])
        #expect(lines.rangeWithBreak(ofLine: 1) == 0..<3)
        #expect(lines.range(ofLine: 2) == 3..<3 && lines.rangeWithBreak(ofLine: 2) == 3..<4)
        #expect(lines.range(ofLine: 3) == 4..<4 && lines.rangeWithBreak(ofLine: 3) == 4..<6)
        #expect(lines.firstLineBreak == "\r\n")
        #expect(lines.endsWithLineBreak)
        // The offset between CR and LF belongs to the line the CRLF ends.
        #expect(lines.lineNumber(containing: 2) == 1)
        #expect(lines.mark(at: 2) == Mark(line: 1, column: 2))
    }

    @Test func emptyTextAndNoFinalNewline() {
        let empty = LineIndex([UInt8]())
        #expect(empty.lineCount == 1 && empty.range(ofLine: 1) == 0..<0 && empty.endsWithLineBreak)
        #expect(empty.firstLineBreak == "\n")
        #expect(empty.mark(at: 5) == Mark(line: 1, column: 1))
        #expect(empty.offset(of: Mark(line: 1, column: 1)) == 0)
        #expect(empty.offset(of: Mark(line: 1, column: 2)) == nil)
        #expect(empty.offset(ofLine: 3, units: 2, in: .utf16) == 0)
        let last = LineIndex("a: 1\nb: 2")
        #expect(last.lineCount == 2 && !last.endsWithLineBreak)
        #expect(last.text(ofLine: 2) == "b: 2" && last.text(ofLine: 3) == nil && last.text(ofLine: 0) == nil)
        #expect(last.mark(at: 99) == Mark(line: 2, column: 5))
        let ended = LineIndex("a: 1\n")
        #expect(ended.lineCount == 2 && ended.endsWithLineBreak && ended.range(ofLine: 2) == 5..<5)
    }

    /// A file's BOM is no column of ours (nor libyaml's), but the protocol's UTF-8 and UTF-16
    /// columns count it; diffs and comments keep it as text.
    @Test func byteOrderMark() {
        #expect(LineIndex("\u{FEFF}a", breaks: .lineFeed).text(ofLine: 1) == "\u{FEFF}a")
        #expect(LineIndex("\u{FEFF}a", breaks: .unicode).textStart == 0)
        #expect(LineIndex("\u{FEFF}a", breaks: .yaml).textStart == 3)
        let lines = LineIndex("\u{FEFF}a: é\nb")
        #expect(lines.textStart == 3)
        #expect(lines.text(ofLine: 1) == "a: é")
        #expect(lines.mark(at: 0) == Mark(line: 1, column: 1))
        #expect(lines.mark(at: 3) == Mark(line: 1, column: 1))
        #expect(lines.offset(of: Mark(line: 1, column: 1)) == 3)
        #expect(lines.column(at: 3, in: .scalars) == 0)
        #expect(lines.column(at: 3, in: .utf8) == 3)
        #expect(lines.column(at: 3, in: .utf16) == 1)
        #expect(lines.offset(ofLine: 1, units: 0, in: .utf16) == 0)
        #expect(lines.offset(ofLine: 1, units: 1, in: .utf16) == 3)
        #expect(lines.offset(ofLine: 0, units: 0, in: .scalars) == 3)
        #expect(LineIndex("\u{FEFF}").endsWithLineBreak)
    }

    /// One line of ASCII, accented letters and an emoji: 1, 2 and 4 bytes; 1, 1 and 2 UTF-16 units.
    @Test func columnsInEachUnit() {
        let lines = LineIndex("x\naé😀b")
        let b = 2 + 1 + 2 + 4  // the offset of "b"
        #expect(lines.column(at: b, in: .utf8) == 7)
        #expect(lines.column(at: b, in: .utf16) == 4)
        #expect(lines.column(at: b, in: .scalars) == 3)
        #expect(lines.mark(at: b) == Mark(line: 2, column: 4))
        for unit in [LineIndex.Unit.utf8, .utf16, .scalars] {
            #expect(lines.offset(ofLine: 2, units: lines.column(at: b, in: unit), in: unit) == b)
        }
        // Inside the emoji: UTF-8 and UTF-16 columns stand at its start; an offset inside it counts it.
        #expect(lines.offset(ofLine: 2, units: 5, in: .utf8) == 5)
        #expect(lines.offset(ofLine: 2, units: 3, in: .utf16) == 5)
        #expect(lines.column(at: 6, in: .scalars) == 3 && lines.column(at: 6, in: .utf16) == 4)
    }

    @Test func outOfRangePositionsClamp() {
        let lines = LineIndex("ab\ncd")
        #expect(lines.offset(ofLine: 1, units: 99, in: .scalars) == 2)
        #expect(lines.offset(ofLine: 1, units: .max, in: .utf8) == 2)
        #expect(lines.offset(ofLine: 1, units: .max, in: .utf16) == 2)
        #expect(lines.offset(ofLine: 2, units: -4, in: .utf16) == 3)
        #expect(lines.offset(ofLine: 9, units: 0, in: .utf8) == 5)
        #expect(lines.offset(ofLine: .max, units: .max, in: .scalars) == 5)
        #expect(lines.offset(ofLine: .min, units: .min, in: .scalars) == 0)
        #expect(lines.clampedOffset(of: Mark(line: 1, column: 50)) == 2)
        #expect(lines.mark(at: -3) == Mark(line: 1, column: 1))
        #expect(lines.column(at: .max, in: .utf8) == 2)
        // Exact offsets: the end of a line is a position, a column past it is not.
        #expect(lines.offset(of: Mark(line: 1, column: 3)) == 2)
        #expect(lines.offset(of: Mark(line: 1, column: 4)) == nil)
        #expect(lines.offset(of: Mark(line: 1, column: .max)) == nil)
        #expect(lines.offset(of: Mark(line: 3, column: 1)) == nil)
        #expect(lines.offset(of: Mark(line: 1, column: 0)) == nil)
    }

    /// Columns far along long lines of mixed characters, found from the blocks of scalars: the same
    /// as a plain walk of the scalars, both ways, for every rule of breaks.
    @Test func randomTextsAgreeWithAWalkOfTheirScalars() {
        var rng = Rng(state: 0x51DE_0048)
        let pieces = ["a", " ", "é", "中", "😀", "\n", "\r\n", "\r", "\u{85}", "\u{2028}", "\u{2029}", "\u{0B}", "\t"]
        for round in 0..<200 {
            var text = round % 7 == 0 ? "\u{FEFF}" : ""
            // Some long lines: past several blocks of 64 bytes.
            let length = round % 3 == 0 ? 400 : 40
            for _ in 0..<rng.below(length) { text += rng.pick(round % 3 == 0 && rng.below(10) > 0 ? ["a", "é", "😀"] : pieces) }
            for breaks in [LineIndex.Breaks.lineFeed, .editor, .yaml, .unicode] {
                let lines = LineIndex(text, breaks: breaks)
                var offset = 0, line = 1, column = 1
                let scalars = Array(text.unicodeScalars)
                var k = 0
                // A file's byte order mark is no text of its own (diffs and comments show it).
                if text.hasPrefix("\u{FEFF}"), breaks == .editor || breaks == .yaml {
                    offset = 3
                    k = 1
                }
                while true {
                    #expect(lines.mark(at: offset) == Mark(line: line, column: column), "round \(round), \(breaks), offset \(offset)")
                    #expect(lines.offset(of: Mark(line: line, column: column)) == offset, "round \(round), \(breaks), offset \(offset)")
                    guard k < scalars.count else { break }
                    let width = Self.breakWidth(scalars, k, breaks)
                    if width > 0 {
                        offset += scalars[k..<(k + width)].reduce(0) { $0 + String($1).utf8.count }
                        k += width
                        line += 1
                        column = 1
                    } else {
                        offset += String(scalars[k]).utf8.count
                        k += 1
                        column += 1
                    }
                }
                #expect(lines.lineCount == line)
            }
        }
    }

    /// How many scalars the break at `k` takes, read from the scalars.
    static func breakWidth(_ s: [Unicode.Scalar], _ k: Int, _ breaks: LineIndex.Breaks) -> Int {
        switch s[k] {
        case "\n": return 1
        case "\r": return breaks == .lineFeed ? 0 : (k + 1 < s.count && s[k + 1] == "\n" ? 2 : 1)
        case "\u{85}", "\u{2028}", "\u{2029}": return breaks == .yaml || breaks == .unicode ? 1 : 0
        case "\u{0B}", "\u{0C}": return breaks == .unicode ? 1 : 0
        default: return 0
        }
    }
}
