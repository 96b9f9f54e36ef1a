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
        case list([Decoded])
        /// Keys in file order; only the entries whose values decoded.
        case object([DecodedEntry])
    }

    public var value: Value
    public var span: Span
    /// For a list: false when an item did not decode (a repeated item counts as decoded). Rules
    /// that judge a list as a whole ("lacks 429") skip it then: the item's own finding is enough.
    public var complete = true
    /// For a mapping: the known keys that were written but whose values did not decode.
    public var failedKeys: [String] = []

    public subscript(key: String) -> Decoded? {
        guard case .object(let entries) = value else { return nil }
        return entries.first { sameText($0.key, key) }?.value
    }
}

public struct DecodedEntry: Sendable, Hashable {
    public var key: String
    public var keySpan: Span
    public var value: Decoded
}

/// Node tree → typed values, directed by `Language`: unknown, missing and mistyped keys become
/// diagnostics; a value that does not decode is left out, so no rule sees it (no cascades).
struct Decoder {
    var diagnostics: [Diagnostic] = []
    /// Findings past `Loader.maxFindings` for the file (the loader's count included by the caller).
    var suppressed = 0
    /// Room left for findings: the loader's findings count against the same limit.
    var room = Loader.maxFindings

    mutating func decodeRoot(_ root: Node?) -> Decoded? {
        guard let root, !root.isNull else {
            fail(.missingKey, at: Span(.start),
                 "the file holds no policy; a policy needs the keys version, policy, retry, prefetch and tickets",
                 help: "run 'policyc init' for a canonical policy to start from")
            return nil
        }
        return decode(root, as: .object(Language.root), key: .plain("the policy"), owner: .plain("the policy"), keySpan: nil)
    }

    /// - Parameters:
    ///   - key: how the value is named in messages ("'timeout'", "an item of 'retryOn'").
    ///   - owner: for mappings, how the mapping is named when a key is missing or unknown.
    ///   - keySpan: where a missing key is reported: the key of this mapping (root: its start).
    mutating func decode(_ node: Node, as shape: Shape, key: Label, owner: Label, keySpan: Span?) -> Decoded? {
        if case .reported = node.kind { return nil }
        if node.isNull {
            fail(.typeMismatch, at: node.span, "\(key) has no value; it must be \(shape.expectation)")
            return nil
        }
        switch shape {
        case .object(let fields):
            guard case .mapping(let entries) = node.kind else { return mismatch(node, shape, key) }
            return decodeObject(entries, fields, node: node, owner: owner, keySpan: keySpan ?? node.span)
        case .namedMap(let valueShape, _):
            guard case .mapping(let entries) = node.kind else { return mismatch(node, shape, key) }
            if entries.isEmpty {
                fail(.typeMismatch, at: node.span, "\(key) is empty; it needs at least one entry")
                return nil
            }
            var out: [DecodedEntry] = []
            out.reserveCapacity(entries.count)
            for e in entries {
                if let v = decode(e.value, as: valueShape, key: .quotedPrintable(e.key), owner: .profile(e.key), keySpan: e.keySpan) {
                    out.append(DecodedEntry(key: e.key, keySpan: e.keySpan, value: v))
                }
            }
            return Decoded(value: .object(out), span: node.span)
        case .list(let itemShape, let unique):
            guard case .sequence(let items) = node.kind else { return mismatch(node, shape, key) }
            var out: [Decoded] = []
            out.reserveCapacity(items.count)
            var complete = true
            var firsts = FirstSeen()
            let itemLabel = Label.itemOf(key)
            for item in items {
                guard let v = decode(item, as: itemShape, key: itemLabel, owner: itemLabel, keySpan: item.span)
                else {
                    complete = false
                    continue
                }
                if unique, let first = firsts.repeatOf(v.value, among: out) {
                    fail(.typeMismatch, at: v.span,
                         "\(Self.describe(item)) is listed twice in \(key); the first is at line \(first.start.line), column \(first.start.column)",
                         help: "remove the repeated item")
                    continue
                }
                out.append(v)
            }
            return Decoded(value: .list(out), span: node.span, complete: complete)
        default:
            guard case .scalar(let text, let style) = node.kind else { return mismatch(node, shape, key) }
            return decodeScalar(text, style, shape, key: key, span: node.span)
        }
    }

