import PolicySource

/// A value with the span it was written at.
public struct Located<T: Sendable & Hashable>: Sendable, Hashable {
    public var value: T
    public var span: Span

    public init(_ value: T, _ span: Span) {
        self.value = value
        self.span = span
    }
}

public enum RetryOn: Sendable, Hashable {
    case network
    case status(Int)
}

/// What a file said, typed, with positions. Every value is optional: a key that is missing or did
/// not decode is nil, and the rules check only what is there. `Policy` is the complete form.
public struct PolicyDoc: Sendable, Hashable {
    public struct Profile: Sendable, Hashable {
        /// The profile's key: its name and where it was written.
        public var name: Located<String>
        public var kind: Located<ProfileKind>? {
            get { fields.kind }
            set { update { $0.kind = newValue } }
        }
        public var maxRetries: Located<Int>? {
            get { fields.maxRetries }
            set { update { $0.maxRetries = newValue } }
        }
        public var base: Located<Int>? {
            get { fields.base }
            set { update { $0.base = newValue } }
        }
        public var cap: Located<Int>? {
            get { fields.cap }
            set { update { $0.cap = newValue } }
        }
        public var timeout: Located<Int>? {
            get { fields.timeout }
            set { update { $0.timeout = newValue } }
        }
        public var deadline: Located<Int>? {
            get { fields.deadline }
            set { update { $0.deadline = newValue } }
        }

        /// The values, on the heap and absent while there are none: six located values inline made
        /// every profile large, and a 1 MiB file of empty profiles held most of its memory in them.
        private var stored: Stored?
        private indirect enum Stored: Sendable, Hashable { case fields(Fields) }

        private struct Fields: Sendable, Hashable {
            var kind: Located<ProfileKind>?
            var maxRetries, base, cap, timeout, deadline: Located<Int>?
        }

        private var fields: Fields {
            if case .fields(let fields) = stored { return fields }
            return Fields()
        }

        private mutating func update(_ change: (inout Fields) -> Void) {
            var fields = self.fields
            change(&fields)
            stored = fields == Fields() ? nil : .fields(fields)
        }

        public init(name: Located<String>, kind: Located<ProfileKind>? = nil, maxRetries: Located<Int>? = nil,
                    base: Located<Int>? = nil, cap: Located<Int>? = nil, timeout: Located<Int>? = nil,
                    deadline: Located<Int>? = nil) {
            self.name = name
            let fields = Fields(kind: kind, maxRetries: maxRetries, base: base, cap: cap, timeout: timeout, deadline: deadline)
            stored = fields == Fields() ? nil : .fields(fields)
        }

        public var isInteractive: Bool { kind?.value == .interactive }
    }

    /// An entry of `waivers`, as written: each field nil when absent or not decoded.
    public struct Waiver: Sendable, Hashable {
        public var rule: Located<String>?
        public var at: Located<String>?
        public var allow: Located<String>?
        public var reason: Located<String>?
        public var owner: Located<String>?
        public var expires: Located<String>?
        /// The entry itself (from its `- `'s item to its last value).
        public var span: Span
        /// The entry's index in the list, for a fix that removes it.
        public var index: Int
    }

    public struct NeverRetry: Sendable, Hashable {
        public var status: Located<Int>?
        public var code: Located<String>?
        public var span: Span
    }

    public var version: Located<Int>?
    public var policy: Located<String>?
    public var description: Located<String>?
    /// The `profiles` mapping itself (nil when missing or not a mapping) and the profiles in order.
    public var profilesSpan: Span?
    public var profiles: [Profile] = []
    public var retryOn: Located<[Located<RetryOn>]>?
    /// False when an item of `retryOn` did not decode: what the list lacks is then unknown.
    public var retryOnComplete = true
    /// nil when `neverRetry` is absent (it is optional) or did not decode; see `neverRetryComplete`.
    public var neverRetry: Located<[NeverRetry]>?
    /// False when `neverRetry` was written but it, an item, or an item's status or code did not
    /// decode: rules then cannot tell which exceptions it holds.
    public var neverRetryComplete = true
    public var backoff: Located<Backoff>?
    public var retryAfterHonor: Located<Bool>?
    public var retryAfterMaxJitter: Located<Int>?
    public var budgetRatio: Located<Percent>?
    public var budgetMinPerMinute: Located<Int>?
    public var prefetchAhead: Located<Int>?
    public var prefetchOnlyUnlocked: Located<Bool>?
    public var prefetchRetryRefused: Located<Bool>?
    public var reuseKey: Located<[Located<ReuseKeyPart>]>?
    /// False when an item of `reuseKey` did not decode.
    public var reuseKeyComplete = true
    public var stopReuseBefore: Located<Int>?
    public var viewerRef: Located<ViewerRef>?
    /// `waivers` (nil when absent or not a list).
    public var waivers: Located<[Waiver]>?
    /// `abstract` (nil when absent or not a boolean): a base that only other policies use.
    public var abstract: Located<Bool>?

