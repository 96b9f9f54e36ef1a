/// A position in a source file, 1-based, columns counted in Unicode scalars (as libyaml does).
///
/// Stored in 32 bits each (a file is at most 1 MiB, so no line or column comes near 2^31): every
/// node, entry, decoded value and finding holds a span of two marks, and at 16 bytes instead of
/// 32 a span halves what a file of tens of thousands of nodes holds in positions. Values past
/// the range are clamped, never trapped on.
public struct Mark: Hashable, Comparable, Sendable {
    @usableFromInline var storedLine: Int32
    @usableFromInline var storedColumn: Int32

    @inlinable
    public var line: Int {
        get { Int(storedLine) }
        set { storedLine = Int32(clamping: newValue) }
    }

    @inlinable
    public var column: Int {
        get { Int(storedColumn) }
        set { storedColumn = Int32(clamping: newValue) }
    }

    @inlinable
    public init(line: Int, column: Int) {
        self.storedLine = Int32(clamping: line)
        self.storedColumn = Int32(clamping: column)
    }

    public static let start = Mark(line: 1, column: 1)

    @inlinable
    public static func < (a: Mark, b: Mark) -> Bool {
        (a.storedLine, a.storedColumn) < (b.storedLine, b.storedColumn)
    }
}

/// Where a node stands: from its first character up to (not including) `end`.
public struct Span: Hashable, Sendable {
    public var start: Mark
    public var end: Mark

    public init(start: Mark, end: Mark) {
        self.start = start
        self.end = end
    }

    public init(_ mark: Mark) {
        self.init(start: mark, end: mark)
    }
}

public enum ScalarStyle: Sendable, Hashable {
    case plain, singleQuoted, doubleQuoted, literal, folded

    public var isPlain: Bool { self == .plain }
}

/// A node of the YAML tree, as the loader builds it: only what a policy may contain.
public struct Node: Sendable {
    // Not `indirect`: mappings and sequences are arrays already, and boxing every node cost an
    // allocation per node.
    public enum Kind: Sendable {
        case scalar(String, ScalarStyle)
        case mapping([Entry])
        case sequence([Node])
        /// A node the loader already reported (an alias, say): the decoder stays silent on it.
        case reported
    }

    public var kind: Kind
    public var span: Span

    public init(_ kind: Kind, span: Span) {
        self.kind = kind
        self.span = span
    }

    /// `~`, `null` and an empty plain scalar: YAML's ways to write nothing.
    public var isNull: Bool {
        if case .scalar(let text, .plain) = kind {
            // By length first: it is asked of every value, and most are longer. (No other text is
            // canonically equivalent to these, so their lengths in bytes are theirs alone.)
            switch text.utf8.count {
            case 0: return true
            case 1: return text == "~"
            case 4: return text == "null" || text == "Null" || text == "NULL"
            default: return false
            }
        }
        return false
    }
}

/// One `key: value` pair of a mapping; keys are always scalars (the loader refuses others).
public struct Entry: Sendable {
    public var key: String
    public var keySpan: Span
    public var value: Node

    public init(key: String, keySpan: Span, value: Node) {
        self.key = key
        self.keySpan = keySpan
        self.value = value
    }
}