    mutating func decodeObject(_ entries: [Entry], _ fields: [Field], node: Node, owner: Label, keySpan: Span) -> Decoded? {
        var out: [DecodedEntry] = []
        out.reserveCapacity(entries.count)
        var failed: [String] = []
        // Keys that a misspelling stands for: a misspelled key is one mistake, so the key it was
        // meant to be is not also reported missing.
        var meant: Set<String> = []
        // Which fields were written, by index (the language's mappings have far fewer than 64).
        var written: UInt64 = 0
        // By index, the entries and the fields: iterating either copies (and retains) every element
        // it passes, an entry's whole node with it.
        for j in entries.indices {
            let key = entries[j].key
            var index = -1
            // By bytes (see `sameText`): a key is the language's only when it is spelt as it is.
            for i in fields.indices where sameText(fields[i].key, key) {
                index = i
                break
            }
            guard index >= 0 else {
                if diagnostics.count >= room {
                    // Past the limit: count it without the cost of a suggestion.
                    suppressed += 1
                    continue
                }
                let keys = fields.map(\.key)
                let nearest = Suggest.nearest(key, in: keys)
                if let nearest { meant.insert(nearest) }
                let help = nearest.map { "did you mean '\($0)'?" }
                    ?? "the keys of \(owner) are \(Suggest.andList(keys))"
                fail(.unknownKey, at: entries[j].keySpan, "unknown key '\(printable(key))' in \(owner)", help: help)
                continue
            }
            if index < 64 { written |= 1 << UInt64(index) }
            let label = Label.quoted(fields[index].key)
            if let v = decode(entries[j].value, as: fields[index].shape, key: label, owner: label, keySpan: entries[j].keySpan) {
                out.append(DecodedEntry(key: key, keySpan: entries[j].keySpan, value: v))
            } else {
                failed.append(key)
            }
        }
        for i in fields.indices where fields[i].required {
            let isWritten = i < 64 ? written & (1 << UInt64(i)) != 0 : entries.contains(where: { sameText($0.key, fields[i].key) })
            guard !isWritten, !meant.contains(fields[i].key) else { continue }
            let field = fields[i]
            fail(.missingKey, at: keySpan, "\(owner) lacks the required key '\(field.key)' (\(field.title.prefix(1).lowercased() + field.title.dropFirst()))",
                 help: field.key == "version" ? "add 'version: \(Language.version)'" : "add '\(field.key):' with \(field.shape.expectation)")
        }
        return Decoded(value: .object(out), span: node.span, failedKeys: failed)
    }

    mutating func decodeScalar(_ text: String, _ style: ScalarStyle, _ shape: Shape, key: Label, span: Span) -> Decoded? {
        func ok(_ v: Decoded.Value) -> Decoded { Decoded(value: v, span: span) }
        // Only a message shows the text: making it for every scalar cost more than decoding it.
        var shown: String { "'\(printable(text))'" }
        switch shape {
        case .integer, .status:
            var (lo, hi) = (100, 599)
            if case .integer(let a, let b) = shape { (lo, hi) = (a, b) }
            guard style.isPlain else {
                let help = Int(text).map { "write \($0) without quotes" }
                return fail(.typeMismatch, at: span, "\(key) must be \(shape.expectation), found the quoted string \(shown)", help: help)
            }
            switch Values.integer(text) {
            case .invalid(let message, let help):
                return fail(.typeMismatch, at: span, "\(key) must be \(shape.expectation): \(printable(message))", help: help)
            case .value(let v):
                if v < lo {
                    return fail(.typeMismatch, at: span, "\(key) is \(v); it must be \(lo) or more")
                }
                if v > hi {
                    var isStatus = false
                    if case .status = shape { isStatus = true }
                    return fail(.typeMismatch, at: span, isStatus
                        ? "\(key) is \(v), not an HTTP status code (100 to 599)"
                        : "\(key) is \(v); it must be at most \(hi)")
                }
                return ok(.integer(v))
            }
        case .string, .name:
            return ok(.string(text))
        case .boolean:
            guard style.isPlain else {
                let help = (text == "true" || text == "false") ? "write \(text) without quotes" : "write true or false"
                return fail(.typeMismatch, at: span, "\(key) must be true or false, found the quoted string \(shown)", help: help)
            }
            switch Values.boolean(text) {
            case .value(let b): return ok(.boolean(b))
            case .invalid(let message, let help):
                return fail(.typeMismatch, at: span, "\(key) must be true or false: \(printable(message))", help: help)
            }
        case .duration:
            switch Values.duration(text) {
            case .value(let ms): return ok(.duration(ms))
            case .invalid(let message, let help):
                return fail(.typeMismatch, at: span, "\(key) must be a duration: \(printable(message))", help: help)
            }
        case .percent:
            switch Values.percent(text) {
            case .value(let p): return ok(.percent(p))
            case .invalid(let message, let help):
                return fail(.typeMismatch, at: span, "\(key) must be a percent: \(printable(message))", help: help)
            }
        case .choice(let options):
            if options.contains(where: { sameText($0, text) }) { return ok(.string(text)) }
            // Made only for a finding that is kept (see `fail`): a suggestion costs a comparison per option.
            var help: String? {
                Suggest.nearest(text, in: options).map { "did you mean '\($0)'?" } ?? "write one of \(Suggest.orList(options))"
            }
            return fail(.typeMismatch, at: span, "\(key) is \(shown), which is not one of \(Suggest.orList(options))", help: help)
        case .statusOrNetwork:
            if sameText(text, "network") { return ok(.network) }
            if style.isPlain, case .value = Values.integer(text) {
                return decodeScalar(text, style, .status, key: key, span: span)
            }
            if !style.isPlain, let v = Int(text) {
                return fail(.typeMismatch, at: span, "\(key) must be network or an HTTP status code, found the quoted string \(shown)",
                            help: "write \(v) without quotes")
            }
            if case .invalid(let message, let help) = Values.integer(text), text.first?.isASCIIDigit == true {
                return fail(.typeMismatch, at: span, "\(key) must be network or an HTTP status code: \(printable(message))", help: help)
            }
            var help: String? {
                Suggest.nearest(text, in: ["network"]).map { "did you mean '\($0)'?" } ?? "write network or a status code such as 503"
            }
            return fail(.typeMismatch, at: span, "\(key) is \(shown), which is neither network nor an HTTP status code", help: help)
        case .object, .namedMap, .list:
            return mismatch(Node(.scalar(text, style), span: span), shape, key)
        }
    }

