/// A position in a source file, 1-based, columns counted in Unicode scalars (as libyaml does).
///
/// Stored in 32 bits each (a file is at most 1 MiB, so no line or column comes near 2^31), and
/// in 24 bits each within a `Span`. Values past the range are clamped, never trapped on.
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
///
/// Every node, entry, decoded value and finding holds one, so it is packed: four numbers of 24
/// bits (up to 16,777,215; a file is at most 1 MiB, so no line or column comes near) in three
/// 32-bit words. At 12 bytes, aligned to 4, a span fits beside a node's 17-byte kind in 32 bytes;
/// two marks took 16 and made a node 40 — a fifth more for every node, entry and decoded value.
/// Negative and larger numbers are clamped, never trapped on.
public struct Span: Hashable, Sendable {
    // The start's line and column in the low 24 bits of the first two words, the end's column in
    // those of the third, and the end's line in the top bytes of the three, low byte first.
    @usableFromInline var words: (UInt32, UInt32, UInt32)

    /// The largest line or column a span holds.
    public static let largest = (1 << 24) - 1

    @inlinable
    public init(start: Mark, end: Mark) {
        let line = Self.packed(end.storedLine)
        words = (Self.packed(start.storedLine) | line << 24,
                 Self.packed(start.storedColumn) | (line >> 8) << 24,
                 Self.packed(end.storedColumn) | (line >> 16) << 24)
    }

    @inlinable
    static func packed(_ n: Int32) -> UInt32 {
        UInt32(clamping: min(Int(n), largest))
    }

    public var start: Mark {
        @inlinable get {
            Mark(line: Int(words.0 & 0xFF_FFFF), column: Int(words.1 & 0xFF_FFFF))
        }
        @inlinable set { self = Span(start: newValue, end: end) }
    }

    public var end: Mark {
        @inlinable get {
            let line = words.0 >> 24 | (words.1 >> 24) << 8 | (words.2 >> 24) << 16
            return Mark(line: Int(line), column: Int(words.2 & 0xFF_FFFF))
        }
        // Set through `init`, the one place that packs: spans are set rarely (fixes, editors).
        @inlinable set { self = Span(start: start, end: newValue) }
    }

    public static func == (a: Span, b: Span) -> Bool {
        a.words == b.words
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(words.0)
        hasher.combine(words.1)
        hasher.combine(words.2)
    }

    @inlinable
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
