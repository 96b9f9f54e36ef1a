import PolicySource
import PolicyCheck

/// The hover of a policy that `extends` others: where the values at the cursor come from.
extension Hover {
    /// At most this many inherited values are listed under a mapping's key.
    static let originsShown = 12

    /// A paragraph naming the origin of the value at `path` of the effective policy: the file and
    /// line of a value, or for a mapping each value under it that another file gives.
    static func describeOrigins(at path: [PathStep], in effective: EffectivePolicy, into prose: inout Prose) {
        guard var node = effective.root else { return }
        if path == [.key("extends")] || path.first == .key("extends") {
            let parents = effective.inheritance.files.dropFirst()
            guard !parents.isEmpty else { return }
            prose.add("Extends, in the order applied: " + parents.map(prose.text).joined(separator: ", ") + ".")
            return
        }
        for step in path {
            guard case .key(let key) = step, case .mapping(let entries) = node.kind,
                  let entry = entries.first(where: { sameText($0.key, key) }) else { return }
            node = entry.value
        }
        let inheritance = effective.inheritance
        if case .mapping = node.kind {
            var inherited: [(String, String)] = []
            collect(node, prefix: "", inheritance: inheritance, into: &inherited)
            guard !inherited.isEmpty else { return }
            let shown = inherited.prefix(originsShown).map { "\(prose.code($0.0)) from \(prose.text($0.1))" }
            let more = inherited.count > originsShown ? "; \(inherited.count - originsShown) more" : ""
            prose.add("Inherited: " + shown.joined(separator: ", ") + more + ".")
            return
        }
        let origin = inheritance.locate(node.span)
        let written = origin.file == inheritance.child ? "written here" : "from " + prose.text("\(origin.file):\(origin.span.start.line)")
        prose.add("Effective value: \(prose.code(value(node))), \(written).")
    }

    /// The values under a mapping that another file than the child gives, as `key: value` with
    /// `file:line`, in the order of the effective policy.
    private static func collect(_ node: Node, prefix: String, inheritance: Inheritance, into found: inout [(String, String)]) {
        guard case .mapping(let entries) = node.kind else { return }
        for entry in entries {
            let key = prefix.isEmpty ? entry.key : prefix + "." + entry.key
            if case .mapping = entry.value.kind {
                collect(entry.value, prefix: key, inheritance: inheritance, into: &found)
                continue
            }
            let origin = inheritance.locate(entry.value.span)
            guard origin.file != inheritance.child else { continue }
            found.append(("\(key): \(value(entry.value))", "\(origin.file):\(origin.span.start.line)"))
        }
    }

    /// A value in a few characters: a scalar as written, a list as `[…]` of its scalars.
    private static func value(_ node: Node) -> String {
        switch node.kind {
        case .scalar(let text, _): return text
        case .sequence(let items): return "[" + items.map(value).joined(separator: ", ") + "]"
        case .mapping: return "{…}"
        case .reported: return "…"
        }
    }
}
