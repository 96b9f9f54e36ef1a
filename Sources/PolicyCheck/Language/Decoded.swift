import PolicySource

/// A value the decoder accepted, typed by the key it stands under, with where it was written.
public struct Decoded: Sendable, Hashable {
    // Not `indirect`: the lists and objects are arrays already, and boxing every value cost an
    // allocation per value.
    public enum Value: Sendable, Hashable {
        case integer(Int)
        case string(String)
        case boolean(Bool)
        /// Whole milliseconds.
        case duration(Int)
        case percent(Percent)
        /// `network` in `retryOn`.
        case network
        /// A plain decimal number (`Shape.decimal`).
        case decimal(Double)
        case list([Decoded])
        /// Keys in file order; only the entries whose values decoded.
        case object(DecodedObject)
    }

    public var value: Value
    /// For a list: false when an item did not decode (a repeated item counts as decoded). Rules
    /// that judge a list as a whole ("lacks 429") skip it then: the item's own finding is enough.
    /// (Before `span`: it fills the bytes the value's case leaves, and a `Decoded` is 32 bytes.)
    public var complete = true
    public var span: Span

    public init(value: Value, span: Span, complete: Bool = true) {
        self.value = value
        self.complete = complete
        self.span = span
    }

    /// For a mapping: the known keys that were written but whose values did not decode.
    public var failedKeys: [String] {
        if case .object(let object) = value { return object.failedKeys }
        return []
    }

    public subscript(key: String) -> Decoded? {
        guard case .object(let entries) = value else { return nil }
        return entries.first { sameText($0.key, key) }?.value
    }
}

/// A decoded mapping: its entries, and the known keys written whose values did not decode. The
/// failed keys are kept here, not in every `Decoded`: one 8-byte field there made each decoded
/// value 8 bytes larger (48 instead of 40 when it was moved, with 16-byte spans), and an entry of a
/// one-key mapping a 128-byte block instead of the 112 its node took, so the blocks a let-go tree
/// frees could not be reused for what is decoded. (LayoutTests keeps the sizes.)
public struct DecodedObject: Sendable, Hashable, RandomAccessCollection, MutableCollection, ExpressibleByArrayLiteral {
    public var entries: [DecodedEntry]
    public var failedKeys: [String]

    public init(_ entries: [DecodedEntry], failedKeys: [String] = []) {
        self.entries = entries
        self.failedKeys = failedKeys
    }

    public init(arrayLiteral entries: DecodedEntry...) {
        self.init(entries)
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { entries.count }

    public subscript(position: Int) -> DecodedEntry {
        get { entries[position] }
        set { entries[position] = newValue }
    }
}

public struct DecodedEntry: Sendable, Hashable {
    public var key: String
    public var keySpan: Span
    public var value: Decoded

    public init(key: String, keySpan: Span, value: Decoded) {
        self.key = key
        self.keySpan = keySpan
        self.value = value
    }
}

extension Decoded.Value {
    /// What "no repeats" compares: the same status, word or pair wherever and in whatever key order
    /// it was written. Strings are length-prefixed, so no two values share an identity; identities
    /// compare by bytes (`ExactText`), as the texts in them do.
    var identity: String {
        switch self {
        case .integer(let v): return "i\(v)"
        case .string(let v): return "s\(v.utf8.count):\(v)"
        case .boolean(let v): return "b\(v)"
        case .duration(let v): return "d\(v)"
        case .percent(let p): return "p\(p.canonical)"
        case .network: return "n"
        case .decimal(let v): return "x\(JSON.number(v))"
        case .list(let items): return "[" + items.map(\.value.identity).joined(separator: ",") + "]"
        case .object(let entries):
            let keyed = entries.map { "s\($0.key.utf8.count):\($0.key)=" + $0.value.value.identity }.sorted(by: utf8Precedes)
            return "{" + keyed.joined(separator: ",") + "}"
        }
    }
}
