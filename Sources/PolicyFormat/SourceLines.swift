import PolicySource

/// The file's lines as libyaml's marks count them (editor lines, columns in Unicode scalars), and
/// the comments in them: libyaml drops comments, so they are found here, outside every scalar.
struct SourceLines {
    /// Line `n` is `lines[n - 1]`, its break left out.
    let lines: [[Unicode.Scalar]]

    init(_ bytes: [UInt8]) {
        let index = LineIndex(bytes)
        lines = (1...index.lineCount).map { Array(String(decoding: bytes[index.range(ofLine: $0)!], as: UTF8.self).unicodeScalars) }
    }

    var count: Int { lines.count }

    func line(_ n: Int) -> [Unicode.Scalar] {
        n >= 1 && n <= lines.count ? lines[n - 1] : []
    }

    func isBlank(_ n: Int) -> Bool {
        n >= 1 && n <= lines.count && lines[n - 1].allSatisfy(Self.isSpace)
    }

    /// The scalar at `mark`, if the line has one there.
    func character(at mark: Mark) -> Unicode.Scalar? {
        let text = line(mark.line)
        return mark.column >= 1 && mark.column <= text.count ? text[mark.column - 1] : nil
    }

    /// The text from `start` up to `end` on one line, or to the line's end when `end` is on a later one.
    func text(from start: Mark, to end: Mark) -> String {
        let text = line(start.line)
        let from = min(max(start.column - 1, 0), text.count)
        let upTo = end.line == start.line ? min(max(end.column - 1, from), text.count) : text.count
        return Self.string(text[from..<upTo])
    }

    /// Line `n` without the spaces and tabs around it.
    func trimmed(_ n: Int) -> String {
        Self.string(Self.trimming(line(n)[...]))
    }

    static func isSpace(_ c: Unicode.Scalar) -> Bool { c == " " || c == "\t" }

    static func trimming(_ s: ArraySlice<Unicode.Scalar>) -> ArraySlice<Unicode.Scalar> {
        var s = s
        while let first = s.first, isSpace(first) { s = s.dropFirst() }
        while let last = s.last, isSpace(last) { s = s.dropLast() }
        return s
    }

    static func string(_ s: ArraySlice<Unicode.Scalar>) -> String {
        var out = String.UnicodeScalarView()
        out.append(contentsOf: s)
        return String(out)
    }
}

/// A `#` comment: where it starts and its text from the `#` on, trailing spaces left out.
struct Comment {
    var line: Int
    var column: Int
    var text: String
    /// Nothing but spaces before it on its line.
    var ownLine: Bool
}

/// The columns of each line that scalars cover, where a `#` is text and not a comment.
struct ScalarMask {
    private var ranges: [Int: [Range<Int>]] = [:]

    init(_ root: Node?, source: SourceLines) {
        guard let root else { return }
        add(root, source)
    }

    private mutating func add(_ node: Node, _ source: SourceLines) {
        switch node.kind {
        case .scalar(_, let style) where style == .literal || style == .folded:
            // The header's indicators, then every line of the text.
            let start = node.span.start
            var column = start.column
            while let c = source.character(at: Mark(line: start.line, column: column)), "|>+-0123456789".unicodeScalars.contains(c) {
                column += 1
            }
            cover(start, Mark(line: start.line, column: column))
            if node.span.end.line > start.line { cover(Mark(line: start.line + 1, column: 1), node.span.end) }
        case .scalar:
            cover(node.span.start, node.span.end)
        case .mapping(let entries):
            for entry in entries {
                cover(entry.keySpan.start, entry.keySpan.end)
                add(entry.value, source)
            }
        case .sequence(let items):
            for item in items { add(item, source) }
        case .reported:
            break
        }
    }

    private mutating func cover(_ start: Mark, _ end: Mark) {
        guard start < end else { return }
        if start.line == end.line {
            ranges[start.line, default: []].append(start.column..<end.column)
            return
        }
        ranges[start.line, default: []].append(start.column..<Int.max)
        for line in (start.line + 1)..<end.line { ranges[line] = [1..<Int.max] }
        ranges[end.line, default: []].append(1..<end.column)
    }

    func covers(line: Int, column: Int) -> Bool {
        ranges[line]?.contains { $0.contains(column) } ?? false
    }

    /// Every comment of the file: a `#` outside the scalars, at a line's start or after a space.
    func comments(in source: SourceLines) -> [Comment] {
        var found: [Comment] = []
        for (i, text) in source.lines.enumerated() where text.contains("#") {
            let line = i + 1
            for (j, c) in text.enumerated() where c == "#" && (j == 0 || SourceLines.isSpace(text[j - 1])) {
                guard !covers(line: line, column: j + 1) else { continue }
                found.append(Comment(line: line, column: j + 1, text: SourceLines.string(SourceLines.trimming(text[j...])),
                                     ownLine: text[..<j].allSatisfy(SourceLines.isSpace)))
                break
            }
        }
        return found
    }
}
