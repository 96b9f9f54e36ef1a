import PolicySource
import PolicyCheck

/// `policyc show`: an effective policy as YAML or JSON, with where each value was written when
/// asked. Keys in the order the files write them (a parent's first, keys a child adds after);
/// `extends` is left out (it is resolved), so the YAML is itself a policy that lints the same.
public enum EffectiveReport {
    /// YAML, two spaces an indent; with `origins`, each value followed by `# file:line`.
    public static func yaml(_ policy: EffectivePolicy, origins: Bool) -> String {
        guard let root = policy.root else { return "" }
        var lines: [(text: String, origin: String?)] = []
        let writer = YAMLWriter(inheritance: policy.inheritance, origins: origins)
        writer.mapping(root, shape: .object(Language.root), indent: 0, into: &lines)
        // Origins aligned in one column, as far right as the longest line needs (within reason).
        let column = min(60, (lines.filter { $0.origin != nil }.map(\.text.count).max() ?? 0) + 2)
        return lines.map { line in
            guard let origin = line.origin else { return line.text + "\n" }
            return line.text + String.spaces(max(2, column - line.text.count)) + "# " + origin + "\n"
        }.joined()
    }

    /// The policy as JSON, each scalar typed by the key it stands under; with `origins`, every
    /// value (a scalar, or a list: lists replace whole) is `{"value", "file", "line"}`.
    public static func json(_ policy: EffectivePolicy, origins: Bool) -> JSON {
        guard let root = policy.root else { return .null }
        let writer = JSONWriter(inheritance: policy.inheritance, origins: origins)
        return writer.value(root, shape: .object(Language.root), origin: root.span)
    }
}

private struct JSONWriter {
    let inheritance: Inheritance
    let origins: Bool

    func value(_ node: Node, shape: Shape?, origin: Span) -> JSON {
        switch node.kind {
        case .mapping(let entries):
            var members: [String: JSON] = [:]
            for entry in entries {
                members[entry.key] = value(entry.value, shape: shape?.valueShape(entry.key), origin: entry.keySpan)
            }
            return .object(members)
        case .sequence(let items):
            let plain = JSONWriter(inheritance: inheritance, origins: false)
            var item = shape?.itemShape
            if case .paths? = shape { item = .string }
            return located(.array(items.map { plain.value($0, shape: item, origin: $0.span) }), at: origin)
        case .scalar(let text, let style):
            return located(node.isNull ? .null : Self.typed(text, style, shape), at: node.span)
        case .reported:
            return located(.null, at: node.span)
        }
    }

    func located(_ value: JSON, at span: Span) -> JSON {
        guard origins else { return value }
        let (file, place) = inheritance.locate(span)
        return .object(["value": value, "file": .string(file), "line": .int(place.start.line)])
    }

    /// A number or a boolean where the language has one and the text is one; text otherwise
    /// (a value the language would refuse is shown as written).
    static func typed(_ text: String, _ style: ScalarStyle, _ shape: Shape?) -> JSON {
        guard style.isPlain else { return .string(text) }
        switch shape {
        case .integer?, .status?, .statusOrNetwork?:
            if case .value(let n) = Values.integer(text, explain: false) { return .int(n) }
        case .boolean?:
            if text == "true" || text == "false" { return .bool(text == "true") }
        default: break
        }
        return .string(text)
    }
}

private struct YAMLWriter {
    let inheritance: Inheritance
    let origins: Bool

    func origin(_ span: Span) -> String? {
        guard origins else { return nil }
        let (file, place) = inheritance.locate(span)
        return "\(printable(file)):\(place.start.line)"
    }

