/// What to do about the two YAML errors that bad indentation gives: a tab that indents a line
/// (a safe fix: spaces at the column its siblings start at), and a key indented deeper than the
/// line above it, which libyaml reads as more of that line's value ("mapping values are not
/// allowed in this context"): which column the key should start at.
enum IndentationAdvice {
    /// Files with more tab-indented lines than this get the help only: the fix's edits would be
    /// larger than the file's report is allowed to be.
    static let maxTabLines = 1000

    /// One line as indentation sees it (made when needed: a file may have half a million).
    struct Line {
        /// Bytes of leading spaces and tabs.
        var lead: Int
        var hasTab: Bool
        /// Neither blank nor only a comment: part of the structure.
        var isContent: Bool
        /// Starts with `- `: a list item, whose key (if any) starts two columns further.
        var isDash: Bool
        /// Ends with `:` (comments aside): its value is the block below it.
        var opens: Bool
        /// Where the text after the indentation starts and the text before a comment ends.
        var body: Range<Int>

        /// The column (0-based) its key starts at.
        var keyColumn: Int { lead + (isDash ? 2 : 0) }
    }

    static func line(_ text: LineIndex, _ n: Int) -> Line {
        guard let range = text.range(ofLine: n) else {
            return Line(lead: 0, hasTab: false, isContent: false, isDash: false, opens: false, body: 0..<0)
        }
        let bytes = text.bytes
        let (start, end) = (range.lowerBound, range.upperBound)
        var i = start
        var hasTab = false
        while i < end, bytes[i] == 0x20 || bytes[i] == 0x09 {
            if bytes[i] == 0x09 { hasTab = true }
            i += 1
        }
        guard i < end, bytes[i] != 0x23 else {
            return Line(lead: i - start, hasTab: hasTab, isContent: false, isDash: false, opens: false, body: i..<i)
        }
        let isDash = bytes[i] == 0x2D && (i + 1 == end || bytes[i + 1] == 0x20)
        // Up to a comment (` #`), trailing blanks dropped.
        var stop = end
        var k = i + 1
        while k < end {
            if bytes[k] == 0x23 && (bytes[k - 1] == 0x20 || bytes[k - 1] == 0x09) {
                stop = k
                break
            }
            k += 1
        }
        while stop > i, bytes[stop - 1] == 0x20 || bytes[stop - 1] == 0x09 { stop -= 1 }
        return Line(lead: i - start, hasTab: hasTab, isContent: true, isDash: isDash, opens: bytes[stop - 1] == 0x3A, body: i..<stop)
    }

    /// The key a line starts with (`kind` of `kind: interactive`), shortened for a message.
    static func keyText(_ text: LineIndex, _ line: Line) -> String? {
        let bytes = text.bytes
        var i = line.body.lowerBound + (line.isDash ? min(2, line.body.count) : 0)
        let start = i
        while i < line.body.upperBound {
            if bytes[i] == 0x3A && (i + 1 == line.body.upperBound || bytes[i + 1] == 0x20) {
                return i > start ? excerpt(String(decoding: bytes[start..<i], as: UTF8.self)) : nil
            }
            i += 1
        }
        return nil
    }

    // MARK: tabs

    /// Spaces in place of the leading whitespace of every line that a tab indents, each at the
    /// column its siblings start at, when the result is well-formed YAML (else nil: the help
    /// alone). A line of nothing but blanks and a tab loses them. `first` is the line libyaml
    /// stopped at; its column (1-based) comes back too, and whether it is such a blank line.
    static func tabFix(_ text: LineIndex, first: Int) -> (fix: Fix, column: Int, blank: Bool)? {
        // From the end: the next content line no tab indents, for each line a tab indents (where
        // the block goes on), and how many there are.
        var next: [Int: Line] = [:]
        var following: Line?
        var count = 0
        for n in stride(from: text.lineCount, through: 1, by: -1) {
            let l = line(text, n)
            guard l.isContent else { continue }
            if l.hasTab {
                count += 1
                guard count <= maxTabLines else { return nil }
                next[n] = following
            } else {
                following = l
            }
        }
        var tabbed: [(n: Int, line: Line, column: Int)] = []
        // The columns (0-based) a line may start at to be a sibling of a line above: the path to
        // the last content line, each with whether it is a list item's dash.
        var path: [(column: Int, dash: Bool)] = []
        var last: Line?
        var blanks: [(n: Int, line: Line)] = []
        for n in 1...text.lineCount {
            var l = line(text, n)
            guard l.isContent else {
                // Blanks and a tab, and nothing else: the blanks go.
                if l.hasTab, l.body.lowerBound == text.range(ofLine: n)?.upperBound, blanks.count < maxTabLines { blanks.append((n, l)) }
                continue
            }
            if l.hasTab {
                let column = column(for: l, after: last, path: path, next: next[n])
                tabbed.append((n, l, column))
                l.lead = column
            }
            while let top = path.last, top.column >= l.lead { path.removeLast() }
            path.append((l.lead, l.isDash))
            if l.isDash { path.append((l.keyColumn, false)) }
            last = l
        }
        let blank = blanks.contains { $0.n == first }
        let own = tabbed.first(where: { $0.n == first })
        guard own != nil || blank else { return nil }
        // In line order: the edits of a fix never overlap and are applied front to back.
        let edits = (tabbed.map { ($0.n, $0.line.lead, $0.column) } + blanks.map { ($0.n, $0.line.lead, 0) })
            .sorted { $0.0 < $1.0 }
            .map { n, lead, column in
                TextEdit(Span(start: Mark(line: n, column: 1), end: Mark(line: n, column: lead + 1)), String(repeating: " ", count: column))
            }
        guard let fixed = applied(edits, to: text), EventSource.isWellFormed(fixed) else { return nil }
        let description: String
        if let own, tabbed.count == 1, blanks.isEmpty {
            description = "indent with \(own.column) \(own.column == 1 ? "space" : "spaces") instead of the tab"
        } else if tabbed.isEmpty {
            description = blanks.count == 1 ? "delete the tab of the blank line" : "delete the tabs of the \(blanks.count) blank lines"
        } else {
            description = "indent the \(tabbed.count) \(tabbed.count == 1 ? "line" : "lines") a tab indents with spaces, each as its siblings"
                + (blanks.isEmpty ? "" : ", and clear \(Wording.count(blanks.count, "blank line"))")
        }
        return (Fix(.safe, description, edits: edits), (own?.column ?? 0) + 1, blank)
    }

