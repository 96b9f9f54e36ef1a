import PolicySource

/// Scalars and flow collections: what follows `key:` or `-`, and the lines after it when a value
/// takes several.
extension Emitter {
    func inline(_ node: Node, shape: Shape?, indent: Int, anchor: Mark) -> (String, [OutLine]) {
        guard case .scalar(let text, let style) = node.kind else { return (flow(node, shape: shape), []) }
        if style == .literal || style == .folded { return blockScalar(node, indent: indent, anchor: anchor) }
        let span = node.span
        if style != .plain, Quoting.textOnly(shape), Quoting.canBePlain(text, inFlow: false) { return (text, []) }
        // As written (libyaml folds at NEL, LS and PS, which are characters of an editor's line).
        guard span.end.line > span.start.line else { return (tree.source.text(from: span.start, to: span.end), []) }
        // Over several lines: each line after the first two spaces in, as a plain or quoted
        // scalar folds them (leading spaces are not text; an empty line is a line break).
        let first = tree.source.text(from: span.start, to: Mark(line: span.start.line + 1, column: 1))
        var rest: [OutLine] = []
        for n in (span.start.line + 1)...span.end.line {
            let line = tree.source.line(n)
            let upTo = n == span.end.line ? min(max(span.end.column - 1, 0), line.count) : line.count
            let part = SourceLines.trimming(line[..<upTo])
            // A double-quoted line's last backslash escapes its break: the spaces before it stay.
            let kept = style == .doubleQuoted && part.last == "\\" ? line[..<upTo].drop(while: SourceLines.isSpace) : part
            rest.append(kept.isEmpty ? .verbatim("") : .content(indent + 2, SourceLines.string(kept)))
        }
        return (Self.trailingTrimmed(first, keepingEscape: style == .doubleQuoted), rest)
    }

    static func trailingTrimmed(_ s: String, keepingEscape: Bool) -> String {
        let trimmed = SourceLines.string(SourceLines.trimming(Array(s.unicodeScalars)[...]))
        return keepingEscape && trimmed.hasSuffix("\\") ? s : trimmed
    }

    /// A flow collection (or a scalar in one) on one line: `[a, b]`, `{status: 503, code: x}`.
    func flow(_ node: Node, shape: Shape?) -> String {
        switch node.kind {
        case .mapping(let entries):
            let parts = Self.ordered(entries, Self.collectionShape(shape, of: node)).map { entry, valueShape, known in
                let key = key(entry, known: known, inFlow: true)
                if case .scalar(let text, .plain) = entry.value.kind, text.isEmpty { return key }
                return key + ": " + flow(entry.value, shape: valueShape)
            }
            return "{" + parts.joined(separator: ", ") + "}"
        case .sequence(let items):
            let itemShape = Self.collectionShape(shape, of: node)?.itemShape
            return "[" + items.map { flow($0, shape: itemShape) }.joined(separator: ", ") + "]"
        case .scalar(let text, let style):
            let span = node.span
            if span.start.line == span.end.line, style == .plain || !Quoting.textOnly(shape) || !Quoting.canBePlain(text, inFlow: true) {
                return tree.source.text(from: span.start, to: span.end)
            }
            if style == .plain { return text.contains("\n") ? Quoting.doubleQuoted(text) : text }
            return Quoting.canBePlain(text, inFlow: true) && Quoting.textOnly(shape) ? text : Quoting.doubleQuoted(text)
        case .reported:
            return ""
        }
    }

    /// A block scalar: its indicators after the key, its lines moved with the key (an explicit
    /// indentation counts from it), else two spaces in from it.
    func blockScalar(_ node: Node, indent: Int, anchor: Mark) -> (String, [OutLine]) {
        let header = tree.header(of: node)
        let start = node.span.start.line
        let last = tree.blockScalarEnd(node)
        guard last > start else { return (header, []) }
        let lines = ((start + 1)...last).map { tree.source.line($0) }
        let oldParent = max(anchor.column - 1, 0)
        let oldIndent: Int
        if let digit = header.unicodeScalars.first(where: { ("1"..."9").contains($0) }) {
            oldIndent = oldParent + Int(digit.value - 48)
        } else {
            let firstText = lines.first { line in !line.allSatisfy(SourceLines.isSpace) }
            oldIndent = firstText.map { line in line.prefix { $0 == " " }.count } ?? oldParent + 2
        }
        let newIndent = header.unicodeScalars.contains { ("1"..."9").contains($0) } ? oldIndent - oldParent + indent : indent + 2
        let rest = lines.map { line -> OutLine in
            let spaces = line.prefix { $0 == " " }.count
            if line.allSatisfy({ $0 == " " }) && spaces <= oldIndent { return .verbatim("") }
            let kept = SourceLines.string(line.dropFirst(spaces))
            return .verbatim(String(repeating: " ", count: newIndent + max(spaces - oldIndent, 0)) + kept)
        }
        return (header, rest)
    }
}
