/// A file's bytes and where each of its lines starts, lines counted as libyaml counts them (LF,
/// CR, CRLF, NEL, LS, PS), line 1 starting after a BOM: the one mapping between the loader's
/// positions (`Mark`: 1-based line, column in Unicode scalars) and byte offsets. Fixes are applied
/// on bytes through it, so that every byte they do not touch stays as it was.
public struct SourceMap: Sendable {
    public let bytes: [UInt8]
    /// Each line: where it starts (`lines[0]` is line 1, from byte 3 after a BOM), where it ends
    /// (its line break, or the end of the file for the last line), and whether it is all ASCII
    /// (its columns are then its bytes). One array of one element a line: three of them would cost
    /// three appends and three growths a line.
    private var lines: [Line] = []
    /// The line break the file uses first (LF when it has none): what inserted lines end with.
    public private(set) var lineBreak = "\n"
    /// For lines that are not all ASCII and longer than `stride` scalars, the offset of every
    /// `stride`-th scalar, so that a column far along a long line (a hostile one-line file) is
    /// found without walking the line.
    private var checkpoints: [Int: [Int]] = [:]
    private static let stride = 64

    private struct Line {
        // 32 bits: a file of 4 GiB is not a policy (the loader stops at 1 MiB).
        var storedStart: UInt32, storedEnd: UInt32
        var ascii: Bool
        var start: Int { Int(storedStart) }
        var end: Int { Int(storedEnd) }
        init(start: Int, end: Int, ascii: Bool) {
            storedStart = UInt32(clamping: start)
            storedEnd = UInt32(clamping: end)
            self.ascii = ascii
        }
    }

    public init(_ bytes: [UInt8]) {
        var builder = Builder(bytes)
        self = builder.finish()
    }

    /// The map made a piece at a time: a syntax error's position needs only the lines up to it
    /// (`finish(through:)`), a fix the whole map (`finish()`).
    public struct Builder: Sendable {
        let bytes: [UInt8]
        private var lines: [Line] = []
        private var checkpoints: [Int: [Int]] = [:]
        private var lineBreak: String?
        /// Where the current line starts, the next byte to read, its scalars so far and the count
        /// at which its next checkpoint stands, the checkpoints so far, whether it is all ASCII
        /// (then a column is a byte offset, and the line needs no checkpoints: storing them for
        /// every line of over 64 characters cost more than finding the lines).
        private var start = 0, i = 0, scalars = 0, nextMark = SourceMap.stride
        private var marks: [Int] = []
        private var ascii = true
        private var reserved = false
        public private(set) var isDone = false

        public init(_ bytes: [UInt8]) {
            self.bytes = bytes
            start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
            i = start
        }

        /// The whole map.
        public mutating func finish() -> SourceMap {
            advance(by: .max)
            return SourceMap(bytes: bytes, lines: lines, checkpoints: checkpoints, lineBreak: lineBreak ?? "\n")
        }

        /// A map of the lines up to `line` at least (all of them in a shorter file), to place
        /// positions on those lines only: a syntax error near the start of 1 MiB of short lines
        /// needs no map of the rest.
        public mutating func finish(through line: Int) -> SourceMap {
            // No room made for every line of the file: counting them would cost as much as the map.
            reserved = true
            while lines.count < line, advance(by: 1 << 12) {}
            return SourceMap(bytes: bytes, lines: lines, checkpoints: checkpoints, lineBreak: lineBreak ?? "\n")
        }

        /// Where line `n` (1-based) starts and ends, its line break left out, reading only as far
        /// as that line: a report that quotes the first lines of a large file maps no more.
        public mutating func bounds(ofLine n: Int) -> (start: Int, end: Int)? {
            // No room made for every line of the file: counting them would cost as much as the map.
            reserved = true
            while lines.count < n, advance(by: 1 << 12) {}
            guard n >= 1, n <= lines.count else { return nil }
            return (lines[n - 1].start, lines[n - 1].end)
        }