    /// A mapping's entries, those the language knows in its order (as `init` writes them), the
    /// others after them as written.
    func mapping(_ node: Node, shape: Shape?, indent: Int, into lines: inout [(text: String, origin: String?)]) {
        guard case .mapping(let entries) = node.kind else { return }
        let pad = String.spaces(indent)
        for entry in Self.ordered(entries, shape) {
            let key = pad + Self.key(entry.key) + ":"
            switch entry.value.kind {
            case .mapping(let inner) where !inner.isEmpty:
                lines.append((key, nil))
                mapping(entry.value, shape: shape?.valueShape(entry.key), indent: indent + 2, into: &lines)
            case .sequence(let items) where !items.isEmpty:
                if let flow = Self.flow(items, shape: shape?.valueShape(entry.key)?.itemShape) {
                    lines.append((key + " " + flow, origin(entry.keySpan)))
                } else {
                    lines.append((key, origin(entry.keySpan)))
                    sequence(items, shape: shape?.valueShape(entry.key)?.itemShape, indent: indent + 2, into: &lines)
                }
            default:
                let value = Self.scalar(entry.value, shape: shape?.valueShape(entry.key))
                lines.append((value.isEmpty ? key : key + " " + value, origin(entry.value.span)))
            }
        }
    }

    /// Block items, each `- ` and its value; a mapping item's keys after the dash.
    func sequence(_ items: [Node], shape: Shape?, indent: Int, into lines: inout [(text: String, origin: String?)]) {
        let pad = String.spaces(indent)
        for item in items {
            if case .mapping(let entries) = item.kind, !entries.isEmpty {
                var inner: [(text: String, origin: String?)] = []
                YAMLWriter(inheritance: inheritance, origins: false).mapping(item, shape: shape, indent: indent + 2, into: &inner)
                for (n, line) in inner.enumerated() {
                    lines.append((n == 0 ? pad + "- " + line.text.dropFirst(indent + 2) : line.text, nil))
                }
            } else if case .sequence(let inner) = item.kind, let flow = Self.flow(inner, shape: shape?.itemShape) {
                lines.append((pad + "- " + flow, nil))
            } else {
                lines.append((pad + "- " + Self.scalar(item, shape: shape), nil))
            }
        }
    }

    static func ordered(_ entries: [Entry], _ shape: Shape?) -> [Entry] {
        guard case .object(let fields)? = shape else { return entries }
        let rank = { (entry: Entry) in fields.firstIndex { sameText($0.key, entry.key) } ?? fields.count }
        return entries.enumerated().sorted { (rank($0.element), $0.offset) < (rank($1.element), $1.offset) }.map(\.element)
    }

    /// A list of plain words as `[a, b]`; nil when an item needs more than that.
    static func flow(_ items: [Node], shape: Shape?) -> String? {
        var words: [String] = []
        for item in items {
            guard case .scalar(let text, let style) = item.kind, !text.isEmpty, Self.plain(text, style, shape),
                  text.unicodeScalars.allSatisfy({ $0.properties.isAlphabetic || ("0"..."9").contains($0) || "-_.%/".unicodeScalars.contains($0) })
            else { return nil }
            words.append(text)
        }
        return "[" + words.joined(separator: ", ") + "]"
    }

    /// A scalar as written when it was plain (or its quotes say nothing, as `fmt` finds) and stays
    /// one line, else double-quoted (YAML's double quotes take JSON's escapes).
    static func scalar(_ node: Node, shape: Shape?) -> String {
        switch node.kind {
        case .scalar(let text, let style):
            if plain(text, style, shape), !text.contains("\n") { return text }
            return JSON.quote(text)
        case .mapping: return "{}"
        case .sequence: return "[]"
        case .reported: return ""
        }
    }

    /// Plain as written, or quoted where the quotes change nothing (`Quoting`).
    static func plain(_ text: String, _ style: ScalarStyle, _ shape: Shape?) -> Bool {
        style.isPlain || (Quoting.textOnly(shape) && Quoting.canBePlain(text, inFlow: false))
    }

    static func key(_ key: String) -> String {
        let simple = !key.isEmpty && key.unicodeScalars.allSatisfy {
            $0.properties.isAlphabetic || ("0"..."9").contains($0) || "-_.".unicodeScalars.contains($0)
        }
        return simple ? key : JSON.quote(key)
    }
}
