import PolicySource
import PolicyCheck

extension Reporters {
    /// A file's lines as the source map counts them (libyaml's line breaks: LF, CR, CRLF, NEL, LS,
    /// PS; line 1 after a BOM), so that a diagnostic's line number finds the line it means.
    struct SourceLines {
        private let bytes: [UInt8]
        /// The last line decoded, for the other findings on it.
        private var decoded: (number: Int, text: String)?
        /// The checker's map of these bytes' lines, when it made one whole for its fixes; else
        /// a map made as far as lines are asked for: findings come in line order, and the first
        /// thousand of a 1 MiB file often stand in its first lines.
        private let map: SourceMap?
        private var partial: SourceMap.Builder

        init(_ bytes: [UInt8], map: SourceMap? = nil) {
            self.bytes = bytes
            self.map = map?.bytes.count == bytes.count ? map : nil
            partial = SourceMap.Builder(self.map == nil ? bytes : [])
        }

        /// Where line `n` (1-based) starts and ends; nil past the last line, and for the empty
        /// line the map counts after a final line break, which has no excerpt.
        private mutating func lineBounds(_ n: Int) -> (start: Int, end: Int)? {
            guard let found = map.map({ $0.bounds(ofLine: n) }) ?? partial.bounds(ofLine: n),
                  found.start < bytes.count else { return nil }
            return found
        }

        /// Line `n` (1-based) decoded whole, or nil when the file has no such line (a finding at the
        /// very end). Excerpts decode only what they show; tests hold them to this line's scalars.
        mutating func line(_ n: Int) -> Substring.UnicodeScalarView? {
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
        mutating func excerpt(line n: Int, column: Int, endColumn: Int?) -> Excerpt? {
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
        static func isASCII(_ bytes: ArraySlice<UInt8>) -> Bool {
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
        static func decode(_ bytes: [UInt8], _ range: Range<Int>, _ body: (Int, Unicode.Scalar) -> Bool) {
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
