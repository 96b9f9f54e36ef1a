import PolicySource

/// An own-line comment as it is written out again: its text, and whether a blank line stood before it.
struct CommentLine {
    var text: String
    var blankBefore: Bool
}

/// The comments that go with one mapping entry or list item, wherever the entry moves.
struct Attached {
    /// The comments on the lines right above it.
    var leading: [CommentLine] = []
    /// A blank line between those comments and the item.
    var blankAfterLeading = false
    /// A blank line before the item (or before its comments).
    var blankBefore = false
    /// Comments from inside the item's value (a flow list over several lines, say): written above it.
    var inner: [String] = []
    /// The comment on the item's first line, when its value starts on a later one (`retry:  # …`).
    var keyLine: String?
    /// The comment after the value's last line.
    var end: String?
}

/// Which entry, item or collection each comment belongs to, found from where they stand.
///
/// A comment above an item goes with it. One after the last item of a nested block collection,
/// indented at least as deep as that collection's items (and deeper than the item that follows),
/// stays at that collection's end; otherwise it goes with the item that follows. Comments on a
/// value's own lines go with its entry.
struct CommentPlacement {
    var items: [Mark: Attached] = [:]
    /// By a collection's start: comments after its last item.
    var footers: [Mark: [CommentLine]] = [:]

    private let tree: Tree
    private let comments: [Comment]
    private var next = 0

    /// A block collection still open where a comment may end it: where it starts and its items' column.
    private typealias Open = (start: Mark, column: Int)

    /// Places the comments of the body (those on lines `body`) of a document whose root is a block collection.
    init(root: Node, tree: Tree, comments: [Comment]) {
        self.tree = tree
        self.comments = comments
        let chain = walk(root)
        // What stands above the first item is the file's header, with its own blank line.
        if let first = tree.items(of: root).first { items[first.anchor]?.blankBefore = false }
        placeGap(before: Int.max, chain: chain, nextColumn: 0, item: nil)
    }

    /// No comments (a document whose root is a scalar or a flow collection places its own).
    init(tree: Tree) {
        self.tree = tree
        self.comments = []
    }

    /// The collection's items in the file's order; answers the collections open at its end, outermost first.
    private mutating func walk(_ node: Node) -> [Open] {
        var chain: [Open] = []
        for item in tree.items(of: node) {
            placeGap(before: item.anchor.line, chain: chain, nextColumn: item.anchor.column, item: item.anchor)
            chain = walk(item)
        }
        return [(node.span.start, node.span.start.column)] + chain
    }

    private mutating func walk(_ item: Tree.Item) -> [Open] {
        let value = item.value
        if tree.isBlock(value) {
            // The comment on `key:` or on a dash whose value starts below; a compact `- key: v`
            // leaves its line's comment to the entry.
            if value.span.start.line > item.anchor.line, next < comments.count, comments[next].line == item.anchor.line {
                items[item.anchor, default: Attached()].keyLine = comments[next].text
                next += 1
            }
            return walk(value)
        }
        let end = tree.contentEnd(value, anchor: item.anchor)
        var attached = items[item.anchor] ?? Attached()
        while next < comments.count, comments[next].line <= end {
            let c = comments[next]
            next += 1
            if !c.ownLine && c.line == end {
                attached.end = c.text
            } else if !c.ownLine && c.line == item.anchor.line {
                attached.keyLine = c.text
            } else {
                attached.inner.append(c.text)
            }
        }
        items[item.anchor] = attached
        return []
    }

    /// The comments before line `line`: footers of the collections open in `chain` while they are
    /// indented into one (deeper than the item that follows), then the leading comments of `item`
    /// (or, at the end, of the outermost collection).
    private mutating func placeGap(before line: Int, chain: [Open], nextColumn: Int, item: Mark?) {
        var leading = false
        var deepest = chain.count
        var attached = item.flatMap { items[$0] } ?? Attached()
        while next < comments.count, comments[next].line < line {
            let c = comments[next]
            next += 1
            let blank = tree.source.isBlank(c.line - 1)
            if !leading, let d = (0..<deepest).last(where: { chain[$0].column <= c.column && chain[$0].column > nextColumn }) {
                footers[chain[d].start, default: []].append(CommentLine(text: c.text, blankBefore: blank))
                deepest = d + 1
            } else if item != nil {
                leading = true
                attached.leading.append(CommentLine(text: c.text, blankBefore: blank))
            } else if let outer = chain.first {
                footers[outer.start, default: []].append(CommentLine(text: c.text, blankBefore: blank))
            }
        }
        guard let item else { return }
        attached.blankAfterLeading = !attached.leading.isEmpty && tree.source.isBlank(item.line - 1)
        attached.blankBefore = attached.leading.first.map(\.blankBefore) ?? tree.source.isBlank(item.line - 1)
        items[item] = attached
    }
}
