import PolicySource
import PolicyCheck

extension Reporters {
    /// Compiler style, one block per finding:
    ///
    ///     Policies/playback.yaml:9:19: error: interactive profile … [interactive-retries-max]
    ///           maxRetries: 4
    ///                       ^
    ///       help: …
    ///       guide: "At most 3 retries per interactive request" (Checklist)
    ///
    /// The summary is not part of it: the CLI writes `ReportSummary.text` to stderr.
    public static func text(_ files: [CheckedFile], color: Bool = false) -> String {
        String(decoding: textBytes(files, color: color), as: UTF8.self)
    }

    /// `text`'s UTF-8, as it is made: every piece of it comes from a String (an excerpt's
    /// scalars are decoded from the source), so it is valid, and checking it again to make it a
    /// String would be wasted work, heavy on lines of accented letters.
    public static func textBytes(_ files: [CheckedFile], color: Bool = false) -> [UInt8] {
        var out: [UInt8] = []
        for file in sortedFiles(files, where: { !$0.diagnostics.isEmpty }) {
            write(file.diagnostics, source: file.source, lines: file.lines, color: color, to: &out)
        }
        return out
    }

    /// The findings of one source, in the format of `text(_:color:)`: for files that are not
    /// policies but are read the same way (the project file).
    public static func text(_ diagnostics: [Diagnostic], source bytes: [UInt8], color: Bool = false) -> String {
        var out: [UInt8] = []
        write(diagnostics, source: bytes, color: color, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// The report is written as bytes: joining Strings piece by piece (each finding with a
    /// canonical profile of several lines as its help) is far slower.
    package static func write(_ diagnostics: [Diagnostic], source bytes: [UInt8], lines: SourceMap? = nil, color: Bool,
                      to out: inout [UInt8]) {
        var source = SourceLines(bytes, map: lines)
        // A file name is echoed input too: a newline or an escape in it must not reach the
        // terminal. Made printable once for the findings that share it, as all of a file's do.
        var shown: (file: String, printable: String)?
        var guide: (rule: String, line: [UInt8])?
        for d in diagnostics.sortedForReport() {
            if shown?.file != d.file { shown = (d.file, printable(d.file)) }
            writeHeadline(d, file: shown!.printable, color: color, to: &out)
            out.append(0x0A)
            let endColumn = d.span.end.line == d.line ? d.span.end.column : nil
            if let excerpt = source.excerpt(line: d.line, column: d.column, endColumn: endColumn) {
                out += excerpt.text.utf8
                out.append(0x0A)
                if color { out += ANSI.caret.utf8 }
                out += excerpt.caret.utf8
                if color { out += ANSI.reset.utf8 }
                out.append(0x0A)
            }
            if let help = d.help {
                // A help of several lines (a section to paste) keeps its lines, indented under it.
                writeLines(help, firstPrefix: "  help: ", prefix: "        ", to: &out)
            }
            if let accepted = d.acceptance {
                out += "  ".utf8
                out += printable(accepted).utf8
                out.append(0x0A)
            }
            for related in d.related {
                out += "  note: \(printable(related.file)):\(related.span.start.line):\(related.span.start.column): ".utf8
                out += printable(related.message).utf8
                out.append(0x0A)
            }
            // The guide's line of the rule, made once for the findings of a rule in a row: the
            // rule's lookup and the text are too dear to repeat for each finding.
            if guide?.rule != d.rule {
                guide = (d.rule, reference(of: d.rule).map { Array("  guide: \(printable($0.text))\n".utf8) } ?? [])
            }
            out += guide!.line
            // Last, so that the lines above read as they always have.
            if let fix = d.fix {
                out += "  fix: ".utf8
                out += printable(fix.description).utf8
                out += (fix.safety == .safe ? " (safe: lint --fix)\n" : " (unsafe: lint --unsafe-fixes)\n").utf8
            }
        }
    }

    /// Each line of `text` after its prefix, made printable, each ending in a newline. Split on
    /// bytes: splitting by Characters is far slower. A line of printable ASCII, as
    /// help lines are, is copied as it is.
    package static func writeLines(_ text: String, firstPrefix: String, prefix: String, to out: inout [UInt8]) {
        var text = text
        text.withUTF8 { bytes in
            var start = 0, first = true
            func line(_ end: Int) {
                out += (first ? firstPrefix : prefix).utf8
                first = false
                let line = UnsafeBufferPointer(rebasing: bytes[start..<end])
                if line.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) {
                    out += line
                } else {
                    out += printable(String(decoding: line, as: UTF8.self)).utf8
                }
                out.append(0x0A)
            }
            for i in 0..<bytes.count where bytes[i] == 0x0A {
                line(i)
                start = i + 1
            }
            line(bytes.count)
        }
    }

    /// `Diagnostic.headline` with `file` for its file, coloured as compilers do: bold location and
    /// message, red `error:`, yellow `warning:`. Written as bytes: interpolating the headline
    /// is a large share of the report's cost.
    package static func writeHeadline(_ d: Diagnostic, file: String, color: Bool, to out: inout [UInt8]) {
        if color { out += ANSI.bold.utf8 }
        out += file.utf8
        out.append(0x3A)
        writeDecimal(d.line, to: &out)
        out.append(0x3A)
        writeDecimal(d.column, to: &out)
        out.append(0x3A)
        if color { out += ANSI.reset.utf8 }
        out.append(0x20)
        if color { out += (d.severity == .error ? ANSI.error : d.severity == .warning ? ANSI.warning : ANSI.note).utf8 }
        out += d.severity.rawValue.utf8
        out.append(0x3A)
        if color { out += ANSI.reset.utf8 }
        out.append(0x20)
        if color { out += ANSI.bold.utf8 }
        out += printable(d.message).utf8
        out += " [".utf8
        out += d.rule.utf8
        out.append(0x5D)
        if color { out += ANSI.reset.utf8 }
    }

    /// `n` in decimal, as `"\(n)"` writes it.
    package static func writeDecimal(_ n: Int, to out: inout [UInt8]) {
        guard n >= 0 else {
            out += String(n).utf8
            return
        }
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                     UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0, rest = n
        withUnsafeMutableBytes(of: &digits) { d in
            repeat {
                d[19 - count] = UInt8(0x30 + rest % 10)
                rest /= 10
                count += 1
            } while rest > 0
            out += d[(20 - count)...]
        }
    }
}

extension Reporters {
    /// The escape sequences of the coloured text format.
    package enum ANSI {
        package static let bold = "\u{1B}[1m"
        package static let error = "\u{1B}[1;31m"
        package static let warning = "\u{1B}[1;33m"
        package static let note = "\u{1B}[1;36m"
        package static let caret = "\u{1B}[1;32m"
        package static let reset = "\u{1B}[0m"
    }

