/// The lines of a text and the columns in them: the one place policyc splits text into lines and
/// counts columns. Everything goes through byte offsets, which mean the same to every reader.
///
/// Positions policyc reports (`Mark`: 1-based line, column in Unicode scalars) use the editor's
/// lines, as the Language Server Protocol and every editor count them (issue 48). libyaml also
/// breaks lines at NEL, LS and PS; its marks are read with a `.yaml` index and converted by byte
/// offset (see `EventSource`). In a file (`.editor` and `.yaml` breaks) a byte order mark is not
/// text: line 1 and scalar columns, ours as libyaml's, start after it; the protocol's UTF-8 and
/// UTF-16 columns count it, as an editor holding the bytes does. Diffs and generated comments
/// show every character, U+FEFF too. A scalar starts at each byte that does not continue one (10xxxxxx), so columns are
/// defined for any bytes, valid UTF-8 or not.
public struct LineIndex: Sendable {
    /// Which characters end a line.
    public enum Breaks: Sendable {
        /// LF only (a CR before it is part of the line): diffs, as `diff` and `git apply` read them.
        case lineFeed
        /// LF, CR and CRLF: the Language Server Protocol's, every editor's, and every position policyc reports.
        case editor
        /// Also NEL (U+0085), LS (U+2028) and PS (U+2029): libyaml's marks.
        case yaml
        /// Also VT and FF: every mandatory break of Unicode, none of which a line of a generated comment may hold.
        case unicode
    }

    /// What a column counts.
    public enum Unit: Sendable {
        case utf8, utf16, scalars
    }

    public let bytes: [UInt8]
    public let breaks: Breaks
    /// Where the text starts: 3 after a file's byte order mark, else 0.
    public let textStart: Int
    /// Where each line starts, its break included in the line before; the first is 0.
    private var starts: [Int] = [0]
    /// How many scalars start before each block of `blockSize` bytes, so that a column far along
    /// a long line (a hostile file is one line of 1 MiB) is counted from its block, not its line.
    private var scalarsBefore: [Int] = []
    private static let blockSize = 64

    public init(_ bytes: [UInt8], breaks: Breaks = .editor) {
        self.bytes = bytes
        self.breaks = breaks
        textStart = (breaks == .editor || breaks == .yaml) && bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        var i = 0
        while i < bytes.count {
            // Most bytes start no break of any rule: only LF, VT, FF, CR and the lead bytes of
            // NEL, LS and PS are looked at further.
            let byte = bytes[i]
            let width = (byte >= 0x0A && byte <= 0x0D) || byte == 0xC2 || byte == 0xE2 ? Self.breakWidth(bytes, at: i, breaks) : 0
            if width > 0 {
                i += width
                starts.append(i)
            } else {
                i += 1
            }
        }
        var count = 0
        scalarsBefore.reserveCapacity(bytes.count / Self.blockSize + 1)
        for start in stride(from: 0, through: bytes.count, by: Self.blockSize) {
            scalarsBefore.append(count)
            for byte in bytes[start..<min(start + Self.blockSize, bytes.count)] where !Self.continues(byte) { count += 1 }
        }
    }

    public init(_ text: String, breaks: Breaks = .editor) {
        self.init(Array(text.utf8), breaks: breaks)
    }

    /// The width of the line break that starts at `i` (0 when none does).
    static func breakWidth(_ bytes: [UInt8], at i: Int, _ breaks: Breaks) -> Int {
        let next = i + 1 < bytes.count ? bytes[i + 1] : 0
        switch bytes[i] {
        case 0x0A: return 1
        case 0x0D: return breaks == .lineFeed ? 0 : next == 0x0A ? 2 : 1
        case 0x0B, 0x0C: return breaks == .unicode ? 1 : 0
        case 0xC2 where next == 0x85: return breaks == .yaml || breaks == .unicode ? 2 : 0
        case 0xE2 where next == 0x80 && i + 2 < bytes.count && (bytes[i + 2] == 0xA8 || bytes[i + 2] == 0xA9):
            return breaks == .yaml || breaks == .unicode ? 3 : 0
        default: return 0
        }
    }

