import PolicySource

/// What the loader's tree does not say and the text does: which collections are written in flow
/// style, where each list item's dash stands, and on which line a value's text ends.
struct Tree {
    let source: SourceLines

    /// A mapping entry or a list item, by where it starts: its key, or its dash.
    struct Item {
        var anchor: Mark
        var value: Node
        /// The entry's, for a mapping.
        var entry: Entry?
    }

    func isFlow(_ node: Node) -> Bool {
        let c = source.character(at: node.span.start)
        return c == "[" || c == "{"
    }

    /// A mapping or list written in block style (never empty: `{}` and `[]` are flow).
    func isBlock(_ node: Node) -> Bool {
        switch node.kind {
        case .mapping(let entries): return !entries.isEmpty && !isFlow(node)
        case .sequence(let items): return !items.isEmpty && !isFlow(node)
        default: return false
        }
    }

    /// A block collection's entries or items, in the file's order.
    func items(of node: Node) -> [Item] {
        switch node.kind {
        case .mapping(let entries):
            return entries.map { Item(anchor: $0.keySpan.start, value: $0.value, entry: $0) }
        case .sequence(let values):
            var previousEnd = node.span.start.line - 1
            return values.map { value in
                let anchor = dash(before: value, column: node.span.start.column, after: previousEnd)
                previousEnd = contentEnd(value, anchor: anchor)
                return Item(anchor: anchor, value: value)
            }
        default:
            return []
        }
    }

    /// The dash of the list item `value`: in the list's column, on the item's first line before it
    /// or on an earlier line (a `-` alone on its line, the item below).
    func dash(before value: Node, column: Int, after previousEnd: Int) -> Mark {
        var line = value.span.start.line
        while line > previousEnd {
            let text = source.line(line)
            let before = line == value.span.start.line ? value.span.start.column : Int.max
            if column < before, column <= text.count, text[column - 1] == "-" { return Mark(line: line, column: column) }
            line -= 1
        }
        return Mark(line: value.span.start.line, column: column)
    }

    /// The last line that holds the text of `value` (comments and blank lines after it left out).
    func contentEnd(_ value: Node, anchor: Mark) -> Int {
        switch value.kind {
        case .scalar(let text, let style):
            if style == .plain && text.isEmpty { return anchor.line }
            if style == .literal || style == .folded { return blockScalarEnd(value) }
            return max(value.span.end.line, anchor.line)
        case .mapping(let entries):
            guard isBlock(value), let last = entries.last else { return max(value.span.end.line, anchor.line) }
            return contentEnd(last.value, anchor: last.keySpan.start)
        case .sequence(let values):
            // The last item alone (not `items(of:)`, which finds every item's end: in nested
            // lists that doubles the work at each level).
            guard isBlock(value), let last = values.last else { return max(value.span.end.line, anchor.line) }
            return contentEnd(last, anchor: last.span.start)
        case .reported:
            return value.span.end.line
        }
    }

    /// A block scalar's last line of text: its span runs on to the next line that is not its own,
    /// over blank lines, which are text only when it keeps them (`|+`).
    func blockScalarEnd(_ value: Node) -> Int {
        let end = value.span.end
        let start = value.span.start.line
        var last = source.line(end.line).prefix(max(end.column - 1, 0)).allSatisfy(SourceLines.isSpace) ? end.line - 1 : end.line
        if !header(of: value).contains("+") {
            while last > start, source.isBlank(last) { last -= 1 }
        }
        return max(last, start)
    }

    /// A block scalar's indicators: `|`, `>-`, `|+2`.
    func header(of value: Node) -> String {
        let start = value.span.start
        var out = ""
        var column = start.column
        while let c = source.character(at: Mark(line: start.line, column: column)), "|>+-0123456789".unicodeScalars.contains(c) {
            out.unicodeScalars.append(c)
            column += 1
        }
        return out
    }
}