    /// A file's lines, split where libyaml counts a new line (LF, CR, CRLF, NEL, LS, PS) so that a
    /// diagnostic's line number finds the line it means. A leading BOM is not part of line 1.
    package struct SourceLines {
        /// The file's bytes, and where each line's bytes start and end, found as far as lines
        /// are asked for: findings come in line order, and the first thousand of a 1 MiB file
        /// often stand in its first lines (decoding and splitting all of it is a large share of
        /// the report's cost).
        private let bytes: [UInt8]
        private var bounds: [(start: UInt32, end: UInt32)] = []
        /// Where the next line starts; nil once the whole file is split.
        private var next: Int?
        /// The last line decoded, for the other findings on it.
        private var decoded: (number: Int, text: String)?

        /// The checker's map of these bytes' lines, made whole for the fixes: then no line is
        /// split here. Its lines are these (libyaml's breaks, line 1 after a BOM), but for the
        /// empty line it counts after a final line break, which has no excerpt.
        private let map: SourceMap?
        private let mapLines: Int

        package init(_ bytes: [UInt8], map: SourceMap? = nil) {
            self.bytes = bytes
            next = bytes.isEmpty ? nil : bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
            self.map = map?.bytes.count == bytes.count ? map : nil
            mapLines = self.map.map { $0.endsWithLineBreak ? $0.lineCount - 1 : $0.lineCount } ?? 0
        }

        /// Where line `n` (1-based) starts and ends; nil past the last line.
        private mutating func lineBounds(_ n: Int) -> (start: Int, end: Int)? {
            guard n >= 1 else { return nil }
            if let map { return n <= mapLines ? map.bounds(ofLine: n) : nil }
            split(upTo: n)
            guard n <= bounds.count else { return nil }
            return (Int(bounds[n - 1].start), Int(bounds[n - 1].end))
        }

        /// Splits lines until there are `n` (or the file ends). On the bytes: walking the text
        /// scalar by scalar costs more than libyaml's whole parse.
        /// In UTF-8, NEL is C2 85 and LS/PS are E2 80 A8/A9, and those lead bytes never occur
        /// inside another character, nor does repairing invalid UTF-8 ever take them in, so a
        /// byte match is a character match.
        private mutating func split(upTo n: Int) {
            guard var start = next, bounds.count < n else { return }
            var found = bounds
            bounds = []
            bytes.withUnsafeBufferPointer { u in
                let count = u.count
                var i = start
                while i < count && found.count < n {
                    // Printable ASCII, most of a file, eight bytes at a time.
                    i += SourceMap.asciiRun(u, from: i)
                    guard i < count else { break }
                    let b = u[i]
                    if b > 0x0D && b < 0xC2 {
                        i += 1
                    } else if b == 0x0A {
                        found.append((UInt32(start), UInt32(i)))
                        i += 1
                        start = i
                    } else if b == 0x0D {
                        found.append((UInt32(start), UInt32(i)))
                        i += 1
                        if i < count, u[i] == 0x0A { i += 1 }
                        start = i
                    } else if b == 0xC2, i + 1 < count, u[i + 1] == 0x85 {
                        found.append((UInt32(start), UInt32(i)))
                        i += 2
                        start = i
                    } else if b == 0xE2, i + 2 < count, u[i + 1] == 0x80, u[i + 2] == 0xA8 || u[i + 2] == 0xA9 {
                        found.append((UInt32(start), UInt32(i)))
                        i += 3
                        start = i
                    } else {
                        i += 1
                    }
                }
                if found.count < n {
                    // The end: the last line, unless the file ends with a line break.
                    if start < count { found.append((UInt32(start), UInt32(count))) }
                    next = nil
                } else {
                    next = start
                }
            }
            bounds = found
        }

        /// Line `n` (1-based) decoded whole, or nil when the file has no such line (a finding at the
        /// very end). Excerpts decode only what they show; tests hold them to this line's scalars.
        package mutating func line(_ n: Int) -> Substring.UnicodeScalarView? {
            guard let (start, end) = lineBounds(n) else { return nil }
            if decoded?.number != n {
                decoded = (n, String(decoding: bytes[start..<end], as: UTF8.self))
            }
            return Substring(decoded!.text).unicodeScalars
        }

        /// Of each long line asked for: its length in scalars, and the byte offset of every
        /// `step`th scalar; none for a line of ASCII, whose scalars are its bytes.
        private var long: [Int: (count: Int, marks: [Int], ascii: Bool)] = [:]
        private static let step = 256

        /// The excerpt of line `n` for a finding at `column`, as `Excerpt(line:column:endColumn:)`
        /// makes it. A long line (a 1 MiB flow list, say) is walked once for all its findings, not
        /// copied whole for each: a thousand findings on one line cost a thousand copies of it.
        package mutating func excerpt(line n: Int, column: Int, endColumn: Int?) -> Excerpt? {
            // Findings often stand on one span (a profile lacking six keys): its excerpt is made once.
            if let last = lastExcerpt, last.line == n, last.column == column, last.endColumn == endColumn {
                return last.excerpt
            }
            let made = makeExcerpt(line: n, column: column, endColumn: endColumn)
            lastExcerpt = (n, column, endColumn, made)
            return made
        }

        private var lastExcerpt: (line: Int, column: Int, endColumn: Int?, excerpt: Excerpt?)?

        /// Whether every byte is below 0x80, eight at a time.
        package static func isASCII(_ bytes: ArraySlice<UInt8>) -> Bool {
            bytes.withUnsafeBufferPointer { b in
                var i = 0
                if let base = b.baseAddress {
                    while i + 8 <= b.count {
                        if UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self) & 0x8080_8080_8080_8080 != 0 { return false }
                        i += 8
                    }
                }
                while i < b.count {
                    if b[i] >= 0x80 { return false }
                    i += 1
                }
                return true
            }
        }

