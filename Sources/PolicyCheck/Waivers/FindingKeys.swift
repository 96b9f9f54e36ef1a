import PolicySource

/// A value a finding points at, typed as the policy has it: what a waiver's `allow` and a
/// baseline entry are compared with.
public enum FindingValue: Sendable, Hashable, CustomStringConvertible {
    case integer(Int)
    case duration(Int)
    case percent(Percent)
    case boolean(Bool)
    case text(String)

    /// As a policy writes it (`4`, `12s`, `15%`): the baseline records this.
    public var description: String {
        switch self {
        case .integer(let n): return String(n)
        case .duration(let ms): return Format.duration(ms)
        case .percent(let p): return Format.percent(p)
        case .boolean(let b): return b ? "true" : "false"
        case .text(let s): return s
        }
    }

    /// Whether `written` (a waiver's `allow`) is this value, in any spelling of its type.
    public func matches(_ written: String) -> Bool {
        switch self {
        case .integer(let n):
            if case .value(let v) = Values.integer(written) { return v == n }
            return false
        case .duration(let ms):
            if case .value(let v) = Values.duration(written) { return v == ms }
            return false
        case .percent(let p):
            if case .value(let v) = Values.percent(written) { return Percent.compare(v, p) == 0 }
            return false
        case .boolean(let b):
            if case .value(let v) = Values.boolean(written) { return v == b }
            return false
        case .text(let s):
            return sameText(s, written)
        }
    }
}

/// The key path and value of what each limit finding can point at, by where it starts: a
/// finding carries only its span, and waivers and the baseline name findings by path.
public struct FindingKeys: Sendable {
    public struct Entry: Sendable {
        public var path: String
        public var value: FindingValue?
    }

    private var byStart: [Mark: Entry] = [:]
    /// Every path, in the file's order, for did-you-mean.
    public private(set) var paths: [String] = []

    public init(_ doc: PolicyDoc) {
        func add(_ path: String, _ span: Span?, _ value: FindingValue?) {
            guard let span else { return }
            paths.append(path)
            if byStart[span.start] == nil { byStart[span.start] = Entry(path: path, value: value) }
        }
        add("version", doc.version?.span, doc.version.map { .integer($0.value) })
        add("policy", doc.policy?.span, doc.policy.map { .text($0.value) })
        for profile in doc.profiles {
            let base = "retry.profiles." + profile.name.value
            add(base, profile.name.span, nil)
            add(base + ".kind", profile.kind?.span, profile.kind.map { .text($0.value.rawValue) })
            add(base + ".maxRetries", profile.maxRetries?.span, profile.maxRetries.map { .integer($0.value) })
            add(base + ".base", profile.base?.span, profile.base.map { .duration($0.value) })
            add(base + ".cap", profile.cap?.span, profile.cap.map { .duration($0.value) })
            add(base + ".timeout", profile.timeout?.span, profile.timeout.map { .duration($0.value) })
            add(base + ".deadline", profile.deadline?.span, profile.deadline.map { .duration($0.value) })
        }
        if let retryOn = doc.retryOn {
            add("retry.retryOn", retryOn.span, nil)
            for item in retryOn.value {
                switch item.value {
                case .network: add("retry.retryOn", item.span, .text("network"))
                case .status(let s): add("retry.retryOn", item.span, .integer(s))
                }
            }
        }
        if let never = doc.neverRetry {
            add("retry.neverRetry", never.span, nil)
            for item in never.value { add("retry.neverRetry", item.span, nil) }
        }
        add("retry.backoff", doc.backoff?.span, doc.backoff.map { .text($0.value.rawValue) })
        add("retry.retryAfter.honor", doc.retryAfterHonor?.span, doc.retryAfterHonor.map { .boolean($0.value) })
        add("retry.retryAfter.maxJitter", doc.retryAfterMaxJitter?.span, doc.retryAfterMaxJitter.map { .duration($0.value) })
        add("retry.budget.ratio", doc.budgetRatio?.span, doc.budgetRatio.map { .percent($0.value) })
        add("retry.budget.minPerMinute", doc.budgetMinPerMinute?.span, doc.budgetMinPerMinute.map { .integer($0.value) })
        add("prefetch.ahead", doc.prefetchAhead?.span, doc.prefetchAhead.map { .integer($0.value) })
        add("prefetch.onlyUnlocked", doc.prefetchOnlyUnlocked?.span, doc.prefetchOnlyUnlocked.map { .boolean($0.value) })
        add("prefetch.retryRefused", doc.prefetchRetryRefused?.span, doc.prefetchRetryRefused.map { .boolean($0.value) })
        if let reuseKey = doc.reuseKey {
            add("tickets.reuseKey", reuseKey.span, nil)
            for item in reuseKey.value { add("tickets.reuseKey", item.span, .text(item.value.rawValue)) }
        }
        add("tickets.stopReuseBefore", doc.stopReuseBefore?.span, doc.stopReuseBefore.map { .duration($0.value) })
        add("tickets.viewerRef", doc.viewerRef?.span, doc.viewerRef.map { .text($0.value.rawValue) })
    }

    /// The key path and value a finding at `start` points at; nil when it points at none.
    public func entry(at start: Mark) -> Entry? { byStart[start] }

    /// Whether a waiver's `at` names a key path of the policy (or a part of one).
    public func knows(_ path: String) -> Bool {
        paths.contains { $0 == path || $0.hasPrefix(path + ".") }
    }
}