    /// Whether the file is a base only (`abstract: true`): not generated, simulated or explained alone.
    public var isAbstract: Bool { abstract?.value == true }

    public init() {}

    /// One pass over each decoded mapping, by key: looking every key up by name copied the
    /// decoded values over and over. Keys of a decoded mapping are unique (the loader drops
    /// repeated keys), so each case is met at most once. Entries are read by index, here and
    /// below: iterating copies each entry, its decoded value with it.
    init(_ root: Decoded?) {
        guard let root, case .object(let top) = root.value else { return }
        for i in top.indices {
            switch top[i].key {
            case "version": version = top[i].value.int
            case "policy": policy = top[i].value.string
            case "description": description = top[i].value.string
            case "abstract": abstract = top[i].value.bool
            case "retry": readRetry(top[i].value)
            case "prefetch":
                guard case .object(let entries) = top[i].value.value else { break }
                for j in entries.indices {
                    switch entries[j].key {
                    case "ahead": prefetchAhead = entries[j].value.int
                    case "onlyUnlocked": prefetchOnlyUnlocked = entries[j].value.bool
                    case "retryRefused": prefetchRetryRefused = entries[j].value.bool
                    default: break
                    }
                }
            case "tickets":
                guard case .object(let entries) = top[i].value.value else { break }
                for j in entries.indices {
                    switch entries[j].key {
                    case "reuseKey":
                        if case .list(let items) = entries[j].value.value {
                            reuseKey = Located(items.compactMap { $0.choice(ReuseKeyPart.self) }, entries[j].value.span)
                            reuseKeyComplete = entries[j].value.complete
                        }
                    case "stopReuseBefore": stopReuseBefore = entries[j].value.duration
                    case "viewerRef": viewerRef = entries[j].value.choice(ViewerRef.self)
                    default: break
                    }
                }
            case "waivers":
                guard case .list(let items) = top[i].value.value else { break }
                waivers = Located(items.indices.map { item in
                    var waiver = Waiver(span: items[item].span, index: item)
                    if case .object(let fields) = items[item].value {
                        for f in fields.indices {
                            switch fields[f].key {
                            case "rule": waiver.rule = fields[f].value.string
                            case "at": waiver.at = fields[f].value.string
                            case "allow": waiver.allow = fields[f].value.string
                            case "reason": waiver.reason = fields[f].value.string
                            case "owner": waiver.owner = fields[f].value.string
                            case "expires": waiver.expires = fields[f].value.string
                            default: break
                            }
                        }
                    }
                    return waiver
                }, top[i].value.span)
            default: break
            }
        }
    }

    /// `init(_:)` of the only decoded tree, handed over: the profiles are taken out of it and each
    /// profile's decoded values are let go as soon as it is read, so that a file of 50,000
    /// profiles does not hold its decoded values and its document at once.
    init(owning given: consuming Decoded?) {
        var root = consume given
        var taken = Self.takeProfiles(from: &root)
        self.init(root)
        if var profiles = taken.take() {
            self.profiles = Self.readProfiles(&profiles)
        }
    }

    private static func entries(of decoded: Decoded) -> DecodedObject? {
        if case .object(let entries) = decoded.value { return entries }
        return nil
    }

    /// The entries of `retry.profiles`, taken out of `root` (an empty mapping is left, its span
    /// kept): no binding holds them meanwhile, so that they are `root`'s no longer.
    private static func takeProfiles(from root: inout Decoded?) -> [DecodedEntry]? {
        guard var top = root.flatMap(entries(of:)) else { return nil }
        root?.value = .boolean(false)
        defer { root?.value = .object(top) }
        guard let r = top.firstIndex(where: { sameText($0.key, "retry") }), var retry = entries(of: top[r].value) else { return nil }
        top[r].value.value = .boolean(false)
        defer { top[r].value.value = .object(retry) }
        guard let p = retry.firstIndex(where: { sameText($0.key, "profiles") }), let profiles = entries(of: retry[p].value) else { return nil }
        retry[p].value.value = .object(DecodedObject([], failedKeys: profiles.failedKeys))
        return profiles.entries
    }