        private mutating func makeExcerpt(line n: Int, column: Int, endColumn: Int?) -> Excerpt? {
            // A line of ASCII: its scalars are its bytes, and it is never decoded. Decoding a
            // long line and walking it scalar by scalar, and each finding's window from its mark,
            // is slow for many findings; even a short line, decoded and copied whole for each
            // finding, is a large share of the report.
            guard let (start, end) = lineBounds(n) else { return nil }
            let isLong = end - start > 4 * Excerpt.window
            if isLong, long[n] == nil, Self.isASCII(bytes[start..<end]) { long[n] = (end - start, [], true) }
            if isLong ? long[n]?.ascii == true : Self.isASCII(bytes[start..<end]) {
                let (at, lower, upper) = Excerpt.bounds(count: end - start, column: column)
                let window = bytes[(start + lower)..<(start + upper)].map { Unicode.Scalar($0) }
                return Excerpt(window: window, lower: lower, count: end - start, at: at, endColumn: endColumn)
            }
            // Other lines are decoded from their bytes as `String(decoding:as:)` decodes them, the
            // window's scalars only: a String made of the line and walked index by index, and
            // each scalar's width asked of Unicode's tables, were a large share of lint's work
            // for many findings on long lines of accented letters.
            guard isLong else {
                // Bytes bound scalars: a line of few bytes is cheap to decode whole.
                var scalars: [Unicode.Scalar] = []
                scalars.reserveCapacity(end - start)
                Self.decode(bytes, start..<end) { _, scalar in
                    scalars.append(scalar)
                    return true
                }
                let (at, lower, upper) = Excerpt.bounds(count: scalars.count, column: column)
                return Excerpt(window: Array(scalars[lower..<upper]), lower: lower, count: scalars.count, at: at,
                               endColumn: endColumn, widths: &widths)
            }
            if long[n] == nil {
                var count = 0, marks: [Int] = []
                let valid = bytes.withUnsafeBufferPointer { Encoding.firstInvalidUTF8(UnsafeBufferPointer(rebasing: $0[start..<end])) == nil }
                if valid {
                    // Valid UTF-8: a scalar starts at each byte that does not continue one, so
                    // counting needs no decoding, which is slow on a long line.
                    bytes.withUnsafeBufferPointer { b in
                        for i in start..<end where b[i] & 0xC0 != 0x80 {
                            if count % Self.step == 0 { marks.append(i) }
                            count += 1
                        }
                    }
                } else {
                    Self.decode(bytes, start..<end) { offset, _ in
                        if count % Self.step == 0 { marks.append(offset) }
                        count += 1
                        return true
                    }
                }
                long[n] = (count, marks, false)
            }
            let (count, marks, _) = long[n]!
            let (at, lower, upper) = Excerpt.bounds(count: count, column: column)
            var window: [Unicode.Scalar] = []
            window.reserveCapacity(upper - lower)
            // From the checkpoint before the window: a scalar's boundary, where decoding may start.
            var skip = lower % Self.step
            Self.decode(bytes, (marks.isEmpty ? start : marks[lower / Self.step])..<end) { _, scalar in
                if skip > 0 {
                    skip -= 1
                    return true
                }
                window.append(scalar)
                return window.count < upper - lower
            }
            return Excerpt(window: window, lower: lower, count: count, at: at, endColumn: endColumn, widths: &widths)
        }

