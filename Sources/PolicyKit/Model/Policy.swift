/// A complete, checked policy: what the generators, `explain` and `diff` work from.
/// Built only from a `PolicyDoc` that has every value (see `PolicyDoc.complete`).
public struct Policy: Sendable, Hashable {
    public struct Profile: Sendable, Hashable {
        public var name: String
        public var kind: String
        public var maxRetries: Int
        public var baseMs: Int
        public var capMs: Int
        public var timeoutMs: Int
        public var deadlineMs: Int
        /// The line of the profile's key, for generated documentation.
        public var line: Int

        public var isInteractive: Bool { kind == "interactive" }
    }

    public struct NeverRetry: Sendable, Hashable {
        public var status: Int
        public var code: String
    }

    /// The source path as given (relative), for headers and messages.
    public var file: String
    public var name: String
    public var description: String?
    public var profiles: [Profile]
    public var retryOnNetwork: Bool
    /// The statuses of `retryOn`, in the order written.
    public var retryStatuses: [Int]
    public var neverRetry: [NeverRetry]
    public var backoff: String
    public var retryAfterHonor: Bool
    public var retryAfterMaxJitterMs: Int
    public var budgetRatio: Percent
    public var budgetMinPerMinute: Int
    public var prefetchAhead: Int
    public var prefetchOnlyUnlocked: Bool
    public var prefetchRetryRefused: Bool
    public var reuseKey: [String]
    public var stopReuseBeforeMs: Int
    public var viewerRef: String
    /// Source line of each key, by dotted path (`retry.budget.ratio`), for generated documentation.
    public var lines: [String: Int]
}

extension PolicyDoc {
    /// The complete policy, or nil when any required value is missing or did not decode.
    public func complete(file: String) -> Policy? {
        guard let policy, let retryOn, let backoff, let retryAfterHonor, let retryAfterMaxJitter,
              let budgetRatio, let budgetMinPerMinute, let prefetchAhead, let prefetchOnlyUnlocked,
              let prefetchRetryRefused, let reuseKey, let stopReuseBefore, let viewerRef,
              profilesSpan != nil, !profiles.isEmpty
        else { return nil }
        var profiles: [Policy.Profile] = []
        for p in self.profiles {
            guard let kind = p.kind, let maxRetries = p.maxRetries, let base = p.base, let cap = p.cap,
                  let timeout = p.timeout, let deadline = p.deadline else { return nil }
            profiles.append(Policy.Profile(
                name: p.name.value, kind: kind.value, maxRetries: maxRetries.value, baseMs: base.value,
                capMs: cap.value, timeoutMs: timeout.value, deadlineMs: deadline.value, line: p.name.span.start.line))
        }
        var never: [Policy.NeverRetry] = []
        for item in neverRetry?.value ?? [] {
            guard let status = item.status, let code = item.code else { return nil }
            never.append(Policy.NeverRetry(status: status.value, code: code.value))
        }
        var lines: [String: Int] = [:]
        func note<T>(_ path: String, _ value: Located<T>?) { if let value { lines[path] = value.span.start.line } }
        note("policy", policy)
        note("description", description)
        note("retry.retryOn", retryOn)
        note("retry.neverRetry", neverRetry)
        note("retry.backoff", backoff)
        note("retry.retryAfter.honor", retryAfterHonor)
        note("retry.retryAfter.maxJitter", retryAfterMaxJitter)
        note("retry.budget.ratio", budgetRatio)
        note("retry.budget.minPerMinute", budgetMinPerMinute)
        note("prefetch.ahead", prefetchAhead)
        note("prefetch.onlyUnlocked", prefetchOnlyUnlocked)
        note("prefetch.retryRefused", prefetchRetryRefused)
        note("tickets.reuseKey", reuseKey)
        note("tickets.stopReuseBefore", stopReuseBefore)
        note("tickets.viewerRef", viewerRef)
        return Policy(
            file: file, name: policy.value, description: description?.value, profiles: profiles,
            retryOnNetwork: retryOn.value.contains { $0.value == .network },
            retryStatuses: retryOn.value.compactMap { if case .status(let s) = $0.value { return s } else { return nil } },
            neverRetry: never, backoff: backoff.value, retryAfterHonor: retryAfterHonor.value,
            retryAfterMaxJitterMs: retryAfterMaxJitter.value, budgetRatio: budgetRatio.value,
            budgetMinPerMinute: budgetMinPerMinute.value, prefetchAhead: prefetchAhead.value,
            prefetchOnlyUnlocked: prefetchOnlyUnlocked.value, prefetchRetryRefused: prefetchRetryRefused.value,
            reuseKey: reuseKey.value.map(\.value), stopReuseBeforeMs: stopReuseBefore.value,
            viewerRef: viewerRef.value, lines: lines)
    }
}