    mutating func mismatch(_ node: Node, _ shape: Shape, _ key: Label) -> Decoded? {
        fail(.typeMismatch, at: node.span, "\(key) must be \(shape.expectation), found \(Self.describe(node))")
    }

    static func describe(_ node: Node) -> String {
        switch node.kind {
        case .mapping: return "a mapping"
        case .sequence: return "a list"
        case .reported: return "an alias"
        case .scalar(let text, let style):
            let shown = printable(text.count > 40 ? String(text.prefix(40)) + "…" : text)
            return style.isPlain ? "'\(shown)'" : "the string \"\(shown)\""
        }
    }

    /// The message and help are made only when the finding is kept: past the cap a file of tens
    /// of thousands of mistakes would otherwise build every sentence to throw it away.
    @discardableResult
    mutating func fail(_ rule: RuleID, at span: Span, _ message: @autoclosure () -> String,
                       help: @autoclosure () -> String? = nil) -> Decoded? {
        guard diagnostics.count < room else {
            suppressed += 1
            return nil
        }
        diagnostics.append(Diagnostic(span: span, severity: .error, rule: rule.rawValue, message: message(), help: help()))
        return nil
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
        case .list(let items): return "[" + items.map(\.value.identity).joined(separator: ",") + "]"
        case .object(let entries):
            let keyed = entries.map { "s\($0.key.utf8.count):\($0.key)=" + $0.value.value.identity }.sorted(by: utf8Precedes)
            return "{" + keyed.joined(separator: ",") + "}"
        }
    }
}

/// How a value is named in messages ("'timeout'", "an item of 'retryOn'"), written out only when a
/// message is made: making the names of every value up front cost more than decoding most values.
enum Label: CustomStringConvertible {
    case plain(String)
    /// A key of the language: no character to neutralise.
    case quoted(String)
    /// A key from the file, such as a profile name.
    case quotedPrintable(String)
    case profile(String)
    indirect case itemOf(Label)

    var description: String {
        switch self {
        case .plain(let s): return s
        case .quoted(let s): return "'\(s)'"
        case .quotedPrintable(let s): return "'\(printable(s))'"
        case .profile(let s): return "profile '\(printable(s))'"
        case .itemOf(let l): return "an item of \(l)"
        }
    }
}

/// Where a list's items were first seen, by identity: a short list is scanned (most lists hold a
/// few items, and hashing their identities cost more), a long one is hashed so it stays linear.
/// The scan compares values without writing their identities out (see `sameIdentity`).
///
/// Text is the same only when its bytes are (see `sameText`): the codes "\u{958}" and
/// "\u{915}\u{93C}" are two items, as they are to the server and the generated code.
struct FirstSeen {
    /// The identities of `earlier[0..<indexed]`, made once a list is long: the values themselves,
    /// hashed and compared as their identities would be (writing each identity out cost a string
    /// per item, and a list of 30 000 exceptions held all of them).
    private var many: [Identity: Span] = [:]
    private var indexed = 0
    static let scanned = 16

