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
        public var kind: Located<String>?
        public var maxRetries: Located<Int>?
        public var base: Located<Int>?
        public var cap: Located<Int>?
        public var timeout: Located<Int>?
        public var deadline: Located<Int>?

        public var isInteractive: Bool { kind?.value == "interactive" }
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
    public var backoff: Located<String>?
    public var retryAfterHonor: Located<Bool>?
    public var retryAfterMaxJitter: Located<Int>?
    public var budgetRatio: Located<Percent>?
    public var budgetMinPerMinute: Located<Int>?
    public var prefetchAhead: Located<Int>?
    public var prefetchOnlyUnlocked: Located<Bool>?
    public var prefetchRetryRefused: Located<Bool>?
    public var reuseKey: Located<[Located<String>]>?
    /// False when an item of `reuseKey` did not decode.
    public var reuseKeyComplete = true
    public var stopReuseBefore: Located<Int>?
    public var viewerRef: Located<String>?

    public init() {}

    init(_ root: Decoded?) {
        guard let root else { return }
        version = root["version"]?.int
        policy = root["policy"]?.string
        description = root["description"]?.string
        let retry = root["retry"]
        if let profiles = retry?["profiles"], case .object(let entries) = profiles.value {
            profilesSpan = profiles.span
            self.profiles = entries.map { e in
                let p = e.value
                return Profile(
                    name: Located(e.key, e.keySpan), kind: p["kind"]?.string, maxRetries: p["maxRetries"]?.int,
                    base: p["base"]?.duration, cap: p["cap"]?.duration, timeout: p["timeout"]?.duration,
                    deadline: p["deadline"]?.duration)
            }
        }
        if let list = retry?["retryOn"], case .list(let items) = list.value {
            retryOn = Located(items.compactMap { item in
                switch item.value {
                case .network: return Located(RetryOn.network, item.span)
                case .integer(let status): return Located(RetryOn.status(status), item.span)
                default: return nil
                }
            }, list.span)
            retryOnComplete = list.complete
        }
        if let list = retry?["neverRetry"], case .list(let items) = list.value {
            let decoded = items.map {
                NeverRetry(status: $0["status"]?.int, code: $0["code"]?.string, span: $0.span)
            }
            neverRetry = Located(decoded, list.span)
            neverRetryComplete = list.complete && decoded.allSatisfy { $0.status != nil && $0.code != nil }
        } else if retry?.failedKeys.contains("neverRetry") == true {
            neverRetryComplete = false
        }
        backoff = retry?["backoff"]?.string
        retryAfterHonor = retry?["retryAfter"]?["honor"]?.bool
        retryAfterMaxJitter = retry?["retryAfter"]?["maxJitter"]?.duration
        if let ratio = retry?["budget"]?["ratio"], case .percent(let p) = ratio.value {
            budgetRatio = Located(p, ratio.span)
        }
        budgetMinPerMinute = retry?["budget"]?["minPerMinute"]?.int
        prefetchAhead = root["prefetch"]?["ahead"]?.int
        prefetchOnlyUnlocked = root["prefetch"]?["onlyUnlocked"]?.bool
        prefetchRetryRefused = root["prefetch"]?["retryRefused"]?.bool
        if let list = root["tickets"]?["reuseKey"], case .list(let items) = list.value {
            reuseKey = Located(items.compactMap { $0.string }, list.span)
            reuseKeyComplete = list.complete
        }
        stopReuseBefore = root["tickets"]?["stopReuseBefore"]?.duration
        viewerRef = root["tickets"]?["viewerRef"]?.string
    }
}

extension Decoded {
    var int: Located<Int>? { if case .integer(let v) = value { return Located(v, span) }; return nil }
    var string: Located<String>? { if case .string(let v) = value { return Located(v, span) }; return nil }
    var bool: Located<Bool>? { if case .boolean(let v) = value { return Located(v, span) }; return nil }
    var duration: Located<Int>? { if case .duration(let v) = value { return Located(v, span) }; return nil }
}
