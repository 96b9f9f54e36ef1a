import PolicySource

/// A complete, checked policy: what the generators, `explain` and `diff` work from.
/// Built only from a `PolicyDoc` that has every value (see `PolicyDoc.complete`).
public struct Policy: Sendable, Hashable {
    public struct Profile: Sendable, Hashable {
        public var name: String
        public var kind: ProfileKind
        public var maxRetries: Int
        public var baseMs: Int
        public var capMs: Int
        public var timeoutMs: Int
        public var deadlineMs: Int
        /// The line of the profile's key, for generated documentation.
        public var line: Int

        public var isInteractive: Bool { kind == .interactive }

        public init(name: String, kind: ProfileKind, maxRetries: Int, baseMs: Int, capMs: Int, timeoutMs: Int, deadlineMs: Int, line: Int) {
            self.name = name
            self.kind = kind
            self.maxRetries = maxRetries
            self.baseMs = baseMs
            self.capMs = capMs
            self.timeoutMs = timeoutMs
            self.deadlineMs = deadlineMs
            self.line = line
        }
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
    public var backoff: Backoff
    public var retryAfterHonor: Bool
    public var retryAfterMaxJitterMs: Int
    public var budgetRatio: Percent
    public var budgetMinPerMinute: Int
    public var prefetchAhead: Int
    public var prefetchOnlyUnlocked: Bool
    public var prefetchRetryRefused: Bool
    public var reuseKey: [ReuseKeyPart]
    public var stopReuseBeforeMs: Int
    public var viewerRef: ViewerRef
    /// Source line of each key, by dotted path (`retry.budget.ratio`), for generated documentation.
    public var lines: [String: Int] {
        didSet { keyLineBox = KeyLineBox(KeyLines(lines)) }
    }
    /// The same lines, key by key: the generators cite ~40 keys a policy, and hashing a path for
    /// each cost more than writing the line.
    package var keyLines: KeyLines { keyLineBox.lines }
    /// Boxed: each `CheckedFile` holds a whole `Policy`, and fifteen optionals more in it made
    /// linting copy more.
    fileprivate var keyLineBox: KeyLineBox
    /// The policy's waivers that are whole (rule, reason, owner, expiry), in the order written:
    /// generated files record them for an app's reviewers.
    public var waivers: [Waiver] = []
    /// The files it extends, each once, in the order they were read (`extends`): its values are
    /// the effective ones, and generated headers name them.
    public var parents: [String] = []

    public struct Waiver: Sendable, Hashable {
        public var rule: String
        public var at: String?
        public var allow: String?
        public var reason: String
        public var owner: String
        public var expires: String
    }
}

/// `KeyLines` behind a reference, never changed once made.
final class KeyLineBox: Sendable, Hashable {
    let lines: KeyLines

    init(_ lines: KeyLines) {
        self.lines = lines
    }

    static func == (a: KeyLineBox, b: KeyLineBox) -> Bool { a.lines == b.lines }

    func hash(into hasher: inout Hasher) { hasher.combine(lines) }
}

/// The source line of each key that generated documentation cites (see `Policy.lines`).
package struct KeyLines: Sendable, Hashable {
    package var policy, description, retryOn, neverRetry, backoff, retryAfterHonor, retryAfterMaxJitter,
        budgetRatio, budgetMinPerMinute, prefetchAhead, prefetchOnlyUnlocked, prefetchRetryRefused,
        reuseKey, stopReuseBefore, viewerRef: Int?

    init() {}

    /// From `Policy.lines`.
    init(_ lines: [String: Int]) {
        eachPath { path, line in line = lines[path] }
    }

    /// As `Policy.lines` has them.
    var byPath: [String: Int] {
        // Room for all at once: growing from empty rehashed it several times.
        var lines = [String: Int](minimumCapacity: 15)
        var copy = self
        copy.eachPath { path, line in if let line { lines[path] = line } }
        return lines
    }

    /// Each key's dotted path, with its line: the one table of both.
    private mutating func eachPath(_ body: (String, inout Int?) -> Void) {
        body("policy", &policy)
        body("description", &description)
        body("retry.retryOn", &retryOn)
        body("retry.neverRetry", &neverRetry)
        body("retry.backoff", &backoff)
        body("retry.retryAfter.honor", &retryAfterHonor)
        body("retry.retryAfter.maxJitter", &retryAfterMaxJitter)
        body("retry.budget.ratio", &budgetRatio)
        body("retry.budget.minPerMinute", &budgetMinPerMinute)
        body("prefetch.ahead", &prefetchAhead)
        body("prefetch.onlyUnlocked", &prefetchOnlyUnlocked)
        body("prefetch.retryRefused", &prefetchRetryRefused)
        body("tickets.reuseKey", &reuseKey)
        body("tickets.stopReuseBefore", &stopReuseBefore)
        body("tickets.viewerRef", &viewerRef)
    }
}

extension PolicyDoc {
    /// The complete policy, or nil when any required value is missing or did not decode.
    public func complete(file: String) -> Policy? {
        // A base is completed only in its children (not generated, simulated or explained alone).
        guard !isAbstract, let policy, let retryOn, let backoff, let retryAfterHonor, let retryAfterMaxJitter,
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
        func line<T>(_ value: Located<T>?) -> Int? { value?.span.start.line }
        var at = KeyLines()
        at.policy = line(policy)
        at.description = line(description)
        at.retryOn = line(retryOn)
        at.neverRetry = line(neverRetry)
        at.backoff = line(backoff)
        at.retryAfterHonor = line(retryAfterHonor)
        at.retryAfterMaxJitter = line(retryAfterMaxJitter)
        at.budgetRatio = line(budgetRatio)
        at.budgetMinPerMinute = line(budgetMinPerMinute)
        at.prefetchAhead = line(prefetchAhead)
        at.prefetchOnlyUnlocked = line(prefetchOnlyUnlocked)
        at.prefetchRetryRefused = line(prefetchRetryRefused)
        at.reuseKey = line(reuseKey)
        at.stopReuseBefore = line(stopReuseBefore)
        at.viewerRef = line(viewerRef)
        var complete = Policy(
            file: file, name: policy.value, description: description?.value, profiles: profiles,
            retryOnNetwork: retryOn.value.contains { $0.value == .network },
            retryStatuses: retryOn.value.compactMap { if case .status(let s) = $0.value { return s } else { return nil } },
            neverRetry: never, backoff: backoff.value, retryAfterHonor: retryAfterHonor.value,
            retryAfterMaxJitterMs: retryAfterMaxJitter.value, budgetRatio: budgetRatio.value,
            budgetMinPerMinute: budgetMinPerMinute.value, prefetchAhead: prefetchAhead.value,
            prefetchOnlyUnlocked: prefetchOnlyUnlocked.value, prefetchRetryRefused: prefetchRetryRefused.value,
            reuseKey: reuseKey.value.map(\.value), stopReuseBeforeMs: stopReuseBefore.value,
            viewerRef: viewerRef.value, lines: at.byPath, keyLineBox: KeyLineBox(at))
        for w in waivers?.value ?? [] {
            guard let rule = w.rule, let reason = w.reason, let owner = w.owner, let expires = w.expires else { continue }
            complete.waivers.append(Policy.Waiver(rule: rule.value, at: w.at?.value, allow: w.allow?.value,
                                                  reason: reason.value, owner: owner.value, expires: expires.value))
        }
        return complete
    }
}
