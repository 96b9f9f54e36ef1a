import Testing
@testable import PolicySource
@testable import PolicyCheck
@testable import PolicyReport
@testable import TestSupport

/// What keeps a 1 MiB input of any shape cheap: small positions, and long lines walked once.
@Suite struct LayoutTests {
    /// The sizes that decide how much memory a file of tens of thousands of nodes takes (see
    /// `Mark`): a field added to one of these is paid once per node, entry or decoded value.
    @Test func positionsAndNodesStaySmall() {
        #expect(MemoryLayout<Mark>.stride == 8)
        #expect(MemoryLayout<Span>.stride == 12)
        #expect(MemoryLayout<Span>.alignment == 4)
        #expect(MemoryLayout<Node>.stride <= 32)
        #expect(MemoryLayout<Entry>.stride <= 64)
        #expect(MemoryLayout<Decoded>.stride <= 32)
        #expect(MemoryLayout<DecodedEntry>.stride <= 64)
        #expect(MemoryLayout<PolicyDoc.NeverRetry>.stride <= 64)
        // Clamped, never trapped on.
        #expect(Mark(line: Int.max, column: -5).line == Int(Int32.max))
        #expect(Mark(line: 3, column: 4) < Mark(line: 3, column: 5))
        #expect(Mark(line: 2, column: 400) < Mark(line: 3, column: 1))
    }

    /// A span gives back the marks it was made of, each of its four numbers apart from the
    /// others (they share words), and clamps what it cannot hold.
    @Test func spansHoldTheirMarks() {
        var rng = Rng(state: 12)
        let edges = [0, 1, 2, 255, 256, 65_535, 65_536, 1_048_577, Span.largest - 1, Span.largest]
        func number() -> Int { rng.below(3) == 0 ? rng.pick(edges) : rng.below(Span.largest + 1) }
        for _ in 0..<5_000 {
            let start = Mark(line: number(), column: number()), end = Mark(line: number(), column: number())
            var span = Span(start: start, end: end)
            #expect(span.start == start && span.end == end)
            // Setting one mark leaves the other as it was.
            let other = Mark(line: number(), column: number())
            span.end = other
            #expect(span.start == start && span.end == other)
            span.start = end
            #expect(span.start == end && span.end == other)
            span.end.line = start.line
            #expect(span == Span(start: end, end: Mark(line: start.line, column: other.column)))
        }
        let wild = Span(start: Mark(line: -3, column: Int.max), end: Mark(line: Span.largest + 1, column: Int.min))
        #expect(wild.start == Mark(line: 0, column: Span.largest))
        #expect(wild.end == Mark(line: Span.largest, column: 0))
        #expect(Set([Span(Mark(line: 1, column: 2)), Span(Mark(line: 1, column: 2)), Span(Mark(line: 2, column: 1))]).count == 2)
    }

    /// A long line's excerpt, made from the walked line, is the one the whole line would give,
    /// wherever the column, with wide, combining, tab and control characters on the way; and so is
    /// a long line of ASCII (tabs and control characters too), made from its bytes undecoded.
    @Test func longLineExcerptsAreTheWholeLinesOnes() {
        var rng = Rng(state: 41)
        let mixed: [String] = ["a", "b", ", ", "\t", "日", "e\u{301}", "\u{1B}", "😀", "\u{202E}", "[", "1"]
        let ascii: [String] = ["a", "b", ", ", "\t", "\u{1B}", "\u{7F}", "[", "1"]
        for (pieces, length) in [10, 100, 700, 5_000, 20_000].flatMap({ [(mixed, $0), (ascii, $0)] }) {
            var line = ""
            for _ in 0..<length { line += rng.pick(pieces) }
            let bytes = Array(("key: x\n" + line + "\nlast\n").utf8)
            var source = Reporters.SourceLines(bytes)
            let whole = source.line(2)!
            let count = whole.count
            var columns = [1, 2, count, count + 1, count + 5, 60, 61, 159, 160, 161]
            for _ in 0..<40 { columns.append(1 + rng.below(count + 1)) }
            for column in columns {
                for end in [nil, column + 1, column + 7, count + 3] as [Int?] {
                    let expected = Reporters.Excerpt(line: whole, column: column, endColumn: end)
                    let made = source.excerpt(line: 2, column: column, endColumn: end)
                    #expect(made?.text == expected.text && made?.caret == expected.caret, "length \(length) column \(column)")
                }
            }
        }
        var source = Reporters.SourceLines(Array("a\n".utf8))
        #expect(source.excerpt(line: 3, column: 1, endColumn: nil) == nil)
    }