    /// Each profile read (see `profile`), then its decoded values let go.
    private static func readProfiles(_ profiles: inout [DecodedEntry]) -> [Profile] {
        var read: [Profile] = []
        read.reserveCapacity(profiles.count)
        for i in profiles.indices {
            read.append(Self.profile(profiles[i]))
            profiles[i].value = Decoded(value: .boolean(false), span: profiles[i].value.span)
        }
        return read
    }

    private mutating func readRetry(_ retry: Decoded) {
        guard case .object(let entries) = retry.value else { return }
        for i in entries.indices {
            switch entries[i].key {
            case "profiles":
                guard case .object(let profiles) = entries[i].value.value else { break }
                profilesSpan = entries[i].value.span
                self.profiles = profiles.indices.map { Self.profile(profiles[$0]) }
            case "retryOn":
                guard case .list(let items) = entries[i].value.value else { break }
                // Sized once: compactMap grows its result an item at a time.
                var retryOn: [Located<RetryOn>] = []
                retryOn.reserveCapacity(items.count)
                for item in items.indices {
                    switch items[item].value {
                    case .network: retryOn.append(Located(.network, items[item].span))
                    case .integer(let status): retryOn.append(Located(.status(status), items[item].span))
                    default: break
                    }
                }
                self.retryOn = Located(retryOn, entries[i].value.span)
                retryOnComplete = entries[i].value.complete
            case "neverRetry":
                guard case .list(let items) = entries[i].value.value else { break }
                let decoded = items.indices.map { item in
                    var never = NeverRetry(status: nil, code: nil, span: items[item].span)
                    if case .object(let fields) = items[item].value {
                        for f in fields.indices {
                            switch fields[f].key {
                            case "status": never.status = fields[f].value.int
                            case "code": never.code = fields[f].value.string
                            default: break
                            }
                        }
                    }
                    return never
                }
                neverRetry = Located(decoded, entries[i].value.span)
                neverRetryComplete = entries[i].value.complete && decoded.allSatisfy { $0.status != nil && $0.code != nil }
            case "backoff": backoff = entries[i].value.choice(Backoff.self)
            case "retryAfter":
                guard case .object(let fields) = entries[i].value.value else { break }
                for f in fields.indices {
                    switch fields[f].key {
                    case "honor": retryAfterHonor = fields[f].value.bool
                    case "maxJitter": retryAfterMaxJitter = fields[f].value.duration
                    default: break
                    }
                }
            case "budget":
                guard case .object(let fields) = entries[i].value.value else { break }
                for f in fields.indices {
                    switch fields[f].key {
                    case "ratio": if case .percent(let p) = fields[f].value.value { budgetRatio = Located(p, fields[f].value.span) }
                    case "minPerMinute": budgetMinPerMinute = fields[f].value.int
                    default: break
                    }
                }
            default: break
            }
        }
        // Written but not decoded: which exceptions it holds is unknown.
        if neverRetry == nil, retry.failedKeys.contains("neverRetry") { neverRetryComplete = false }
    }

    private static func profile(_ e: DecodedEntry) -> Profile {
        let name = Located(e.key, e.keySpan)
        guard case .object(let fields) = e.value.value else { return Profile(name: name) }
        var kind: Located<ProfileKind>?, maxRetries: Located<Int>?, base: Located<Int>?, cap: Located<Int>?
        var timeout: Located<Int>?, deadline: Located<Int>?
        for i in fields.indices {
            switch fields[i].key {
            case "kind": kind = fields[i].value.choice(ProfileKind.self)
            case "maxRetries": maxRetries = fields[i].value.int
            case "base": base = fields[i].value.duration
            case "cap": cap = fields[i].value.duration
            case "timeout": timeout = fields[i].value.duration
            case "deadline": deadline = fields[i].value.duration
            default: break
            }
        }
        return Profile(name: name, kind: kind, maxRetries: maxRetries, base: base, cap: cap, timeout: timeout, deadline: deadline)
    }
}

extension Decoded {
    package var int: Located<Int>? { if case .integer(let v) = value { return Located(v, span) }; return nil }
    package var string: Located<String>? { if case .string(let v) = value { return Located(v, span) }; return nil }
    var bool: Located<Bool>? { if case .boolean(let v) = value { return Located(v, span) }; return nil }
    /// A choice the decoder checked, as its case.
    func choice<T: RawRepresentable & Sendable & Hashable>(_: T.Type) -> Located<T>? where T.RawValue == String {
        if case .string(let v) = value, let c = T(rawValue: v) { return Located(c, span) }
        return nil
    }
    package var duration: Located<Int>? { if case .duration(let v) = value { return Located(v, span) }; return nil }
}
