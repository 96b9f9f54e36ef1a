import PolicySource

/// Turns a correction ("this value becomes 5s", "append 503 to this list", "add this section")
/// into text edits of one file, in the file's own layout: flow or block style, its indentation, its
/// line breaks, quotes kept around a replaced value. Each function answers nil when it cannot be
/// sure of the text (a block scalar, a list written in a way it does not know): then there is no fix.
/// Made only when a finding has a fix, from the file's bytes and the loader's tree.
public struct FixEditor: Sendable {
    public let text: LineIndex
    public let root: Node?

    public init(_ bytes: [UInt8], root: Node?) {
        self.init(LineIndex(bytes), root: root)
    }

    public init(_ text: LineIndex, root: Node?) {
        self.text = text
        self.root = root
    }

    /// The editor of the file `source` indexes (none: an empty file).
    init(_ source: LineIndex?, root: Node?) {
        self.init(source ?? LineIndex([UInt8]()), root: root)
    }

    // MARK: values

    /// Replaces a scalar's value, inside its quotes when it is quoted. A single-line scalar only.
    public func replaceValue(_ span: Span, with value: String) -> [TextEdit]? {
        guard span.start.line == span.end.line, span.end.column > span.start.column,
              let first = text.byte(at: span.start) else { return nil }
        if first == UInt8(ascii: "\"") || first == UInt8(ascii: "'") {
            // Inside the quotes, when the value needs no escaping in them.
            guard span.end.column - span.start.column >= 2,
                  !value.contains(where: { $0 == "\"" || $0 == "'" || $0 == "\\" }) else { return nil }
            return [TextEdit(Span(start: Mark(line: span.start.line, column: span.start.column + 1),
                                  end: Mark(line: span.end.line, column: span.end.column - 1)), value)]
        }
        return replace(span, with: value)
    }

    /// Replaces a single-line scalar's whole text, quotes and all.
    public func replace(_ span: Span, with value: String) -> [TextEdit]? {
        guard span.start.line == span.end.line, span.end.column > span.start.column,
              let first = text.byte(at: span.start),
              first != UInt8(ascii: "|"), first != UInt8(ascii: ">") else { return nil }
        return [TextEdit(span, value)]
    }

    // MARK: finding nodes

    /// The node at a path of keys from the root (`["retry", "retryOn"]`).
    public func node(at path: [String]) -> Node? {
        var node = root
        for key in path {
            guard case .mapping(let entries)? = node?.kind, let entry = entries.last(where: { sameText($0.key, key) }) else { return nil }
            node = entry.value
        }
        return node
    }

    /// Whether a collection is written in flow style (`[a, b]`, `{a: 1}`).
    func isFlow(_ node: Node) -> Bool {
        let b = text.byte(at: node.span.start)
        return b == UInt8(ascii: "[") || b == UInt8(ascii: "{")
    }

    /// The last line that holds a node's own text. A block collection ends where the next token
    /// starts (lines later, past blank lines and comments), so it is asked of its last child.
    func lastLine(of node: Node) -> Int {
        switch node.kind {
        case .mapping(let entries) where !isFlow(node):
            guard let last = entries.last else { return node.span.end.line }
            return max(last.keySpan.end.line, lastLine(of: last.value))
        case .sequence(let items) where !isFlow(node):
            guard let last = items.last else { return node.span.end.line }
            return lastLine(of: last)
        case .scalar(_, let style) where style == .literal || style == .folded:
            // A block scalar ends at the start of the line after it.
            return node.span.end.column == 1 && node.span.end.line > node.span.start.line
                ? node.span.end.line - 1 : node.span.end.line
        default:
            return node.span.end.line
        }
    }

    /// Inserts whole lines after line `n`: each ends with the file's line break, and at the end of
    /// a file without a last line break the break goes first.
    func insertLines(_ lines: [String], after n: Int) -> [TextEdit] {
        let eol = text.firstLineBreak
        if n < text.lineCount {
            let at = Mark(line: n + 1, column: 1)
            return [TextEdit(Span(at), lines.map { $0 + eol }.joined())]
        }
        let end = text.mark(at: text.bytes.count)
        return [TextEdit(Span(end), lines.map { eol + $0 }.joined())]
    }

    // MARK: lists

    /// Appends items to a list: each `flow` text in a flow list (`[a, b]` → `[a, b, c]`), each
    /// `block` (its lines, the first after the `- `) in a block list, on lines of their own below
    /// the last item. One edit for all of them, so they cannot be split or reordered.
    public func appendItems(_ new: [(flow: String, block: [String])], to list: Node) -> [TextEdit]? {
        guard case .sequence(let items) = list.kind, !new.isEmpty, new.allSatisfy({ !$0.block.isEmpty }) else { return nil }
        if isFlow(list) {
            let joined = new.map(\.flow).joined(separator: ", ")
            if let last = items.last {
                // Right after the last item: a list that spans lines keeps its closing bracket's line.
                return [TextEdit(Span(last.span.end), ", " + joined)]
            }
            let close = Mark(line: list.span.end.line, column: list.span.end.column - 1)
            guard text.byte(at: close) == UInt8(ascii: "]") else { return nil }
            return [TextEdit(Span(close), joined)]
        }
        guard let last = items.last, text.byte(at: list.span.start) == UInt8(ascii: "-") else { return nil }
        let indent = String.spaces(list.span.start.column - 1)
        let lines = new.flatMap { item in
            ["\(indent)- \(item.block[0])"] + item.block.dropFirst().map { "\(indent)  \($0)" }
        }
        return insertLines(lines, after: lastLine(of: last))
    }

