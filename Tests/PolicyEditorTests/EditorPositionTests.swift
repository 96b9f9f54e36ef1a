import Testing
@testable import PolicySource
@testable import PolicyCheck
@testable import PolicyReport
@testable import PolicyCodegen
@testable import PolicySimulation
@testable import PolicyReview
@testable import PolicyEditor
@testable import TestSupport

/// Positions between our marks (LF, CR and CRLF lines, columns in Unicode scalars) and an editor's
/// (the same lines; UTF-8 or UTF-16 units), checked against hand-counted text, against
/// the loader's marks, and against a plain reading of the text with Swift's string views.
@Suite struct EditorPositionTests {
    /// A finding after astral and multibyte text on its line: libyaml counts scalars, the editor
    /// UTF-16 units (an emoji is two) or UTF-8 bytes (four).
    @Test func findingAfterAstralTextOnItsLine() throws {
        let line = "  neverRetry: [{code: \"😀é😀\", status: 5x3}]"
        let text = Canonical.text.replacingFirst("  neverRetry:\n    - status: 503\n      code: not_ready\n", with: line + "\n")
        #expect(text != Canonical.text)
        let checked = Checker.check(Array(text.utf8), path: "p.yaml")
        let finding = try #require(checked.diagnostics.first { $0.rule == "type-mismatch" })
        let prefix = try #require(line.range(of: "5x3")).lowerBound
        let before = line[..<prefix]
        #expect(finding.column == before.unicodeScalars.count + 1)
        let lines = LineIndex(text)
        let utf16 = lines.position(of: finding.span.start, .utf16)
        let utf8 = lines.position(of: finding.span.start, .utf8)
        #expect(utf16.line == finding.line - 1 && utf8.line == finding.line - 1)
        #expect(utf16.character == before.utf16.count)
        #expect(utf8.character == before.utf8.count)
        // Hand-counted: 37 scalars; the two emoji are two UTF-16 units and four bytes each, é two bytes.
        #expect(before.unicodeScalars.count == 37 && utf16.character == 39 && utf8.character == 44)
    }

    @Test func crlfAndByteOrderMark() {
        let text = "\u{FEFF}a: 1\r\nb: [x, 😀]\r\nc: 2"
        let lines = LineIndex(text)
        // Our line 1 starts after the BOM; the editor counts the BOM as a character.
        #expect(lines.offset(of: Mark(line: 1, column: 1)) == 3)
        #expect(lines.position(of: Mark(line: 1, column: 1), .utf16) == EditorPosition(line: 0, character: 1))
        #expect(lines.position(of: Mark(line: 1, column: 1), .utf8) == EditorPosition(line: 0, character: 3))
        #expect(lines.position(of: Mark(line: 2, column: 8), .utf16) == EditorPosition(line: 1, character: 7))
        // After the emoji: one scalar, two UTF-16 units, four bytes.
        #expect(lines.position(of: Mark(line: 2, column: 9), .utf16) == EditorPosition(line: 1, character: 9))
        #expect(lines.position(of: Mark(line: 2, column: 9), .utf8) == EditorPosition(line: 1, character: 11))
        #expect(lines.position(of: Mark(line: 3, column: 1), .utf16) == EditorPosition(line: 2, character: 0))
        // A column past the line's end stands at the end, before the CRLF.
        #expect(lines.position(of: Mark(line: 1, column: 50), .utf8) == EditorPosition(line: 0, character: 7))
        // A line past the last stands at the end of the text.
        #expect(lines.clampedOffset(of: Mark(line: 9, column: 1)) == lines.bytes.count)
    }

    /// NEL, LS and PS break libyaml's lines but neither the editor's nor our marks' (issue 48).
    @Test func lineSeparatorsAreCharactersOfTheirLine() {
        let text = "a: x\u{2028}y\nb: 1"
        let lines = LineIndex(text)
        #expect(lines.lineCount == 2 && LineIndex(text, breaks: .yaml).lineCount == 3)
        // "y" is on line 1 after "a: x" and the separator: our column 6, the editor's 5 (UTF-16) or 7 (UTF-8).
        #expect(lines.position(of: Mark(line: 1, column: 6), .utf16) == EditorPosition(line: 0, character: 5))
        #expect(lines.position(of: Mark(line: 1, column: 6), .utf8) == EditorPosition(line: 0, character: 7))
        #expect(lines.position(of: Mark(line: 2, column: 4), .utf16) == EditorPosition(line: 1, character: 3))
        #expect(lines.mark(at: lines.offset(of: EditorPosition(line: 1, character: 3), .utf16)) == Mark(line: 2, column: 4))
    }

    /// A position inside a surrogate pair or a UTF-8 sequence stands at its character; one past
    /// the line's end at the line's end; a negative one at the start.
    @Test func positionsOutOfPlaceAreClamped() {
        let lines = LineIndex("😀b\nc")
        #expect(lines.offset(of: EditorPosition(line: 0, character: 1), .utf16) == 0)
        #expect(lines.offset(of: EditorPosition(line: 0, character: 2), .utf16) == 4)
        #expect(lines.offset(of: EditorPosition(line: 0, character: 2), .utf8) == 0)
        #expect(lines.offset(of: EditorPosition(line: 0, character: 99), .utf8) == 5)
        #expect(lines.offset(of: EditorPosition(line: -1, character: 0), .utf8) == 0)
        #expect(lines.offset(of: EditorPosition(line: 5, character: 0), .utf8) == 7)
        #expect(lines.offset(of: EditorPosition(line: 1, character: -3), .utf16) == 6)
        #expect(lines.offset(of: EditorPosition(line: 0, character: .max), .utf8) == 5)
        #expect(lines.offset(of: EditorPosition(line: 0, character: .max), .utf16) == 5)
        #expect(lines.offset(of: EditorPosition(line: 1, character: .max), .utf8) == 7)
        #expect(lines.offset(of: EditorPosition(line: 1, character: .max), .utf16) == 7)
        #expect(lines.offset(of: EditorPosition(line: .max, character: .max), .utf16) == 7)
        #expect(lines.offset(of: EditorPosition(line: .min, character: .min), .utf16) == 0)
    }

