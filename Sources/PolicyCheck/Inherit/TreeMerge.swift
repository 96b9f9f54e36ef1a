import PolicySource

/// The node-tree operations of `extends`: values in, values out.
enum TreeMerge {
    /// `child` over `parent`: two mappings merge key by key (each key where the parent has it,
    /// the child's new keys after, in its order); anything else the child writes replaces the
    /// parent's value whole (a list is not appended to). A merged mapping stands where the child
    /// wrote it; an entry the child overrides, where the child wrote its key.
    static func merge(_ parent: Node, _ child: Node) -> Node {
        guard case .mapping(let base) = parent.kind, case .mapping(let over) = child.kind else { return child }
        var entries = base
        var index: [ExactText: Int] = [:]
        for i in base.indices { index[ExactText(base[i].key)] = i }
        for entry in over {
            if let i = index[ExactText(entry.key)] {
                entries[i] = Entry(key: entry.key, keySpan: entry.keySpan, value: merge(entries[i].value, entry.value))
            } else {
                index[ExactText(entry.key)] = entries.count
                entries.append(entry)
            }
        }
        return Node(.mapping(entries), span: child.span)
    }

    /// `node` with every span moved `lines` lines down (into the shared line space of `Inheritance`).
    static func shifted(_ node: Node, by lines: Int) -> Node {
        var moved = node
        moved.span = Inheritance.shifted(node.span, by: lines)
        switch node.kind {
        case .mapping(let entries):
            moved.kind = .mapping(entries.map {
                Entry(key: $0.key, keySpan: Inheritance.shifted($0.keySpan, by: lines), value: shifted($0.value, by: lines))
            })
        case .sequence(let items):
            moved.kind = .sequence(items.map { shifted($0, by: lines) })
        case .scalar, .reported:
            break
        }
        return moved
    }

    /// A root mapping without the entries of `keys`.
    static func removing(_ keys: [String], from root: Node) -> Node {
        guard case .mapping(let entries) = root.kind else { return root }
        var kept = root
        kept.kind = .mapping(entries.filter { entry in !keys.contains { sameText($0, entry.key) } })
        return kept
    }

    /// The entry of a root mapping under `key`.
    static func entry(_ key: String, of root: Node?) -> Entry? {
        guard let root, case .mapping(let entries) = root.kind else { return nil }
        return entries.first { sameText($0.key, key) }
    }
}