    /// Where a tab-indented line starts, from the line above (`last`), the path to it, and the
    /// next line no tab indents.
    static func column(for line: Line, after last: Line?, path: [(column: Int, dash: Bool)], next: Line?) -> Int {
        guard let last else { return 0 }
        let inner = next?.lead ?? -1
        if last.opens {
            // The first line of the block the line above opens.
            let child = last.keyColumn + 2
            if line.isDash {
                // Its key stands where the next line's does, when that is a key of the same item.
                if let next, !next.isDash, next.lead - 2 > last.keyColumn { return next.lead - 2 }
                if let next, next.isDash, next.lead > last.keyColumn { return next.lead }
                return child
            }
            // A line that opens a block of its own has the next line as its child.
            if inner > last.keyColumn { return line.opens && inner > child ? child : inner }
            return child
        }
        if line.isDash, let dash = path.last(where: \.dash) { return dash.column }
        // A sibling of the line above or of a line on its path: when this line opens a block, the
        // deepest the next line can be a child of; else the line above's.
        if line.opens, inner >= 0, let parent = path.last(where: { $0.column < inner && !$0.dash }) {
            return parent.column
        }
        return last.keyColumn
    }

    static func applied(_ edits: [TextEdit], to text: LineIndex) -> [UInt8]? {
        var out: [UInt8] = []
        out.reserveCapacity(text.bytes.count)
        var at = 0
        for edit in edits {
            guard let lower = text.offset(of: edit.span.start), let upper = text.offset(of: edit.span.end), lower >= at else { return nil }
            out += text.bytes[at..<lower]
            out += Array(edit.text.utf8)
            at = upper
        }
        out += text.bytes[at...]
        return out
    }

    // MARK: a key indented deeper than the line above

    /// For libyaml's "mapping values are not allowed" at `at`: the key of that line and of the
    /// line above it, and which of the two is out of line with its neighbours, in words.
    static func deeperKeyHelp(_ text: LineIndex, at: Mark) -> String? {
        guard at.line >= 2, at.line <= text.lineCount else { return nil }
        let here = line(text, at.line)
        guard here.isContent, !here.isDash, !here.hasTab, let name = keyText(text, here) else { return nil }
        // The content line whose value this one continued, and the one above that (a few lines
        // up at most: past them the guess is worth nothing).
        func content(before n: Int) -> (n: Int, line: Line)? {
            var k = n - 1
            while k >= 1 && k > n - 50 {
                let l = line(text, k)
                if l.isContent { return (k, l) }
                k -= 1
            }
            return nil
        }
        guard let above = content(before: at.line), !above.line.opens, !above.line.hasTab,
              let aboveKey = keyText(text, above.line) else { return nil }
        let column = here.keyColumn + 1, aboveColumn = above.line.keyColumn + 1
        guard column > aboveColumn else { return nil }
        if let before = content(before: above.n), !before.line.opens, before.line.keyColumn + 1 == column,
           let beforeKey = keyText(text, before.line) {
            // The line above is the odd one: both its neighbours start further in.
            return "start '\(aboveKey)' on line \(above.n) at column \(column), as '\(beforeKey)' on line \(before.n) "
                + "and '\(name)' below it do: at column \(aboveColumn) it ends their mapping, and '\(name)' reads as more of its value"
        }
        return "start '\(name)' at column \(aboveColumn), as '\(aboveKey)' on line \(above.n): "
            + "at column \(column) it reads as more of the value of '\(aboveKey)'"
    }

    // MARK: a key between two columns

    /// For libyaml's "did not find expected key" at a key that starts between the columns of two
    /// mappings it could belong to: both columns, each with a key that starts there.
    static func betweenColumnsHelp(_ text: LineIndex, at: Mark) -> String? {
        guard at.line >= 2, at.line <= text.lineCount else { return nil }
        let here = line(text, at.line)
        guard here.isContent, !here.hasTab, !here.isDash, here.lead + 1 == at.column, let name = keyText(text, here) else { return nil }
        // The columns the lines above leave open (a key's, a list item's dash and its key), the
        // outermost first, each with the line that opened it.
        var path: [(column: Int, n: Int, line: Line)] = []
        for n in 1..<at.line {
            let l = line(text, n)
            guard l.isContent, !l.hasTab else { continue }
            while let top = path.last, top.column >= l.lead { path.removeLast() }
            path.append((l.lead, n, l))
            if l.isDash { path.append((l.keyColumn, n, l)) }
        }
        guard let lower = path.last(where: { $0.column < here.lead }), let higher = path.first(where: { $0.column > here.lead }) else {
            return nil
        }
        func described(_ open: (column: Int, n: Int, line: Line)) -> String {
            "column \(open.column + 1) (as '\(keyText(text, open.line) ?? "-")', line \(open.n))"
        }
        return "'\(name)' starts at column \(here.lead + 1), between two mappings: start it at \(described(higher)) "
            + "to stay in the mapping above it, or at \(described(lower)) for the mapping around that one"
    }
}
