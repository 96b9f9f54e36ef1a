import PolicySource

/// Where a list's items were first seen, by identity: a short list is scanned (most lists hold a
/// few items, and hashing their identities cost more), a long one is hashed so it stays linear.
/// The scan compares values without writing their identities out (see `sameIdentity`).
///
/// Text is the same only when its bytes are (see `sameText`): the codes "\u{958}" and
/// "\u{915}\u{93C}" are two items, as they are to the server and the generated code.
struct FirstSeen {
    /// The items of `earlier` by the hash of their identity, once a list is long: indices, not
    /// the values (a dictionary of the values retained and released each at every step).
    private var many = HashIndex()
    /// The hash of the value last asked about, by the index it takes in `earlier` when it is not
    /// a repeat (the caller then keeps it there): found by, then placed by, one hash. Hashing each
    /// item twice is a large share of decoding a long list of `neverRetry` exceptions.
    private var asked: (hash: UInt64, index: Int)?
    static let scanned = 16

    init() {}

    /// Where an item of `earlier` had the identity of `value`, if one did. `earlier` is the list's
    /// items kept so far, in order, and only grows: each is the first of its identity (a repeat is
    /// not kept), so they are exactly the firsts.
    mutating func repeatOf(_ value: Decoded.Value, among earlier: [Decoded]) -> Span? {
        guard earlier.count >= Self.scanned else {
            for i in earlier.indices where Self.sameIdentity(earlier[i].value, value) { return earlier[i].span }
            return nil
        }
        while many.count < earlier.count {
            let index = many.count
            let hash = asked.flatMap { $0.index == index ? $0.hash : nil } ?? Self.hash(earlier[index].value)
            many.insert(hash: hash, index: index)
        }
        let hash = Self.hash(value)
        asked = (hash, earlier.count)
        return many.find(hash: hash) { Self.sameIdentity(earlier[$0].value, value) }.map { earlier[$0].span }
    }

    static func hash(_ value: Decoded.Value) -> UInt64 {
        var hasher = Hasher()
        hashIdentity(value, into: &hasher)
        return hasher.finalize64()
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
        case .decimal(let v):
            hasher.combine(8 as UInt8)
            // 0.0 and -0.0 are one value, as `==` says.
            hasher.combine(v == 0 ? 0 : v)
        case .list(let items):
            hasher.combine(6 as UInt8)
            hasher.combine(items.count)
            for i in items.indices { hashIdentity(items[i].value, into: &hasher) }
        case .object(let entries):
            hasher.combine(7 as UInt8)
            hasher.combine(entries.count)
            // In the order of their keys' bytes: one hasher for the object. An object's keys are
            // distinct (the loader drops a repeated key), so that order is the same for the same
            // entries in any order; a hasher for each entry, summed, was two thirds of hashing a
            // `neverRetry` exception. Were two keys the same, the entries' hashes are summed.
            if entries.count <= Self.sortedEntriesMaximum {
                let hashed = withUnsafeTemporaryAllocation(of: Int.self, capacity: entries.count) { order -> Bool in
                    for i in order.indices {
                        // By insertion: an exception has two entries.
                        var j = i
                        while j > 0, utf8Precedes(entries[i].key, entries[order[j - 1]].key) {
                            order[j] = order[j - 1]
                            j -= 1
                        }
                        order[j] = i
                    }
                    for i in order.indices.dropFirst() where sameText(entries[order[i]].key, entries[order[i - 1]].key) {
                        return false
                    }
                    for i in order {
                        hasher.combine(ExactText(entries[i].key))
                        hashIdentity(entries[i].value.value, into: &hasher)
                    }
                    return true
                }
                if hashed { return }
            }
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

    /// Objects of up to this many entries hash them in the order of their keys (see `hashIdentity`).
    static let sortedEntriesMaximum = 8

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
        case (.decimal(let x), .decimal(let y)): return x == y
        // As the identities "s<count>:<text>" compare: the same bytes.
        case (.string(let x), .string(let y)): return sameText(x, y)
        default: return false
        }
    }
}
