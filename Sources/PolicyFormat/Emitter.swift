import PolicySource

/// The tree written out again in the canonical layout, with the comments placed beside it: two
/// spaces per level, `key: value`, the language's keys in its order and the others after them as
/// they stood, flow collections on one line, block scalars as written.
struct Emitter {
    let tree: Tree
    let placement: CommentPlacement
    var out: [OutLine] = []

    /// A block mapping or list; `isRoot` puts a blank line before each top-level section.
    mutating func collection(_ node: Node, shape: Shape?, indent: Int, isRoot: Bool = false) {
        switch node.kind {
        case .mapping(let entries):
            for (i, (entry, valueShape, known)) in Self.ordered(entries, shape).enumerated() {
                let attached = placement.items[entry.keySpan.start] ?? Attached()
                let section = isRoot && tree.isBlock(entry.value)
                item(attached, entry.value, prefix: key(entry, known: known, inFlow: false) + ":", shape: valueShape,
                     indent: indent, anchor: entry.keySpan.start, blank: i > 0 && (attached.blankBefore || section))
            }
        case .sequence:
            let itemShape = shape?.itemShape
            for (i, listItem) in tree.items(of: node).enumerated() {
                let attached = placement.items[listItem.anchor] ?? Attached()
                item(attached, listItem.value, prefix: "-", shape: itemShape, indent: indent, anchor: listItem.anchor,
                     blank: i > 0 && attached.blankBefore)
            }
        default:
            break
        }
        for footer in placement.footers[node.span.start] ?? [] {
            if footer.blankBefore { out.append(.blank) }
            out.append(.comment(indent, footer.text))
        }
    }

    /// One entry (`prefix` is its key and colon) or list item (`-`), its comments around it.
    mutating func item(_ a: Attached, _ node: Node, prefix: String, shape: Shape?, indent: Int, anchor: Mark, blank: Bool) {
        let block = tree.isBlock(node)
        if blank { out.append(.blank) }
        for (k, c) in a.leading.enumerated() {
            if k > 0 && c.blankBefore { out.append(.blank) }
            out.append(.comment(indent, c.text))
        }
        if a.blankAfterLeading { out.append(.blank) }
        // The value comes up onto the key's line: a comment the key's line had goes above when
        // the value's own last line has one too.
        if !block, a.end != nil, let keyLine = a.keyLine { out.append(.comment(indent, keyLine)) }
        for c in a.inner { out.append(.comment(indent, c)) }
        if block {
            nested(node, prefix: prefix, shape: shape, indent: indent, comment: a.keyLine)
            return
        }
        let (first, rest) = inline(node, shape: shape, indent: indent, anchor: anchor)
        var lines = [OutLine.content(indent, prefix.isEmpty ? first : first.isEmpty ? prefix : prefix + " " + first)] + rest
        let trailing = a.end ?? a.keyLine
        if Self.isBlockScalar(node) {
            lines[0].comment = trailing
        } else if let last = lines.lastIndex(where: { $0.kind == .content }) {
            lines[last].comment = trailing
        }
        out += lines
    }

    /// A block collection under `key:` (its items two spaces in) or a dash (its first line on the dash's).
    mutating func nested(_ node: Node, prefix: String, shape: Shape?, indent: Int, comment: String?) {
        guard prefix == "-" else {
            out.append(.content(indent, prefix, comment: comment))
            collection(node, shape: Self.collectionShape(shape, of: node), indent: indent + 2)
            return
        }
        if let comment { out.append(.comment(indent, comment)) }
        var inner = Emitter(tree: tree, placement: placement)
        inner.collection(node, shape: Self.collectionShape(shape, of: node), indent: indent + 2)
        // What stands before its first line (comments of its first item) goes above the dash.
        var lines = inner.out[...]
        while let first = lines.first, first.kind != .content {
            out.append(first.kind == .comment ? .comment(indent, first.text) : first)
            lines = lines.dropFirst()
        }
        guard var first = lines.first else { return }
        first.indent = indent
        first.text = "- " + first.text
        out.append(first)
        out += lines.dropFirst()
    }

    /// A key as written, or without its quotes where the language reads it (`known`) and no
    /// reader would take it for something else.
    func key(_ entry: Entry, known: Bool, inFlow: Bool) -> String {
        let span = entry.keySpan
        let quoted = tree.source.character(at: span.start).map { $0 == "\"" || $0 == "'" } ?? false
        if quoted, known && Quoting.canBePlain(entry.key, inFlow: inFlow) { return entry.key }
        if span.start.line == span.end.line { return tree.source.text(from: span.start, to: span.end) }
        // A key over lines (in a flow mapping) on one line: plain folded, or quoted.
        return !quoted && !entry.key.contains("\n") ? entry.key : Quoting.doubleQuoted(entry.key)
    }

    /// The language's keys in its order, each with its shape, then the others as they stood (no shape).
    static func ordered(_ entries: [Entry], _ shape: Shape?) -> [(Entry, Shape?, Bool)] {
        switch shape {
        case .object(let fields)?:
            let known = fields.compactMap { field in
                entries.first { sameText($0.key, field.key) }.map { ($0, Optional(field.shape), true) }
            }
            let others = entries.filter { entry in !fields.contains { sameText($0.key, entry.key) } }
            return known + others.map { ($0, nil, false) }
        case .namedMap(let value, _)?:
            return entries.map { ($0, value, true) }
        default:
            return entries.map { ($0, nil, false) }
        }
    }

    /// The shape a collection is read with, when it is of the kind the shape wants.
    static func collectionShape(_ shape: Shape?, of node: Node) -> Shape? {
        switch (shape, node.kind) {
        case (.object?, .mapping), (.namedMap?, .mapping), (.list?, .sequence): return shape
        default: return nil
        }
    }

    static func isBlockScalar(_ node: Node) -> Bool {
        if case .scalar(_, let style) = node.kind { return style == .literal || style == .folded }
        return false
    }
}
