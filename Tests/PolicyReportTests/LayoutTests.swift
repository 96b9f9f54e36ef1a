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

    /// A finding past the last line has no excerpt.
    @Test func noExcerptPastTheLastLine() {
        var source = Reporters.SourceLines(Array("a\n".utf8))
        #expect(source.excerpt(line: 1, column: 1, endColumn: nil)?.text == "a")
        #expect(source.excerpt(line: 2, column: 1, endColumn: nil) == nil)
        #expect(source.excerpt(line: 3, column: 1, endColumn: nil) == nil)
    }

    /// Lines come from the line index (the file's own, or the checker's), and are decoded one by
    /// one: each is the line of the whole file decoded (invalid UTF-8 repaired) and then split
    /// where an editor splits it, whatever bytes stand around its breaks, and in whatever order
    /// lines are asked for.
    @Test func linesAreThoseOfTheWholeDecodedFile() {
        var rng = Rng(state: 7)
        let pieces: [[UInt8]] = [[0x61], [0x20], [0x0A], [0x0D], [0x0D, 0x0A], [0xC2, 0x85], [0xE2, 0x80, 0xA8], [0xE2, 0x80, 0xA9],
                                 [0xE2], [0xE2, 0x80], [0xC2], [0x85], [0xF0, 0x9F], [0xFF], [0xC3, 0xA9], [0xEF, 0xBB, 0xBF]]
        for round in 0..<300 {
            var bytes: [UInt8] = round % 5 == 0 ? [0xEF, 0xBB, 0xBF] : []
            for _ in 0..<rng.below(40) { bytes += rng.pick(pieces) }
            // The reference: the whole file decoded, then split where an editor counts a new line.
            var text = String(decoding: bytes, as: UTF8.self).unicodeScalars[...]
            if text.first == "\u{FEFF}", bytes.starts(with: [0xEF, 0xBB, 0xBF]) { text.removeFirst() }
            var lines: [String] = [], current = ""
            while let c = text.popFirst() {
                if c == "\r" || c == "\n" {
                    if c == "\r", text.first == "\n" { text.removeFirst() }
                    lines.append(current)
                    current = ""
                } else {
                    current.unicodeScalars.append(c)
                }
            }
            if !current.isEmpty { lines.append(current) }
            var own = Reporters.SourceLines(bytes)
            var checkers = Reporters.SourceLines(bytes, lines: LineIndex(bytes))
            var order = Array(0...(lines.count + 2))
            if round % 2 == 1 { order.reverse() }
            for n in order {
                let expected = n >= 1 && n <= lines.count ? lines[n - 1] : nil
                #expect(own.line(n).map { String(String.UnicodeScalarView($0)) } == expected, "\(bytes) line \(n)")
                #expect(checkers.line(n).map { String(String.UnicodeScalarView($0)) } == expected, "\(bytes) line \(n), the checker's index")
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
