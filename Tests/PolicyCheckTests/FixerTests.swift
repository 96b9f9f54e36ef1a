import Foundation
import Testing
@testable import PolicySource
@testable import PolicyCheck
@testable import TestSupport

/// Positions to bytes, and fixes applied to bytes: only the text a fix corrects changes, in the
/// file's own layout, and the result parses and is a fixed point.
@Suite struct FixerTests {
    func fix(_ text: String, unsafe: Bool = false) -> String {
        String(decoding: Fixer.fix(Array(text.utf8), path: "p.yaml", unsafe: unsafe).bytes, as: UTF8.self)
    }

    // MARK: positions

    /// Every line break an editor counts (NEL, LS and PS are characters of a line), a BOM, and
    /// characters of one to four bytes.
    @Test func marksMapToTheBytesTheyName() throws {
        let text = "\u{FEFF}a: é\r\nb: 日\rc: 🎬\u{85}d: x\u{2028}e: y\u{2029}f: z\n\ng"
        let bytes = Array(text.utf8)
        let source = LineIndex(bytes)
        func at(_ line: Int, _ column: Int) -> Int? { source.offset(of: Mark(line: line, column: column)) }
        #expect(at(1, 1) == 3)            // after the BOM
        #expect(at(1, 4) == 6)            // é, two bytes, starts at 6
        #expect(at(1, 5) == 8)            // the end of line 1, where CRLF starts
        #expect(at(1, 6) == nil)          // past the end of the line
        #expect(at(4, .max) == nil && at(5, .max) == nil && at(1, .max) == nil)   // no overflow either
        #expect(at(2, 1) == 10)
        #expect(at(2, 5) == 16)           // after 日 (three bytes)
        #expect(at(3, 4) == 17 + 3)       // 🎬 after "c: "
        #expect(at(3, 5) == 17 + 3 + 4)   // NEL, a character of the line
        #expect(at(3, 6) == 17 + 3 + 4 + 2)   // after NEL (two bytes)
        #expect(at(3, 10) == 17 + 3 + 4 + 2 + 4)   // LS, a character too
        #expect(at(3, 11) == 17 + 3 + 4 + 2 + 4 + 3)   // after LS (three bytes)
        #expect(source.lineCount == 5)
        #expect(at(5, 1) == bytes.count - 1)
        #expect(at(5, 2) == bytes.count)
        #expect(at(6, 1) == nil)
        #expect(source.firstLineBreak == "\r\n")
        #expect(!source.endsWithLineBreak)
        #expect(source.text(ofLine: 2) == "b: 日")
    }

    /// `offset(of:)` inverts the byte → position mapping of a plain walk (`referenceMark`), for
    /// every byte that starts a character, on random texts of every kind of line break and character.
    @Test func offsetsInvertTheLoadersMarks() {
        var rng = Rng(state: 15)
        let pieces = ["a", " ", "é", "日", "🎬", "\n", "\r\n", "\r", "\u{85}", "\u{2028}", "\u{2029}", "\t", "#"]
        for _ in 0..<300 {
            var text = rng.below(4) == 0 ? "\u{FEFF}" : ""
            for _ in 0..<rng.below(30) { text += rng.pick(pieces) }
            let bytes = Array(text.utf8)
            let source = LineIndex(bytes)
            let start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
            for offset in start...bytes.count {
                // A character's first byte, not the LF of a CRLF (no position of its own).
                guard offset == bytes.count || bytes[offset] & 0xC0 != 0x80 else { continue }
                if offset > 0, offset < bytes.count, bytes[offset] == 0x0A, bytes[offset - 1] == 0x0D { continue }
                let mark = referenceMark(offset, in: bytes)
                #expect(source.offset(of: mark) == offset, "\(text.debugDescription) at \(offset)")
                #expect(source.mark(at: offset) == mark)
            }
        }
    }

    // MARK: applying

    func edit(_ line: Int, _ column: Int, _ endColumn: Int, _ text: String) -> TextEdit {
        TextEdit(Span(start: Mark(line: line, column: column), end: Mark(line: line, column: endColumn)), text)
    }