    /// Whether `byte` continues a UTF-8 sequence rather than starting a scalar.
    static func continues(_ byte: UInt8) -> Bool { byte & 0xC0 == 0x80 }

    // MARK: lines (numbered from 1, as marks are)

    /// How many lines the text has; a text that ends with a line break has an empty last line.
    public var lineCount: Int { starts.count }

    /// Line `number`'s text, its break left out (line 1 after a byte order mark); nil when the
    /// text has no such line.
    public func range(ofLine number: Int) -> Range<Int>? {
        guard number >= 1, number <= starts.count else { return nil }
        let start = number == 1 ? textStart : starts[number - 1]
        guard number < starts.count else { return start..<bytes.count }
        let next = starts[number]
        return start..<max(start, next - breakWidth(endingAt: next))
    }

    /// Line `number` with its line break.
    public func rangeWithBreak(ofLine number: Int) -> Range<Int>? {
        guard let text = range(ofLine: number) else { return nil }
        return text.lowerBound..<(number < starts.count ? starts[number] : bytes.count)
    }

    /// The width of the break that ends just before `end`, a line's start.
    private func breakWidth(endingAt end: Int) -> Int {
        let last = bytes[end - 1]
        let before = end >= 2 ? bytes[end - 2] : 0
        switch last {
        case 0x0A: return breaks != .lineFeed && before == 0x0D ? 2 : 1
        case 0x85: return 2
        case 0xA8, 0xA9: return 3
        default: return 1  // CR, VT, FF
        }
    }

    /// Line `number`'s text (nil when there is no such line).
    public func text(ofLine number: Int) -> String? {
        range(ofLine: number).map { String(decoding: bytes[$0], as: UTF8.self) }
    }

    /// Every line's text, breaks left out.
    public var lineTexts: [String] {
        (1...lineCount).map { text(ofLine: $0)! }
    }

