import PolicySource
import PolicyCheck

/// `policyc fmt`: a policy (or any file of a language given by its shape) in the one canonical
/// layout, bytes in, bytes out. Pure.
///
/// The layout is the one `policyc init` writes: two spaces per level, one space after `:`, the
/// language's keys in its order (keys it does not have after them, as they stood, their values
/// untouched), flow collections kept in flow on one line, block scalars kept, quotes only where
/// needed, blank lines kept (one at most) and one before each top-level section, trailing
/// comments of neighbouring lines aligned, every comment kept, one line break at the end, the
/// file's own line breaks (CRLF stays CRLF). A file that is not well-formed YAML, or that holds
/// what policies refuse (anchors, tags, a second document, a repeated key), is refused. The
/// result is read back and compared with the input's tree before it is given: formatting never
/// changes what the file means, and a file it could not keep the meaning of is refused.
public enum PolicyFormatter {
    public enum Outcome: Sendable, Equatable {
        /// The formatted text (the input's bytes when it was already formatted).
        case formatted([UInt8])
        case refused(Refusal)
    }

    /// Why a file was not formatted, and where.
    public struct Refusal: Sendable, Equatable {
        public var line: Int
        public var column: Int
        public var message: String
    }

    /// `bytes` formatted as a file of `shape` (by default, a policy).
    public static func format(_ bytes: [UInt8], shape: Shape = .object(Language.root)) -> Outcome {
        let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
        let hasBOM = bytes.starts(with: bom)
        let content = hasBOM ? Array(bytes.dropFirst(3)) : bytes
        let loaded = Loader.loadWhole(content)
        if let first = loaded.diagnostics.min(by: { $0.span.start < $1.span.start }) {
            return .refused(Refusal(line: first.span.start.line, column: first.span.start.column,
                                    message: "\(first.message) [\(first.rule)]; nothing written"))
        }
        let source = LineIndex(content)
        let text = Layout.render(layout(content, root: loaded.root, shape: shape), lineBreak: source.firstLineBreak)
        var out = (hasBOM ? bom : []) + Array(text.utf8)
        guard let problem = SameMeaning.problem(before: loaded.root, after: out) else { return .formatted(out) }
        // A block scalar that ends the file without a line break has none in its text: the
        // file keeps ending without one.
        if !source.endsWithLineBreak, out.last == 0x0A || out.last == 0x0D {
            out.removeLast(source.firstLineBreak.utf8.count)
            if SameMeaning.problem(before: loaded.root, after: out) == nil { return .formatted(out) }
        }
        return .refused(Refusal(line: problem.line, column: problem.column,
                                message: "formatting would change what this file means here, so it is left as it is (please report it)"))
    }

    /// `fixed`, the text of `original` after `lint --fix`, formatted when `original` was: fixes
    /// change only the text they correct (a shorter value leaves its comment out of line, an added
    /// key may stand out of order), and a file kept formatted stays so. A file in a layout of its
    /// own keeps it: only the corrected text changes.
    public static func keepingLayout(of original: [UInt8], fixed: [UInt8], shape: Shape = .object(Language.root)) -> [UInt8] {
        guard fixed != original, format(original, shape: shape) == .formatted(original),
              case .formatted(let formatted) = format(fixed, shape: shape) else { return fixed }
        return formatted
    }

    /// The document: what stands before the root (comments, `%` directives, `---`), the root
    /// with its comments, and what follows a `...` at the end.
    static func layout(_ content: [UInt8], root: Node?, shape: Shape) -> [OutLine] {
        let source = SourceLines(content)
        guard let root, !Self.isEmpty(root) else { return raw(source, 1...source.count) }
        let tree = Tree(source: source)
        let comments = ScalarMask(root, source: source).comments(in: source)
        let bodyStart = root.span.start.line
        let bodyEnd = min(tree.contentEnd(root, anchor: root.span.start), source.count)
        let tailStart = (bodyEnd + 1..<source.count + 1).first { source.trimmed($0).hasPrefix("...") } ?? source.count + 1
        var lines = bodyStart > 1 ? raw(source, 1...(bodyStart - 1)) : []
        if root.span.start.column > 1, source.trimmed(bodyStart).hasPrefix("---") { lines.append(.comment(0, "---")) }
        if source.isBlank(bodyStart - 1) { lines.append(.blank) }
        let body = comments.filter { $0.line >= bodyStart && $0.line < tailStart }
        if tree.isBlock(root) {
            var emitter = Emitter(tree: tree, placement: CommentPlacement(root: root, tree: tree, comments: body))
            emitter.collection(root, shape: Emitter.collectionShape(shape, of: root), indent: 0, isRoot: true)
            lines += emitter.out
        } else {
            // A scalar or flow root: its comments above it, but for the one after it.
            var attached = Attached()
            for c in body where c.line <= bodyEnd {
                if !c.ownLine && c.line == bodyEnd { attached.end = c.text } else { attached.inner.append(c.text) }
            }
            var emitter = Emitter(tree: tree, placement: CommentPlacement(tree: tree))
            emitter.item(attached, root, prefix: "", shape: shape, indent: 0, anchor: Mark(line: bodyStart, column: 1), blank: false)
            lines += emitter.out
            for c in body where c.line > bodyEnd {
                if source.isBlank(c.line - 1) { lines.append(.blank) }
                lines.append(.comment(0, c.text))
            }
        }
        if tailStart <= source.count {
            if source.isBlank(tailStart - 1) { lines.append(.blank) }
            lines += raw(source, tailStart...source.count)
        }
        return lines
    }

    /// A document of nothing (`---` alone): null written as nothing.
    static func isEmpty(_ root: Node) -> Bool {
        if case .scalar(let text, .plain) = root.kind { return text.isEmpty }
        return false
    }

    /// Lines as they are, without the spaces around them (blank ones as blank).
    static func raw(_ source: SourceLines, _ range: ClosedRange<Int>) -> [OutLine] {
        range.map { source.isBlank($0) ? .blank : .comment(0, source.trimmed($0)) }
    }
}