    @Test func overlappingEditsAreResolvedByPositionThenOrder() {
        let bytes = Array("a: 123\nb: 456\n".utf8)
        let fixes = [
            Fix(.safe, "second", edits: [edit(1, 5, 6, "X")]),      // inside the first: skipped
            Fix(.safe, "first", edits: [edit(1, 4, 7, "9")]),
            Fix(.safe, "insert", edits: [edit(2, 4, 4, "+")]),
            Fix(.safe, "same place", edits: [edit(2, 4, 4, "-")]),  // same insertion point: skipped
            Fix(.safe, "touching", edits: [edit(1, 7, 7, "0")]),    // at the first's end: taken
        ]
        let result = Fixer.apply(fixes, to: bytes)
        #expect(String(decoding: result.bytes, as: UTF8.self) == "a: 90\nb: +456\n")
        #expect(result.applied == [1, 2, 4])
        // The same whatever order the fixes come in, but for ties, which go to the first given.
        let reversed = Fixer.apply(fixes.reversed(), to: bytes)
        #expect(String(decoding: reversed.bytes, as: UTF8.self) == "a: 90\nb: -456\n")
    }

    @Test func aFixThatWouldBreakTheFileIsDropped() {
        let bytes = Array("a: 1\nb: 2\n".utf8)
        let fixes = [
            Fix(.safe, "breaks", edits: [edit(1, 4, 5, "[1")]),
            Fix(.safe, "fine", edits: [edit(2, 4, 5, "3")]),
            Fix(.safe, "duplicates a key", edits: [edit(2, 1, 2, "a")]),
        ]
        let result = Fixer.apply(fixes, to: bytes)
        #expect(String(decoding: result.bytes, as: UTF8.self) == "a: 1\nb: 3\n")
        #expect(result.applied == [1])
        // An edit at a position the file does not have is no edit.
        #expect(Fixer.apply([Fix(.safe, "nowhere", edits: [edit(7, 1, 2, "x")])], to: bytes).applied.isEmpty)
    }