        /// Reads at least `count` more bytes (to the end of a line or of a run of ASCII); false
        /// once the whole file is read.
        @discardableResult
        public mutating func advance(by count: Int) -> Bool {
            guard !isDone else { return false }
            // Locals: the loop's state in registers, stored back when it stops.
            var lines = self.lines, checkpoints = self.checkpoints, lineBreak = self.lineBreak
            var start = self.start, i = self.i, scalars = self.scalars, nextMark = self.nextMark
            var marks = self.marks, ascii = self.ascii, reserved = self.reserved, done = false
            let bytes = self.bytes
            self.lines = []
            self.marks = []
            self.checkpoints = [:]
            let limit = count >= bytes.count ? Int.max : i + count
            bytes.withUnsafeBufferPointer { b in
                let n = b.count
                if !reserved {
                    // Room for every line at once: growing the array copied it over and over.
                    lines.reserveCapacity(SourceMap.lineFeeds(b) + 1)
                    reserved = true
                }
                while true {
                    if i >= limit && i < n { return }
                    // Most bytes: printable ASCII, one scalar each and no line break. A run of them
                    // is skipped eight at a time, and its checkpoints placed by arithmetic: byte by
                    // byte, the map would cost as much as libyaml's parse of a file of comments.
                    let run = i < n ? SourceMap.asciiRun(b, from: i) : 0
                    if run > 0 {
                        while nextMark < scalars + run {
                            marks.append(i + nextMark - scalars)
                            nextMark += SourceMap.stride
                        }
                        scalars += run
                        i += run
                    }
                    // The width of a line break at i, if one stands there; the end of the file ends
                    // the last line.
                    var width = 0
                    if i < n {
                        let c = b[i]
                        if c & 0xC0 != 0x80 {
                            if scalars == nextMark {
                                marks.append(i)
                                nextMark += SourceMap.stride
                            }
                            scalars += 1
                        }
                        if c == 0x0A {
                            width = 1
                        } else if c == 0x0D {
                            width = i + 1 < n && b[i + 1] == 0x0A ? 2 : 1
                        } else if c == 0xC2, i + 1 < n, b[i + 1] == 0x85 {
                            width = 2
                        } else if c == 0xE2, i + 2 < n, b[i + 1] == 0x80, b[i + 2] == 0xA8 || b[i + 2] == 0xA9 {
                            width = 3
                        }
                        if width == 0 {
                            i += 1
                            if c >= 0x80 {
                                ascii = false
                                // The rest of the character at once: no continuation byte starts a
                                // scalar or a line break.
                                if c >= 0xC0 { while i < n, b[i] & 0xC0 == 0x80 { i += 1 } }
                                // And the characters after it that are not ASCII either, up to a
                                // line break (NEL is C2 85, LS and PS E2 80 A8 and A9), without going
                                // round the loop above for each of a line of accented letters.
                                while i < n {
                                    let d = b[i]
                                    guard d >= 0xC2 else { break }
                                    if d == 0xC2 {
                                        guard i + 1 < n, b[i + 1] != 0x85 else { break }
                                    } else if d == 0xE2 {
                                        guard i + 2 < n, b[i + 1] != 0x80 || (b[i + 2] != 0xA8 && b[i + 2] != 0xA9) else { break }
                                    }
                                    if scalars == nextMark {
                                        marks.append(i)
                                        nextMark += SourceMap.stride
                                    }
                                    scalars += 1
                                    i += 1
                                    while i < n, b[i] & 0xC0 == 0x80 { i += 1 }
                                }
                            }
                            continue
                        }
                        if lineBreak == nil { lineBreak = String(decoding: b[i..<(i + width)], as: UTF8.self) }
                    }
                    if !marks.isEmpty {
                        if !ascii { checkpoints[lines.count] = marks }
                        marks.removeAll(keepingCapacity: true)
                    }
                    lines.append(Line(start: start, end: i, ascii: ascii))
                    if i >= n {
                        done = true
                        return
                    }
                    ascii = true
                    scalars = 0
                    nextMark = SourceMap.stride
                    i += width
                    start = i
                    // Empty lines in a row, each a line and nothing more, without the loop above.
                    while i < n && i < limit {
                        let c = b[i]
                        guard c == 0x0A || c == 0x0D else { break }
                        lines.append(Line(start: i, end: i, ascii: true))
                        i += c == 0x0D && i + 1 < n && b[i + 1] == 0x0A ? 2 : 1
                        start = i
                    }
                }
            }
            self.lines = lines
            self.checkpoints = checkpoints
            self.lineBreak = lineBreak
            self.start = start
            self.i = i
            self.scalars = scalars
            self.nextMark = nextMark
            self.marks = marks
            self.ascii = ascii
            self.reserved = reserved
            isDone = done
            return !done
        }
    }