    /// Random texts of every kind of character and line break: marks agree with a plain walk of
    /// the bytes (`referenceMark`, TestSupport), editor positions with Swift's string views, and both
    /// directions give back the offset they started from.
    @Test func randomTextsAgreeWithReferenceReadings() {
        var rng = Rng(state: 0x1234_5678)
        let pieces = ["a", " ", ":", "é", "中", "😀", "\n", "\r\n", "\r", "\u{85}", "\u{2028}", "\u{2029}", "\t", "-"]
        for round in 0..<300 {
            var text = round % 5 == 0 ? "\u{FEFF}" : ""
            for _ in 0..<rng.below(40) { text += rng.pick(pieces) }
            let bytes = Array(text.utf8)
            let lines = LineIndex(bytes)
            var offsets: [Int] = []
            var o = 0
            for scalar in text.unicodeScalars {
                offsets.append(o)
                o += String(scalar).utf8.count
            }
            offsets.append(o)
            for offset in offsets {
                let mark = lines.mark(at: offset)
                // The offset inside a CRLF is no place of its own, for our marks or the editor.
                let insideCRLF = offset > 0 && offset < bytes.count && bytes[offset - 1] == 0x0D && bytes[offset] == 0x0A
                // Where the BOM itself stands there is no mark: line 1 starts after it.
                if !(bytes.starts(with: [0xEF, 0xBB, 0xBF]) && offset < 3) {
                    #expect(mark == referenceMark(offset, in: bytes), "round \(round), offset \(offset) of \(text.debugDescription)")
                    #expect(mark == Encoding.mark(at: offset, in: bytes))
                    if !insideCRLF {
                        #expect(lines.offset(of: mark) == offset, "round \(round), offset \(offset)")
                    }
                }
                for encoding in [PositionEncoding.utf8, .utf16] {
                    let position = lines.position(at: offset, encoding)
                    #expect(position == Self.reference(text, offset, encoding), "round \(round), offset \(offset), \(encoding)")
                    if !insideCRLF {
                        #expect(lines.offset(of: position, encoding) == offset, "round \(round), offset \(offset), \(encoding)")
                    }
                }
            }
        }
    }

    /// The editor's position of a byte offset as the protocol defines it, from Swift's views:
    /// lines end at LF, CRLF and CR; characters count UTF-8 or UTF-16 units of the line so far.
    static func reference(_ text: String, _ offset: Int, _ encoding: PositionEncoding) -> EditorPosition {
        let prefix = String(decoding: Array(text.utf8)[..<offset], as: UTF8.self)
        var line = 0
        var lineStart = prefix.unicodeScalars.startIndex
        var i = prefix.unicodeScalars.startIndex
        let scalars = prefix.unicodeScalars
        while i < scalars.endIndex {
            let c = scalars[i]
            let next = scalars.index(after: i)
            if c == "\n" || (c == "\r" && (next == scalars.endIndex ? !Array(text.utf8)[offset...].starts(with: [0x0A]) : scalars[next] != "\n")) {
                line += 1
                lineStart = next
            }
            i = next
        }
        let rest = String(scalars[lineStart...])
        // An offset between CR and LF stands at the CR, the end of its line.
        let trimmed = rest.hasSuffix("\r") && Array(text.utf8)[offset...].starts(with: [0x0A]) ? String(rest.dropLast()) : rest
        return EditorPosition(line: line, character: encoding == .utf8 ? trimmed.utf8.count : trimmed.utf16.count)
    }
}

/// The editor's reading of the language compares keys by their bytes (see PolicyCheckTests'
/// `ExactTextTests`).
@Suite struct ExactTextEditorTests {
    /// The editor reads a key of the language only when spelt exactly: a Kelvin-sign `reuseKey`
    /// has no field, so no hover or completion of `reuseKey`; and the fixes' editor finds the key
    /// spelt exactly, not a look-alike written after it.
    @Test func theEditorMatchesKeysExactly() throws {
        #expect(LanguagePath.field(at: [.key("tickets"), .key("reuseKey")], in: .policy)?.key == "reuseKey")
        #expect(LanguagePath.field(at: [.key("tickets"), .key("reuse\u{212A}ey")], in: .policy) == nil)
        #expect(LanguagePath.shape(at: [.key("tickets"), .key("reuse\u{212A}ey")], in: .policy) == nil)
        let text = Canonical.text.replacing("  reuseKey: [viewer, device, episode, intent]\n",
                                            with: "  reuseKey: [viewer, device, episode, intent]\n  reuse\u{212A}ey: [viewer]\n")
        let root = try #require(Loader.load(Array(text.utf8)).root)
        let node = try #require(FixEditor(Array(text.utf8), root: root).node(at: ["tickets", "reuseKey"]))
        guard case .sequence(let items) = node.kind else { Issue.record("not a list: \(node.kind)"); return }
        #expect(items.count == 4)
    }
}
