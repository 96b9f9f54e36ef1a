import PolicySource

/// A key of the canonical policy (`Canonical.text`) as text to paste: what the help for a missing
/// key shows and what its fix inserts, so that one round fixes it.
public struct CanonicalEntry: Sendable {
    /// The entry's lines as the canonical policy writes them (comments too), the key's line first,
    /// indented as from column 1.
    public var lines: [String]
    /// The value alone: its lines below the key (indented by two) for a mapping or block list,
    /// else one line with the scalar or flow text.
    public var valueLines: [String]
    /// The value in flow style, for a flow mapping (`{ratio: 10%, minPerMinute: 10}`).
    public var flow: String

    /// The entry `key` of the mapping at `path` in the canonical policy. Path components are keys;
    /// a profile is `interactive` or `background`, an item of a list `-` (its first item).
    public static func find(_ key: String, at path: [String]) -> CanonicalEntry? {
        guard var node = canonicalRoot else { return nil }
        for component in path {
            switch node.kind {
            case .mapping(let entries):
                guard let entry = entries.first(where: { $0.key == component }) else { return nil }
                node = entry.value
            case .sequence(let items):
                guard component == "-", let item = items.first else { return nil }
                node = item
            default:
                return nil
            }
        }
        guard case .mapping(let entries) = node.kind, let entry = entries.first(where: { $0.key == key }) else { return nil }
        return make(entry)
    }

    /// The whole canonical policy, for a file that holds none.
    public static var wholePolicy: [String] {
        Array(LineIndex(Canonical.text).lineTexts.dropLast())
    }

    /// The whole canonical policy named `name` (`policy: tv-player` for `tv-player.yaml`).
    public static func wholePolicy(named name: String?) -> [String] {
        guard let name else { return wholePolicy }
        return Array(LineIndex(Canonical.text(policy: name)).lineTexts.dropLast())
    }

    /// The policy name a fix writes in a file that has none: the file's own name without its
    /// extension when that is a valid name (`Policies/tv-player.yaml` → `tv-player`), else nil
    /// (the canonical `playback`).
    public static func policyName(forFile path: String) -> String? {
        let file = path.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? path
        for suffix in [".yaml", ".yml"] where file.hasSuffix(suffix) {
            let stem = String(file.dropLast(suffix.count))
            return Values.isName(stem) ? stem : nil
        }
        return nil
    }

    /// The profile of the canonical policy closest to a profile of `kind`.
    public static func profileName(kind: String?) -> String {
        kind == "background" ? "background" : "interactive"
    }

    // MARK: -

    private static let canonicalRoot: Node? = Loader.load(Array(Canonical.text.utf8)).root
    private static let canonicalText = LineIndex(Array(Canonical.text.utf8))

    private static func make(_ entry: Entry) -> CanonicalEntry? {
        let first = entry.keySpan.start.line
        let last = lastLine(of: entry.value)
        let indent = entry.keySpan.start.column - 1
        var lines: [String] = []
        for n in first...last {
            guard let line = canonicalText.text(ofLine: n) else { return nil }
            lines.append(String(line.unicodeScalars.dropFirst(indent)))
        }
        let flow = flowText(entry.value)
        let valueLines = last > first ? Array(lines.dropFirst()) : [flow]
        return CanonicalEntry(lines: lines, valueLines: valueLines, flow: flow)
    }

    /// The canonical policy's last line of a node: it is all block style but for one-line flow
    /// lists, and a block collection ends where the next token starts, so at its last child.
    private static func lastLine(of node: Node) -> Int {
        switch node.kind {
        case .mapping(let entries): return entries.last.map { max($0.keySpan.end.line, lastLine(of: $0.value)) } ?? node.span.end.line
        case .sequence(let items):
            if node.span.start.line == node.span.end.line { return node.span.end.line }
            return items.last.map { lastLine(of: $0) } ?? node.span.end.line
        default: return node.span.end.line
        }
    }

    /// The value written in flow style: `[viewer, device]`, `{status: 503, code: not_ready}`.
    static func flowText(_ node: Node) -> String {
        switch node.kind {
        case .scalar(let text, _): return text
        case .sequence(let items): return "[" + items.map(flowText).joined(separator: ", ") + "]"
        case .mapping(let entries): return "{" + entries.map { "\($0.key): \(flowText($0.value))" }.joined(separator: ", ") + "}"
        case .reported: return ""
        }
    }
}