        /// The widths of the scalars this report has shown.
        private var widths = Excerpt.Widths()

        /// Calls `body` with each scalar of `bytes[range]` and its byte offset, until it returns
        /// false. Decoded as `String(decoding:as:)` decodes: each maximal ill-formed sequence one
        /// U+FFFD (a test holds the two together).
        package static func decode(_ bytes: [UInt8], _ range: Range<Int>, _ body: (Int, Unicode.Scalar) -> Bool) {
            var parser = Unicode.UTF8.ForwardParser()
            var input = bytes[range].makeIterator()
            var offset = range.lowerBound
            while true {
                switch parser.parseScalar(from: &input) {
                case .valid(let encoded):
                    guard body(offset, UTF8.decode(encoded)) else { return }
                    offset += encoded.count
                case .error(let length):
                    guard body(offset, "\u{FFFD}") else { return }
                    offset += length
                case .emptyInput:
                    return
                }
            }
        }
    }

    /// A source line made safe to print, and the caret line under it.
    ///
    /// Tabs are kept (and repeated in the caret line, so the caret lines up however wide a tab is);
    /// control and bidi characters are shown escaped, as `printable` does; very long lines are cut to
    /// a window around the column.
    package struct Excerpt {
        package var text = ""
        package var caret = ""

        package static let window = 160

        package init(line: Substring.UnicodeScalarView, column: Int, endColumn: Int?) {
            let scalars = Array(line)
            let (at, lower, upper) = Excerpt.bounds(count: scalars.count, column: column)
            self.init(window: Array(scalars[lower..<upper]), lower: lower, count: scalars.count, at: at, endColumn: endColumn)
        }

        /// The caret's scalar offset and the window shown, of a line of `count` scalars.
        package static func bounds(count: Int, column: Int) -> (at: Int, lower: Int, upper: Int) {
            let at = max(0, min(column - 1, count))
            var lower = 0, upper = count
            if count > Excerpt.window {
                lower = max(0, min(at - Excerpt.window / 3, count - Excerpt.window))
                upper = min(count, lower + Excerpt.window)
            }
            return (at, lower, upper)
        }

        /// From the scalars `lower..<upper` of a line of `count` scalars (`window`).
        package init(window: [Unicode.Scalar], lower: Int, count: Int, at: Int, endColumn: Int?) {
            var widths = Widths()
            self.init(window: window, lower: lower, count: count, at: at, endColumn: endColumn, widths: &widths)
        }

        /// As above, with the widths of the scalars met so far in the report.
        package init(window: [Unicode.Scalar], lower: Int, count: Int, at: Int, endColumn: Int?, widths: inout Widths) {
            let cut = Excerpt.escapedCut(window, lower: lower, at: at)
            self.init(shown: cut.map { Array(window[$0]) } ?? window, lower: lower + (cut?.lowerBound ?? 0), count: count,
                      at: at, endColumn: endColumn, widths: &widths)
        }

        /// At most this many characters of a line whose window holds escaped characters (`\u{0}`
        /// and the like, up to 10 characters each), its `…`s included: a binary file's line
        /// would otherwise quote hundreds of them.
        package static let escapedLimit = 80

        /// The part of `window` around the caret that shows within `escapedLimit` characters, when
        /// it holds an escaped character and shows longer; nil otherwise.
        package static func escapedCut(_ window: [Unicode.Scalar], lower: Int, at: Int) -> Range<Int>? {
            var lengths: [Int] = []
            var total = 0, escaped = false
            for s in window {
                let n = (s.value >= 0x20 && s.value < 0x7F) || s == "\t" || !isUnsafeScalar(s) ? 1 : printable(String(s)).unicodeScalars.count
                escaped = escaped || n > 1
                lengths.append(n)
                total += n
            }
            guard escaped, total > escapedLimit else { return nil }
            // Room for a `…` on each side.
            let budget = escapedLimit - 2
            let pivot = max(0, min(at - lower, window.count - 1))
            var lo = pivot, hi = pivot + 1, used = lengths[pivot]
            // A third of the room before the caret, the rest after, and what is left of it before.
            while lo > 0, used + lengths[lo - 1] <= budget / 3 { lo -= 1; used += lengths[lo] }
            while hi < window.count, used + lengths[hi] <= budget { used += lengths[hi]; hi += 1 }
            while lo > 0, used + lengths[lo - 1] <= budget { lo -= 1; used += lengths[lo] }
            return lo..<hi
        }

        private init(shown window: [Unicode.Scalar], lower: Int, count: Int, at: Int, endColumn: Int?, widths: inout Widths) {
            let upper = lower + window.count
            // The caret stands under the start; `~` runs to the span's end when it is on this line.
            let end = endColumn.map { max(at + 1, min($0 - 1, upper)) } ?? at + 1
            // Both lines made as bytes: appending to a String a scalar at a time is slow, and a
            // report has up to a thousand.
            var shownLine: [UInt8] = [], caretLine: [UInt8] = []
            shownLine.reserveCapacity(window.count + 8)
            caretLine.reserveCapacity(min(at, upper) - lower + 2)
            func mark(_ byte: UInt8, _ count: Int = 1) {
                for _ in 0..<count { caretLine.append(byte) }
            }
            if lower > 0 {
                shownLine += "…".utf8
                mark(0x20)
            }
            for i in lower..<upper {
                let scalar = window[i - lower]
                // Printable ASCII, most of any line: itself, one column wide.
                if scalar.value >= 0x20 && scalar.value < 0x7F {
                    shownLine.append(UInt8(scalar.value))
                    if i < at {
                        mark(0x20)
                    } else if i == at {
                        mark(0x5E)
                    } else if i < end {
                        mark(0x7E)
                    }
                    continue
                }
                let width = Excerpt.display(scalar, into: &shownLine, widths: &widths)
                if i < at {
                    if scalar == "\t" { mark(0x09) } else { mark(0x20, width) }
                } else if i == at {
                    mark(0x5E)
                    mark(0x7E, max(0, width - 1))
                } else if i < end {
                    mark(0x7E, max(1, width))
                }
            }
            if at >= upper { mark(0x5E) }  // the end of the line (a missing value, say)
            if upper < count { shownLine += "…".utf8 }
            text = String(decoding: shownLine, as: UTF8.self)
            self.caret = String(decoding: caretLine, as: UTF8.self)
        }

        /// Appends how a character is shown to `line`; returns how many columns it takes on a
        /// terminal.
        package static func display(_ s: Unicode.Scalar, into line: inout [UInt8], widths: inout Widths) -> Int {
            if s == "\t" {
                line.append(0x09)
                return 1
            }
            if isUnsafeScalar(s) {
                let shown = printable(String(s))
                line += shown.utf8
                return shown.unicodeScalars.count
            }
            UTF8.encode(s) { line.append($0) }
            return widths.of(s)
        }

        /// The terminal columns of the scalars a report has met. `width` asks Unicode's tables
        /// (general category, emoji presentation), which is slow when many findings stand on
        /// lines of accented words. Kept for the Basic Multilingual Plane in a table of 64 KB,
        /// made at the first scalar past ASCII (a dictionary's lookups are slower still).
        package struct Widths {
            private var known: [Int8] = []

            package mutating func of(_ s: Unicode.Scalar) -> Int {
                guard s.value < 0x1_0000 else { return Excerpt.width(s) }
                if known.isEmpty { known = [Int8](repeating: -1, count: 0x1_0000) }
                let i = Int(s.value)
                if known[i] < 0 { known[i] = Int8(Excerpt.width(s)) }
                return Int(known[i])
            }
        }

        /// Terminal columns of a printable scalar: 0 for combining marks, 2 for East Asian wide
        /// characters and emoji, else 1. An approximation of `wcwidth` without a locale.
        package static func width(_ s: Unicode.Scalar) -> Int {
            switch s.properties.generalCategory {
            case .nonspacingMark, .enclosingMark, .format: return 0
            default: break
            }
            switch s.value {
            case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
                 0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
                 0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x3FFFD:
                return 2
            default:
                return s.properties.isEmojiPresentation ? 2 : 1
            }
        }
    }
}