    private init(bytes: [UInt8], lines: [Line], checkpoints: [Int: [Int]], lineBreak: String) {
        self.bytes = bytes
        self.lines = lines
        self.checkpoints = checkpoints
        self.lineBreak = lineBreak
    }

    /// How many LF bytes `b` holds, eight at a time: the lines of most files, to make room for.
    static func lineFeeds(_ b: UnsafeBufferPointer<UInt8>) -> Int {
        var count = 0, i = 0
        if let base = b.baseAddress {
            while i + 8 <= b.count {
                // Per byte lane, how many LFs it has seen; a lane holds 255 before it would carry.
                var lanes: UInt64 = 0
                let end = min(b.count, i + 8 * 255)
                while i + 8 <= end {
                    // Bytes equal to LF become zero. Every other byte sets its top bit in `other`
                    // (each is cut to seven bits before the add, so no carry crosses into the next).
                    let w = UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self) ^ 0x0A0A_0A0A_0A0A_0A0A
                    let other = ((w & 0x7F7F_7F7F_7F7F_7F7F) &+ 0x7F7F_7F7F_7F7F_7F7F | w) & 0x8080_8080_8080_8080
                    lanes &+= (~other & 0x8080_8080_8080_8080) >> 7
                    i += 8
                }
                // The sum of the lanes (up to 2,040: more than a byte holds): pairs of lanes
                // added into 16-bit lanes, whose sum the multiply gathers in the top 16 bits.
                let pairs = (lanes & 0x00FF_00FF_00FF_00FF) &+ ((lanes >> 8) & 0x00FF_00FF_00FF_00FF)
                count += Int((pairs &* 0x0001_0001_0001_0001) >> 48)
            }
        }
        while i < b.count {
            if b[i] == 0x0A { count += 1 }
            i += 1
        }
        return count
    }

    /// How many bytes from `start` on are printable ASCII (0x20 to 0x7F): none of them ends a line.
    @inline(__always)
    static func asciiRun(_ b: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        var i = start
        if let base = b.baseAddress {
            while i + 8 <= b.count {
                let w = UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)
                // A byte of 0x80 or more sets its top bit; with none, a byte below 0x20 is one
                // that borrows when 0x20 is taken from it (the classic "has less than" test).
                let high = w & 0x8080_8080_8080_8080
                let low = (w &- 0x2020_2020_2020_2020) & ~w & 0x8080_8080_8080_8080
                if high | low != 0 { break }
                i += 8
            }
        }
        while i < b.count, b[i] >= 0x20, b[i] < 0x80 { i += 1 }
        return i - start
    }

    /// How many lines the file has; a file that ends with a line break has an empty last line.
    public var lineCount: Int { lines.count }

    /// Whether the last line is empty: the file ends with a line break (or is empty).
    public var endsWithLineBreak: Bool { lines[lines.count - 1].start == bytes.count }

    /// The byte offset of `mark`; nil when the file has no such position. The end of a line (one
    /// column past its last character) is a position.
    public func offset(of mark: Mark) -> Int? {
        guard mark.line >= 1, mark.line <= lines.count, mark.column >= 1 else { return nil }
        let line = lines[mark.line - 1]
        var i = line.start
        let end = line.end
        if line.ascii {
            // Compared before adding: a column of Int.max must not overflow.
            return mark.column - 1 <= end - i ? i + mark.column - 1 : nil
        }
        var column = 1
        // From the last checkpoint before the column, on a long line.
        if mark.column > Self.stride, let marks = checkpoints[mark.line - 1] {
            let k = min((mark.column - 1) / Self.stride, marks.count)
            if k > 0 {
                i = marks[k - 1]
                column = k * Self.stride + 1
            }
        }
        while column < mark.column {
            guard i < end else { return nil }
            // Past one scalar: its lead byte, then its continuation bytes.
            i += 1
            while i < end, bytes[i] & 0xC0 == 0x80 { i += 1 }
            column += 1
        }
        return i
    }

    /// The index (0-based) of the line that holds byte `offset`: the last that starts at or
    /// before it (the first line for an offset before it, as in a byte order mark).
    public func lineIndex(containing offset: Int) -> Int {
        var lo = 0, hi = lines.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if lines[mid].start <= offset { lo = mid } else { hi = mid - 1 }
        }
        return lo
    }

    /// The position of a byte offset (clamped to the file): the inverse of `offset(of:)`. Columns
    /// count the characters that start before the offset, so an offset inside a character is
    /// the column after it.
    public func mark(at offset: Int) -> Mark {
        let offset = max(lines[0].start, min(offset, bytes.count))
        let lo = lineIndex(containing: offset)
        let end = min(offset, lines[lo].end)
        if lines[lo].ascii { return Mark(line: lo + 1, column: end - lines[lo].start + 1) }
        var column = 1
        var i = lines[lo].start
        while i < end {
            if bytes[i] & 0xC0 != 0x80 { column += 1 }
            i += 1
        }
        return Mark(line: lo + 1, column: column)
    }

    // MARK: an editor's columns

    /// The UTF-16 code units of the characters that start in `bytes[range]`: one for each lead
    /// byte, two for a four-byte sequence (a surrogate pair). The Language Server Protocol's
    /// columns by default; its UTF-8 columns are byte offsets.
    public static func utf16Count(_ bytes: [UInt8], _ range: Range<Int>) -> Int {
        var units = 0
        for i in range {
            let c = bytes[i]
            if c & 0xC0 != 0x80 { units += c >= 0xF0 ? 2 : 1 }
        }
        return units
    }

    /// The offset in `range` after as many whole characters as fit in `units` UTF-16 code units
    /// (a column inside a surrogate pair stands at its character). A character is a lead byte
    /// and the continuation bytes after it, as `offset(of:)` steps.
    public static func offset(afterUTF16 units: Int, in bytes: [UInt8], _ range: Range<Int>) -> Int {
        var used = 0
        var i = range.lowerBound
        while i < range.upperBound {
            let width = bytes[i] >= 0xF0 ? 2 : 1
            if used + width > units { break }
            used += width
            i += 1
            while i < range.upperBound, bytes[i] & 0xC0 == 0x80 { i += 1 }
        }
        return i
    }

    /// The start of the character that holds `offset` (an offset inside a UTF-8 sequence stands
    /// at its lead byte), not before `lower`.
    public static func characterStart(_ offset: Int, in bytes: [UInt8], notBefore lower: Int) -> Int {
        var i = offset
        while i > lower && i < bytes.count && bytes[i] & 0xC0 == 0x80 { i -= 1 }
        return i
    }

    /// Where line `n` (1-based) starts and ends in `bytes`, its line break left out.
    public func bounds(ofLine n: Int) -> (start: Int, end: Int)? {
        guard n >= 1, n <= lines.count else { return nil }
        return (lines[n - 1].start, lines[n - 1].end)
    }

    /// The text of line `n` without its line break (nil when there is no such line).
    public func line(_ n: Int) -> String? {
        guard n >= 1, n <= lines.count else { return nil }
        return String(decoding: bytes[lines[n - 1].start..<lines[n - 1].end], as: UTF8.self)
    }

    /// The text from one position up to another, when both are positions of the file.
    public func text(_ span: Span) -> String? {
        guard let a = offset(of: span.start), let b = offset(of: span.end), a <= b else { return nil }
        return String(decoding: bytes[a..<b], as: UTF8.self)
    }

    /// The byte at `mark`, if there is one on its line.
    package func byte(at mark: Mark) -> UInt8? {
        guard let i = offset(of: mark), i < lines[mark.line - 1].end else { return nil }
        return bytes[i]
    }

    /// Whether only spaces stand before `mark` on its line (a key that starts its line).
    package func startsItsLine(_ mark: Mark) -> Bool {
        guard let i = offset(of: mark) else { return false }
        return bytes[lines[mark.line - 1].start..<i].allSatisfy { $0 == 0x20 }
    }
}