    /// The number of the line that holds byte `offset` (line 1 for an offset before the text,
    /// the last line for one past it).
    public func lineNumber(containing offset: Int) -> Int {
        var lo = 0, hi = starts.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if starts[mid] <= offset { lo = mid } else { hi = mid - 1 }
        }
        return lo + 1
    }

    /// The first line break of the text (LF when it has none): what inserted lines end with.
    public var firstLineBreak: String {
        guard let line = rangeWithBreak(ofLine: 1), let text = range(ofLine: 1), line.upperBound > text.upperBound else { return "\n" }
        return String(decoding: bytes[text.upperBound..<line.upperBound], as: UTF8.self)
    }

    /// Whether the last line is empty: the text ends with a line break (or is empty).
    public var endsWithLineBreak: Bool { range(ofLine: lineCount)!.isEmpty }

    // MARK: columns

    /// Where columns in `unit` count from on line `number`: scalars after a byte order mark.
    private func columnStart(ofLine number: Int, _ unit: Unit) -> Int {
        unit == .scalars || number > 1 ? range(ofLine: number)!.lowerBound : 0
    }

    /// The column (0-based, in `unit`) of byte `offset` on its line: the characters that start
    /// on the line before it (an offset inside a character stands after it; one past the line's
    /// end, at its end). The offset is clamped to the text.
    public func column(at offset: Int, in unit: Unit) -> Int {
        let offset = max(0, min(offset, bytes.count))
        let number = lineNumber(containing: offset)
        let start = columnStart(ofLine: number, unit)
        let end = max(start, min(offset, range(ofLine: number)!.upperBound))
        switch unit {
        case .utf8: return end - start
        case .scalars: return scalars(before: end) - scalars(before: start)
        case .utf16:
            var units = 0
            for byte in bytes[start..<end] where !Self.continues(byte) {
                units += byte >= 0xF0 ? 2 : 1  // four bytes: a surrogate pair
            }
            return units
        }
    }

    /// The byte offset `units` into line `number`, clamped as the protocol says: a column past
    /// the line's end stands at its end, a line past the last at the end of the text, a line
    /// before the first at its start; a column inside a character (the middle of a surrogate
    /// pair or of a UTF-8 sequence) at that character.
    public func offset(ofLine number: Int, units: Int, in unit: Unit) -> Int {
        guard number >= 1 else { return columnStart(ofLine: 1, unit) }
        guard let line = range(ofLine: number) else { return bytes.count }
        let start = columnStart(ofLine: number, unit), end = line.upperBound
        let units = max(0, units)
        switch unit {
        case .scalars:
            return offset(afterScalars: units, from: start, end: end) ?? end
        case .utf8:
            // Compared before adding: a column of Int.max must not overflow.
            var i = units >= end - start ? end : start + units
            while i > start && i < end && Self.continues(bytes[i]) { i -= 1 }
            return i
        case .utf16:
            var used = 0, i = start
            while i < end {
                let width = bytes[i] >= 0xF0 ? 2 : 1
                if used + width > units { break }
                used += width
                i += 1
                while i < end, Self.continues(bytes[i]) { i += 1 }
            }
            return i
        }
    }

    /// How many scalars start before `offset` (at most the text's size).
    private func scalars(before offset: Int) -> Int {
        let block = offset / Self.blockSize
        var count = scalarsBefore[block]
        var i = block * Self.blockSize
        while i < offset {
            if !Self.continues(bytes[i]) { count += 1 }
            i += 1
        }
        return count
    }

    /// The offset `count` scalars after `start` (where a character starts) on a line that ends at
    /// `end`; nil when the line has fewer.
    private func offset(afterScalars count: Int, from start: Int, end: Int) -> Int? {
        // A scalar is a byte at least; compared before adding, so that Int.max cannot overflow.
        guard count <= end - start else { return nil }
        let wanted = scalars(before: start) + count
        // The last block, not past the line's end, before which no more than `wanted` scalars start.
        var lo = 0, hi = min(scalarsBefore.count - 1, end / Self.blockSize)
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if scalarsBefore[mid] <= wanted { lo = mid } else { hi = mid - 1 }
        }
        var i = start, seen = wanted - count
        if lo * Self.blockSize > start {
            i = lo * Self.blockSize
            seen = scalarsBefore[lo]
            // The rest of a character that started in the block before.
            while i < end, Self.continues(bytes[i]) { i += 1 }
        }
        while seen < wanted {
            guard i < end else { return nil }
            i += 1
            while i < end, Self.continues(bytes[i]) { i += 1 }
            seen += 1
        }
        return i
    }

    // MARK: marks

    /// The mark of a byte offset (clamped to the text): the inverse of `offset(of:)`.
    public func mark(at offset: Int) -> Mark {
        let offset = max(textStart, min(offset, bytes.count))
        return Mark(line: lineNumber(containing: offset), column: column(at: offset, in: .scalars) + 1)
    }

    /// The byte offset of `mark`; nil when the text has no such position. The end of a line
    /// (one column past its last character) is a position.
    public func offset(of mark: Mark) -> Int? {
        guard mark.column >= 1, let line = range(ofLine: mark.line) else { return nil }
        return offset(afterScalars: mark.column - 1, from: line.lowerBound, end: line.upperBound)
    }

    /// The byte offset of `mark`, clamped as `offset(ofLine:units:in:)` clamps.
    public func clampedOffset(of mark: Mark) -> Int {
        offset(ofLine: mark.line, units: mark.column - 1, in: .scalars)
    }

    /// The text from one position up to another, when both are positions of the text.
    public func text(_ span: Span) -> String? {
        guard let a = offset(of: span.start), let b = offset(of: span.end), a <= b else { return nil }
        return String(decoding: bytes[a..<b], as: UTF8.self)
    }

    /// The byte at `mark`, if there is one on its line.
    package func byte(at mark: Mark) -> UInt8? {
        guard let i = offset(of: mark), i < range(ofLine: mark.line)!.upperBound else { return nil }
        return bytes[i]
    }

    /// Whether only spaces stand before `mark` on its line (a key that starts its line).
    package func startsItsLine(_ mark: Mark) -> Bool {
        guard let i = offset(of: mark) else { return false }
        return bytes[range(ofLine: mark.line)!.lowerBound..<i].allSatisfy { $0 == 0x20 }
    }
}