    /// Excerpts decode a line's bytes as `String(decoding:as:)` does, invalid UTF-8 too (each
    /// maximal ill-formed sequence one U+FFFD): truncated, overlong, surrogate and out-of-range
    /// sequences, stray continuation bytes, on short and long lines.
    @Test func excerptsOfInvalidUTF8AreTheDecodedLinesOnes() {
        var rng = Rng(state: 53)
        let pieces: [[UInt8]] = [
            Array("a".utf8), Array("é".utf8), Array("日".utf8), Array("😀".utf8), [0x09], [0x80], [0xBF], [0xFF], [0xC0, 0x80],
            [0xC2], [0xE2, 0x82], [0xE0, 0x80, 0x80], [0xED, 0xA0, 0x80], [0xF0, 0x9F, 0x98], [0xF4, 0x90, 0x80, 0x80],
            [0xF8, 0x88, 0x80, 0x80, 0x80], [0xE1, 0x80, 0x41], Array("\u{301}".utf8),
        ]
        for length in [1, 5, 60, 700, 3_000] {
            for _ in 0..<4 {
                var line: [UInt8] = []
                for _ in 0..<length { line += rng.pick(pieces) }
                var source = Reporters.SourceLines(Array("key: x\n".utf8) + line + Array("\nlast\n".utf8))
                let whole = source.line(2)!
                let count = whole.count
                for column in [1, 2, count, count + 1, 161, 1 + rng.below(count + 1), 1 + rng.below(count + 1)] {
                    let expected = Reporters.Excerpt(line: whole, column: column, endColumn: column + 3)
                    let made = source.excerpt(line: 2, column: column, endColumn: column + 3)
                    #expect(made?.text == expected.text && made?.caret == expected.caret, "length \(length) column \(column)")
                }
            }
        }
    }

    /// Lines come from the source map, read as far as they are asked for (or the checker's whole
    /// map), and are decoded one by one: each is the line of the whole file decoded (invalid UTF-8
    /// repaired) and then split, whatever bytes stand around its breaks, and in whatever order
    /// lines are asked for.
    @Test func linesAreThoseOfTheWholeDecodedFile() {
        var rng = Rng(state: 7)
        let pieces: [[UInt8]] = [[0x61], [0x20], [0x0A], [0x0D], [0x0D, 0x0A], [0xC2, 0x85], [0xE2, 0x80, 0xA8], [0xE2, 0x80, 0xA9],
                                 [0xE2], [0xE2, 0x80], [0xC2], [0x85], [0xF0, 0x9F], [0xFF], [0xC3, 0xA9], [0xEF, 0xBB, 0xBF]]
        for round in 0..<300 {
            var bytes: [UInt8] = round % 5 == 0 ? [0xEF, 0xBB, 0xBF] : []
            for _ in 0..<rng.below(40) { bytes += rng.pick(pieces) }
            // The reference: the whole file decoded, then split where libyaml counts a new line.
            var text = String(decoding: bytes, as: UTF8.self).unicodeScalars[...]
            if text.first == "\u{FEFF}", bytes.starts(with: [0xEF, 0xBB, 0xBF]) { text.removeFirst() }
            var lines: [String] = [], current = ""
            while let c = text.popFirst() {
                if c == "\r" || c == "\n" || c == "\u{85}" || c == "\u{2028}" || c == "\u{2029}" {
                    if c == "\r", text.first == "\n" { text.removeFirst() }
                    lines.append(current)
                    current = ""
                } else {
                    current.unicodeScalars.append(c)
                }
            }
            if !current.isEmpty { lines.append(current) }
            var partial = Reporters.SourceLines(bytes)
            var whole = Reporters.SourceLines(bytes, map: SourceMap(bytes))
            var order = Array(0...(lines.count + 2))
            if round % 2 == 1 { order.reverse() }
            for n in order {
                let expected = n >= 1 && n <= lines.count ? lines[n - 1] : nil
                #expect(partial.line(n).map { String(String.UnicodeScalarView($0)) } == expected, "\(bytes) line \(n)")
                #expect(whole.line(n).map { String(String.UnicodeScalarView($0)) } == expected, "\(bytes) line \(n), whole map")
            }
        }
    }

    /// The loader keeps collections below `Loader.keptDepth` without their contents: nothing of
    /// the language is that deep, and duplicate keys down there are still found.
    @Test func deepContentsAreLetGoButStillChecked() {
        func depth(_ shape: Shape) -> Int {
            switch shape {
            case .object(let fields): return 1 + (fields.map { depth($0.shape) }.max() ?? 0)
            case .namedMap(let value, _), .list(let value, _): return 1 + depth(value)
            default: return 1
            }
        }
        #expect(depth(.object(Language.root)) < Loader.keptDepth)

        var yaml = ""
        for level in 0..<20 { yaml += String(repeating: "  ", count: level) + "k\(level):\n" }
        yaml += String(repeating: "  ", count: 20) + "dup: 1\n" + String(repeating: "  ", count: 20) + "dup: 2\n"
        let loaded = Loader.load(Array(yaml.utf8))
        #expect(loaded.diagnostics.map(\.rule) == ["yaml-duplicate-key"])
        #expect(loaded.diagnostics.first?.span.start == Mark(line: 22, column: 41))
        var node = loaded.root
        var kept = 0
        while case .mapping(let entries)? = node?.kind, let first = entries.first {
            kept += 1
            node = first.value
        }
        #expect(kept == Loader.keptDepth)
        if case .mapping(let entries)? = node?.kind { #expect(entries.isEmpty) } else { Issue.record("not a mapping") }
    }
}
