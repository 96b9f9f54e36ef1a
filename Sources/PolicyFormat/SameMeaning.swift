import PolicySource

/// The check made before a formatted text is given: read back, it is the same tree as the input
/// (mappings compared key by key, lists item by item, scalars by their exact text), but for
/// quotes taken away, which `Quoting` allows only where the language reads the text alone.
enum SameMeaning {
    /// Where the two first differ, as a position in the input; nil when they are the same.
    static func problem(before: Node?, after bytes: [UInt8]) -> Mark? {
        let content = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes
        let loaded = Loader.loadWhole(content)
        guard loaded.diagnostics.isEmpty else { return before?.span.start ?? .start }
        switch (before, loaded.root) {
        case (nil, nil): return nil
        case (let a?, let b?): return difference(a, b)
        default: return before?.span.start ?? .start
        }
    }

    static func difference(_ a: Node, _ b: Node) -> Mark? {
        switch (a.kind, b.kind) {
        case (.scalar(let x, let xStyle), .scalar(let y, let yStyle)):
            let sameStyle = xStyle.isPlain == yStyle.isPlain || (!xStyle.isPlain && yStyle.isPlain)
            return sameStyle && x.utf8.elementsEqual(y.utf8) ? nil : a.span.start
        case (.sequence(let xs), .sequence(let ys)):
            guard xs.count == ys.count else { return a.span.start }
            for (x, y) in zip(xs, ys) {
                if let mark = difference(x, y) { return mark }
            }
            return nil
        case (.mapping(let xs), .mapping(let ys)):
            guard xs.count == ys.count else { return a.span.start }
            var byKey: [[UInt8]: Node] = [:]
            for y in ys { byKey[Array(y.key.utf8)] = y.value }
            for x in xs {
                guard let y = byKey[Array(x.key.utf8)] else { return x.keySpan.start }
                if let mark = difference(x.value, y) { return mark }
            }
            return nil
        default:
            return a.span.start
        }
    }
}
