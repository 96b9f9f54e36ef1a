/// A correction of a finding: text edits to the file, nothing else. `safe` fixes are certain (a
/// spelling `help` already names) and `lint --fix` applies them; `unsafe` ones are a choice (a
/// unit for a bare number, the nearest compliant value) applied only with `--unsafe-fixes`.
public struct Fix: Sendable, Hashable {
    public enum Safety: String, Sendable, Hashable {
        case safe, unsafe
    }

    public var safety: Safety
    /// What applying it does, in a few words ("write 8s", "rename 'retryOnStatus' to 'retryOn'").
    public var description: String
    /// Non-overlapping replacements, in the file's order.
    public var edits: [TextEdit]

    public init(_ safety: Safety, _ description: String, edits: [TextEdit]) {
        self.safety = safety
        self.description = description
        self.edits = edits
    }
}

/// Replace the text from `span.start` up to (not including) `span.end` with `text`; an empty span
/// inserts. Positions as everywhere: 1-based lines, columns in Unicode scalars.
public struct TextEdit: Sendable, Hashable {
    public var span: Span
    public var text: String

    public init(_ span: Span, _ text: String) {
        self.span = span
        self.text = text
    }
}
