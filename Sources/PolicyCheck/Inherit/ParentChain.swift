import PolicySource

/// Reads the parents a policy `extends` (and theirs), and merges the chain under it. Every
/// problem with a parent is a finding at the `extends` entry that names it, and that parent is
/// left out: a missing, unreadable or cyclic parent, one that is not a valid policy file (its
/// own lint says why), or a chain deeper or wider than a real organisation needs.
struct ParentChain {
    /// Levels of parents, and files in one chain: far beyond a real hierarchy (organisation,
    /// platform, app), and small enough that hostile input cannot make much work.
    static let maxDepth = 8
    static let maxFiles = 32

    let reader: ParentReader
    let reading: Shape?
    var inheritance: Inheritance
    var diagnostics: [Diagnostic] = []
    /// The files being merged, the child first: a parent among them closes a cycle.
    var stack: [String]
    /// The child's own `extends` entry being followed: a cycle through the child is reported
    /// there, in the file being checked, whichever file closes it.
    var childEntry: Span?

    /// Whether a root names parents: the one question asked of a plain policy.
    static func extends(_ root: Node?) -> Bool {
        TreeMerge.entry("extends", of: root) != nil
    }

    /// The child's tree over its parents', its own `extends` kept (the decoder checks it), and
    /// the findings about the parents.
    static func effective(_ root: Node, path: String, bytes: [UInt8], reader: ParentReader,
                          reading: Shape?) -> (root: Node, inheritance: Inheritance, diagnostics: [Diagnostic]) {
        var chain = ParentChain(reader: reader, reading: reading, inheritance: Inheritance(child: path, bytes: bytes),
                                stack: [ParentPath.tidy(path)])
        let merged = chain.withParents(root, file: path, depth: 0)
        return (merged, chain.inheritance, chain.diagnostics)
    }

    /// `node`, a file's root in the shared line space, over the parents its `extends` names,
    /// applied in order (a later parent's values replace an earlier one's).
    private mutating func withParents(_ node: Node, file: String, depth: Int) -> Node {
        guard let named = TreeMerge.entry("extends", of: node) else { return node }
        var base: Node?
        for (text, span) in Self.paths(named.value) {
            if depth == 0 { childEntry = span }
            guard let parent = parent(text, span: span, from: file, depth: depth + 1) else { continue }
            base = base.map { TreeMerge.merge($0, parent) } ?? parent
        }
        return base.map { TreeMerge.merge($0, node) } ?? node
    }

    /// The paths an `extends` value names, with where each is written; what is not a path is
    /// the decoder's to report (a mapping, a list inside the list).
    private static func paths(_ value: Node) -> [(String, Span)] {
        switch value.kind {
        case .scalar(let text, _) where !value.isNull: return [(text, value.span)]
        case .sequence(let items):
            return items.compactMap { item in
                if case .scalar(let text, _) = item.kind, !item.isNull { return (text, item.span) }
                return nil
            }
        default: return []
        }
    }

    /// One parent: read, loaded, moved into the shared line space and merged over its own
    /// parents, without its `extends` and `abstract` (those describe it, and are not inherited).
    private mutating func parent(_ text: String, span: Span, from file: String, depth: Int) -> Node? {
        guard !text.isEmpty else { return fail(at: span, "extends names an empty path", help: "write a policy file's path, relative to this file") }
        let path = ParentPath.resolve(text, from: file)
        if let start = stack.firstIndex(of: path) {
            let cycle = (stack[start...] + [path]).map(printable).joined(separator: " → ")
            return fail(at: start == 0 ? childEntry ?? span : span, "extends forms a cycle: \(cycle)",
                        help: "a policy cannot extend itself; remove one of these extends")
        }
        guard depth <= Self.maxDepth, inheritance.parts.count < Self.maxFiles else {
            return fail(at: span, "'\(printable(path))' is past the limit of \(Self.maxDepth) levels and \(Self.maxFiles) files of extends",
                        help: "extend fewer files; a base may extend another base")
        }
        let bytes: [UInt8]
        switch reader.read(path) {
        case .success(let read): bytes = read
        case .failure(let failure):
            return fail(at: span, failure.message, help: "extends names policy files relative to \(printable(file))")
        }
        let loaded = Loader.load(bytes, reading: reading)
        if let problem = loaded.diagnostics.first(where: { $0.severity == .error }) {
            return fail(at: span, "the parent '\(printable(path))' is not a valid policy file: "
                        + "\(printable(path)):\(problem.line):\(problem.column): \(printable(problem.message))",
                        help: "run 'policyc lint \(printable(path))' and correct it")
        }
        guard loaded.decodable, let root = loaded.root, case .mapping = root.kind else {
            return fail(at: span, "the parent '\(printable(path))' holds no policy mapping", help: "extends names policy files")
        }
        guard inheritance.nextOffset + LineIndex(bytes).lineCount + 2 < Span.largest else {
            return fail(at: span, "the files of this extends chain hold too many lines", help: "extend fewer or smaller files")
        }
        let offset = inheritance.add(file: path, bytes: bytes)
        stack.append(path)
        defer { stack.removeLast() }
        let merged = withParents(TreeMerge.shifted(root, by: offset), file: path, depth: depth)
        return TreeMerge.removing(["extends", "abstract"], from: merged)
    }

    private mutating func fail(at span: Span, _ message: String, help: String) -> Node? {
        diagnostics.append(Diagnostic(span: span, severity: .error, rule: .extendsParent, message: message, help: help))
        return nil
    }
}