    /// Where an item of `earlier` had the identity of `value`, if one did. `earlier` is the list's
    /// items kept so far, in order, and only grows: each is the first of its identity (a repeat is
    /// not kept), so they are exactly the firsts.
    mutating func repeatOf(_ value: Decoded.Value, among earlier: [Decoded]) -> Span? {
        guard earlier.count >= Self.scanned else {
            for i in earlier.indices where Self.sameIdentity(earlier[i].value, value) { return earlier[i].span }
            return nil
        }
        if indexed == 0 { many.reserveCapacity(Self.scanned * 4) }
        while indexed < earlier.count {
            many[Identity(value: earlier[indexed].value)] = earlier[indexed].span
            indexed += 1
        }
        return many[Identity(value: value)]
    }

    /// A value as a key by its identity: equal exactly when `sameIdentity` says so.
    struct Identity: Hashable {
        var value: Decoded.Value

        static func == (a: Identity, b: Identity) -> Bool { FirstSeen.sameIdentity(a.value, b.value) }

        func hash(into hasher: inout Hasher) { FirstSeen.hashIdentity(value, into: &hasher) }
    }

    /// Hashes what `identity` writes out: the case and payload, items in order, an object's
    /// entries in any order (their hashes summed), text by its bytes.
    static func hashIdentity(_ value: Decoded.Value, into hasher: inout Hasher) {
        switch value {
        case .integer(let v):
            hasher.combine(0 as UInt8)
            hasher.combine(v)
        case .string(let v):
            hasher.combine(1 as UInt8)
            hasher.combine(ExactText(v))
        case .boolean(let v):
            hasher.combine(2 as UInt8)
            hasher.combine(v)
        case .duration(let v):
            hasher.combine(3 as UInt8)
            hasher.combine(v)
        case .percent(let p):
            hasher.combine(4 as UInt8)
            hasher.combine(ExactText(p.canonical))
        case .network:
            hasher.combine(5 as UInt8)
        case .list(let items):
            hasher.combine(6 as UInt8)
            hasher.combine(items.count)
            for i in items.indices { hashIdentity(items[i].value, into: &hasher) }
        case .object(let entries):
            hasher.combine(7 as UInt8)
            hasher.combine(entries.count)
            var sum = 0
            for i in entries.indices {
                var one = Hasher()
                one.combine(ExactText(entries[i].key))
                hashIdentity(entries[i].value.value, into: &one)
                sum &+= one.finalize()
            }
            hasher.combine(sum)
        }
    }

    /// Whether two values have one `identity`, without writing it out: scalars by case and
    /// payload, lists item by item, objects as the same entries in any order. (Text compares by
    /// bytes, so no equality can join across the parts of an identity.)
    static func sameIdentity(_ a: Decoded.Value, _ b: Decoded.Value) -> Bool {
        switch (a, b) {
        case (.list(let x), .list(let y)):
            guard x.count == y.count else { return false }
            for i in x.indices where !sameIdentity(x[i].value, y[i].value) { return false }
            return true
        case (.object(let x), .object(let y)):
            // The identity sorts the entries, so their order does not count: the same entries, each
            // met as often in one object as in the other.
            guard x.count == y.count else { return false }
            func same(_ e: DecodedEntry, _ f: DecodedEntry) -> Bool {
                sameText(e.key, f.key) && sameIdentity(e.value.value, f.value.value)
            }
            for e in x where x.count(where: { same($0, e) }) != y.count(where: { same($0, e) }) { return false }
            return true
        case (.list, _), (.object, _), (_, .list), (_, .object):
            return false
        default:
            return sameScalar(a, b)
        }
    }

    /// Whether two scalars have one identity, without writing it out.
    static func sameScalar(_ a: Decoded.Value, _ b: Decoded.Value) -> Bool {
        switch (a, b) {
        case (.integer(let x), .integer(let y)), (.duration(let x), .duration(let y)): return x == y
        case (.boolean(let x), .boolean(let y)): return x == y
        case (.percent(let x), .percent(let y)): return x.canonical == y.canonical
        case (.network, .network): return true
        // As the identities "s<count>:<text>" compare: the same bytes.
        case (.string(let x), .string(let y)): return sameText(x, y)
        default: return false
        }
    }
}
