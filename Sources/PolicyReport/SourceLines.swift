import PolicySource
import PolicyCheck

extension Reporters {
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
}