    /// Removes the item at `index`: with its comma from a flow list, its lines from a block list.
    /// Nil for the only item of a block list (the key would be left without a value).
    public func removeItem(at index: Int, of list: Node) -> [TextEdit]? {
        guard case .sequence(let items) = list.kind, items.indices.contains(index) else { return nil }
        let item = items[index]
        if isFlow(list) {
            if items.count == 1 { return [TextEdit(item.span, "")] }
            if index + 1 < items.count {
                return [TextEdit(Span(start: item.span.start, end: items[index + 1].span.start), "")]
            }
            return [TextEdit(Span(start: items[index - 1].span.end, end: item.span.end), "")]
        }
        guard items.count > 1 else { return nil }
        // The item's `- ` stands first on its line, in the list's column.
        let dash = Mark(line: item.span.start.line, column: list.span.start.column)
        guard text.byte(at: dash) == UInt8(ascii: "-"), text.startsItsLine(dash) else { return nil }
        let last = lastLine(of: item)
        if last < text.lineCount {
            return [TextEdit(Span(start: Mark(line: dash.line, column: 1), end: Mark(line: last + 1, column: 1)), "")]
        }
        // The last line of a file without a last line break: the break before it goes with it.
        guard dash.line > 1, let previous = text.range(ofLine: dash.line - 1) else { return nil }
        let start = text.mark(at: previous.upperBound)
        return [TextEdit(Span(start: start, end: text.mark(at: text.bytes.count)), "")]
    }

    // MARK: mappings

    /// Inserts the entry `key` into a mapping: in a block mapping its `lines` (the key's line first,
    /// indented as from column 1), at the mapping's indentation, before the first entry that
    /// `order` puts after it, else after the last entry, set off by a blank line when `separated`
    /// (a top-level section, as the canonical policy writes them); in a flow mapping `key: flow`
    /// at its end.
    public func insertEntry(_ key: String, lines: [String], flow: String, into mapping: Node,
                            order: [String], separated: Bool = false) -> [TextEdit]? {
        guard case .mapping(let entries) = mapping.kind, !lines.isEmpty else { return nil }
        if isFlow(mapping) {
            let close = Mark(line: mapping.span.end.line, column: mapping.span.end.column - 1)
            guard text.byte(at: close) == UInt8(ascii: "}") else { return nil }
            if let last = entries.last {
                return [TextEdit(Span(max(last.keySpan.end, last.value.span.end)), ", \(key): \(flow)")]
            }
            return [TextEdit(Span(close), "\(key): \(flow)")]
        }
        guard let first = entries.first else { return nil }
        let indent = String.spaces(first.keySpan.start.column - 1)
        let indented = lines.map { $0.isEmpty ? $0 : indent + $0 }
        let rank = order.firstIndex(of: key) ?? order.count
        for entry in entries {
            guard let r = order.firstIndex(of: entry.key), r > rank, text.startsItsLine(entry.keySpan.start) else { continue }
            let block = separated ? indented + [""] : indented
            return [TextEdit(Span(Mark(line: entry.keySpan.start.line, column: 1)), block.map { $0 + text.firstLineBreak }.joined())]
        }
        return insertLines(separated ? [""] + indented : indented, after: lastLine(of: mapping))
    }

    /// Gives a key written without a value (`tickets:`, `timeout: ~`) one: `lines` (the value's
    /// lines, indented as from column 1) below the key in a block mapping, else `flow` after it.
    public func fillValue(of entry: Entry, in mapping: Node, lines: [String], flow: String) -> [TextEdit]? {
        let null = entry.value
        guard null.isNull, null.span.start.line == entry.keySpan.end.line else { return nil }
        let written = null.span.end > null.span.start
        let colon = entry.keySpan.end
        guard text.byte(at: colon) == UInt8(ascii: ":") else { return nil }
        let afterColon = Mark(line: colon.line, column: colon.column + 1)
        if lines.count == 1 || isFlow(mapping) {
            let value = lines.count == 1 ? lines[0] : flow
            return written ? [TextEdit(null.span, value)] : [TextEdit(Span(afterColon), " " + value)]
        }
        guard text.startsItsLine(entry.keySpan.start) else { return nil }
        let indent = String.spaces(entry.keySpan.start.column - 1)
        var edits = written ? [TextEdit(Span(start: afterColon, end: null.span.end), "")] : []
        edits += insertLines(lines.map { $0.isEmpty ? $0 : indent + $0 }, after: entry.keySpan.end.line)
        return edits
    }
}