    /// Many mistakes at once: the safe fixes make the certain corrections only, the unsafe ones
    /// give back the canonical policy, and nothing else of the file moves.
    @Test func manyMistakesAtOnce() {
        let broken = Canonical.text
            .replacingFirst("cap: 8s", with: "cap: 8 sec")
            .replacingFirst("maxRetries: 3", with: "maxRetries: 7")
            .replacingFirst("honor: true", with: "honor: True")
            .replacingFirst("ratio: 10%", with: "ratio: 10 %")
            .replacingFirst("minPerMinute: 10", with: "minPerMinute: \"10\"")
            .replacingFirst("stopReuseBefore: 5m", with: "stopReuseBefore: 5min")
            .replacingFirst("base: 1s", with: "base: 1000")
            .replacingFirst("ahead: 2", with: "ahead: 5")
            .replacingFirst("reuseKey: [viewer, device, episode, intent]", with: "reuseKey: viewer, device, episode")
            .replacingFirst("  retryAfter:", with: "  retryAfter:\n    hnor: true")
        let safe = fix(broken)
        #expect(safe == Canonical.text
            .replacingFirst("maxRetries: 3", with: "maxRetries: 7")
            .replacingFirst("base: 1s", with: "base: 1000")
            .replacingFirst("ahead: 2", with: "ahead: 5")
            .replacingFirst("reuseKey: [viewer, device, episode, intent]", with: "reuseKey: [viewer, device, episode]")
            .replacingFirst("  retryAfter:", with: "  retryAfter:\n    hnor: true"))
        let unsafe = fix(broken, unsafe: true)
        // `hnor` beside `honor` is not renamed (that would repeat a key): it stays, the rest is canonical.
        #expect(unsafe == Canonical.text.replacingFirst("  retryAfter:", with: "  retryAfter:\n    hnor: true")
            .replacingFirst("base: 1s", with: "base: 1000ms"))
        #expect(fix(unsafe, unsafe: true) == unsafe)
    }

    /// Flow and block style, quotes, comments, CRLF, a BOM and multibyte text before the value.
    @Test func layoutIsKept() {
        let text = "\u{FEFF}# 日本語 🎬\r\n" + Canonical.text
            .replacingFirst("  retryAfter:\n    honor: true\n    maxJitter: 1s\n", with: "  retryAfter: {honor: 'yes', maxJitter: \"2 s\"}   # ü\n")
            .replacingFirst("description: Ticket requests made by the iOS and Android players.", with: "description: 日本語のポリシー")
            .replacingFirst("    background:\n      kind: background      # a sync job\n      maxRetries: 5\n",
                            with: "    background: {kind: background, maxRetries: 0x5,\n      base: 1s, cap: 30s, timeout: 15s, deadline: 120s}\n")
            .replacingFirst("      base: 1s\n      cap: 30s\n      timeout: 15s\n      deadline: 120s\n", with: "")
            .replacingFirst("    - status: 503\n", with: "    - {code: 日本語🎬, status: \"404\"}\n    - status: 503\n")
            .replacingOccurrences(of: "\n", with: "\r\n")
        let fixed = fix(text, unsafe: true)
        #expect(fixed == text
            .replacingFirst("maxRetries: 0x5", with: "maxRetries: 5")
            .replacingFirst("\"2 s\"", with: "1s")
            .replacingFirst("status: \"404\"", with: "status: 404"))
    }

    @Test func passesEndWithin10AndTwiceIsOnce() {
        var rng = Rng(state: 16)
        let mistakes: [(String, [String])] = [
            ("cap: 8s", ["cap: 8 sec", "cap: 8S", "cap: 8000", "cap: \"8 s\""]),
            ("maxRetries: 3", ["maxRetries: 9", "maxRetries: 03", "maxRetries: +3", "maxRetries: \"3\""]),
            ("honor: true", ["honor: yes", "honor: TRUE", "honor: 1", "honor: false"]),
            ("retryOn: [network, 429, 500, 502, 503]", ["retryOn: network, 500", "retryOn: [404]", "retryOn:\n    - 500", "retryOn: 503"]),
            ("  budget:\n    ratio: 10%\n    minPerMinute: 10\n", ["", "  budget:\n", "  budget: {}\n", "    budget:\n      ratio: 10%\n"]),
            ("tickets:\n", ["tickets: ~\n", "Tickets:\n"]),
            ("  viewerRef: per-viewer-device\n", ["", "  viewerRef: per-sesion\n"]),
        ]
        for _ in 0..<40 {
            var text = Canonical.text
            for (old, choices) in mistakes where rng.below(2) == 0 { text = text.replacingFirst(old, with: rng.pick(choices)) }
            if rng.below(3) == 0 { text = text.replacingOccurrences(of: "\n", with: "\r\n") }
            let parses = Loader.load(Array(text.utf8)).decodable
            for unsafe in [false, true] {
                let once = Fixer.fix(Array(text.utf8), path: "p.yaml", unsafe: unsafe)
                if parses { #expect(Loader.load(once.bytes).decodable, "\(text)") }
                if !parses { #expect(once.bytes == Array(text.utf8), "a file that does not parse is left alone") }
                let twice = Fixer.fix(once.bytes, path: "p.yaml", unsafe: unsafe)
                #expect(twice.bytes == once.bytes, "not a fixed point:\n\(String(decoding: once.bytes, as: UTF8.self))")
            }
        }
    }

    /// Hostile inputs (the fuzzer's crashes and seeds, the examples): fixing never crashes, every
    /// edit names positions of the file, a file that parses still parses, and fixing again changes
    /// nothing.
    @Test(arguments: Corpus.crashes + Corpus.hostile
          + Corpus.files(in: "Fuzz/corpus/examples"))
    func hostileInputsAreFixedSafely(_ url: URL) throws {
        let bytes = [UInt8](try Data(contentsOf: url))
        let map = LineIndex(bytes)
        for d in Checker.check(bytes, path: "h.yaml").diagnostics {
            for edit in d.fix?.edits ?? [] {
                #expect(map.offset(of: edit.span.start) != nil && map.offset(of: edit.span.end) != nil,
                        "\(url.lastPathComponent): \(d.headline): an edit outside the file")
            }
        }
        let parses = Loader.load(bytes).decodable
        for unsafe in [false, true] {
            let once = Fixer.fix(bytes, path: "h.yaml", unsafe: unsafe)
            if parses { #expect(Loader.load(once.bytes).decodable, "\(url.lastPathComponent)") }
            #expect(Fixer.fix(once.bytes, path: "h.yaml", unsafe: unsafe).bytes == once.bytes, "\(url.lastPathComponent)")
        }
    }

    /// Every scalar of texts with every kind of line break, multi-byte scalars, control bytes and
    /// long lines of accented letters (past a block of counted scalars): the index's position of
    /// it is the one counted by walking the text, its offset comes back from that position, and a
    /// column past a line's end is no position.
    @Test func linePositionsAreThoseOfAWalk() {
        var rng = Rng(state: 53)
        let pieces = Rng.linePieces + ["\u{1}", "\u{7F}", "\u{9F}", String(repeating: "é", count: 65),
                                       "жжж", "é\u{85}ж", "ж\u{2028}ж", "é’ж", "ÿ\u{A0}日😀é", "\u{212A}\u{2029}\u{212A}",
                                       "·\u{2027}\u{202A}\u{85}", "\u{2028}\u{2028}é"]
        for round in 0..<200 {
            let text = rng.text(rng.below(61), of: pieces, bom: round % 4 == 0)
            let bytes = Array(text.utf8)
            let map = LineIndex(bytes)
            // The walk: lines end at LF, CR and CRLF; columns count scalars.
            var line = 1, column = 1, offset = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
            var scalars = Array(String(decoding: bytes[offset...], as: UTF8.self).unicodeScalars)[...]
            while let scalar = scalars.popFirst() {
                #expect(map.offset(of: Mark(line: line, column: column)) == offset, "\(text.debugDescription) \(line):\(column)")
                #expect(map.mark(at: offset) == Mark(line: line, column: column), "\(text.debugDescription) @\(offset)")
                offset += String(scalar).utf8.count
                if scalar == "\r", scalars.first == "\n" {
                    scalars.removeFirst()
                    offset += 1
                }
                if ["\n", "\r"].contains(scalar) {
                    #expect(map.offset(of: Mark(line: line, column: column + 1)) == nil, "\(text.debugDescription) \(line):\(column + 1)")
                    line += 1
                    column = 1
                } else {
                    column += 1
                }
            }
            #expect(map.offset(of: Mark(line: line, column: column)) == offset)
            #expect(map.lineCount == line)
        }
    }

    // MARK: the unified diff

    @Test func diffIsUnified() {
        let old = Array("a\nb\nc\nd\ne\nf\ng\nh\ni\nj\nk\n".utf8)
        let new = Array("a\nB\nc\nd\ne\nf\ng\nh\ni\nj\nk\nl".utf8)
        #expect(UnifiedDiff.render(old: old, new: new, path: "P/x.yaml") == """
            --- a/P/x.yaml
            +++ b/P/x.yaml
            @@ -1,5 +1,5 @@
             a
            -b
            +B
             c
             d
             e
            @@ -9,3 +9,4 @@
             i
             j
             k
            +l
            \\ No newline at end of file

            """)
        #expect(UnifiedDiff.render(old: old, new: old, path: "x") == "")
        // CRLF lines keep their CR; a tab stays; an escape is shown escaped.
        let crlf = UnifiedDiff.render(old: Array("a: 1\r\nb:\t2\r\n".utf8), new: Array("a: 2\r\nb:\t2\u{1B}\r\n".utf8), path: "c")
        #expect(crlf == "--- a/c\n+++ b/c\n@@ -1,2 +1,2 @@\n-a: 1\r\n-b:\t2\r\n+a: 2\r\n+b:\t2\\u{1B}\r\n")
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/patch") || ProcessInfo.processInfo.environment["CI"] == "true"))
    func patchAppliesTheDiff() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("policyc-diff-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        var rng = Rng(state: 17)
        for round in 0..<20 {
            let eol = round % 2 == 0 ? "\n" : "\r\n"
            let original = Canonical.text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            let old = original.joined(separator: eol)
            var lines = original
            for _ in 0..<rng.below(6) + 1 {
                let i = rng.below(lines.count)
                switch rng.below(3) {
                case 0: lines[i] += " # changed"
                case 1: lines.remove(at: i)
                default: lines.insert("added: \(round)", at: i)
                }
            }
            let new = lines.joined(separator: eol)
            try Data(old.utf8).write(to: dir.appendingPathComponent("x.yaml"))
            let diff = UnifiedDiff.render(old: Array(old.utf8), new: Array(new.utf8), path: "x.yaml")
            try Data(diff.utf8).write(to: dir.appendingPathComponent("x.diff"))
            let patched = try Processes.run("/usr/bin/patch", ["-p1", "--quiet", "--binary", "-i", "x.diff"], in: dir)
            #expect(patched.status == 0, "\(diff)\n\(patched)")
            #expect(try Data(contentsOf: dir.appendingPathComponent("x.yaml")) == Data(new.utf8), "\(diff)")
        }
    }
}
