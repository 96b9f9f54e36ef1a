import PolicySource
import PolicyCheck

/// What every client of a run does, from one profile of a policy: exactly the generated code's
/// `isRetryable`, `backoffMs` and `RetryBudget`, as numbers the engine reads without lookups.
struct ClientRules: Sendable {
    var maxRetries: Int
    var baseMs: Double
    var capMs: Double
    var timeoutNs: Int64
    var deadlineNs: Int64
    var strategy: Backoff
    var honorRetryAfter: Bool
    var maxJitterMs: Double
    var budgetRatio: Double
    var budgetFloor: Double
    var retryNetwork: Bool
    /// isRetryable(status:errorCode: nil) for every status 0 ... 599, a bit each. The simulated
    /// answers carry no error code, so a `neverRetry` pair (which always names one) never matches
    /// them. Plain bits, not an array: the rules of a run's groups sit in raw storage.
    var retryable: StatusBits

    init(policy: Policy, profile: Policy.Profile) {
        maxRetries = max(0, profile.maxRetries)
        baseMs = Double(profile.baseMs)
        capMs = Double(profile.capMs)
        timeoutNs = ClientRules.nanoseconds(ms: profile.timeoutMs)
        deadlineNs = ClientRules.nanoseconds(ms: profile.deadlineMs)
        strategy = policy.backoff
        honorRetryAfter = policy.retryAfterHonor
        maxJitterMs = Double(policy.retryAfterMaxJitterMs)
        budgetRatio = policy.budgetRatio.ratio
        budgetFloor = Double(policy.budgetMinPerMinute)
        retryNetwork = policy.retryOnNetwork
        let statuses = Set(policy.retryStatuses)
        // As the generated isRetryable with no error code: no neverRetry pair matches, so the
        // statuses of retryOn decide.
        retryable = StatusBits(statuses)
    }

    /// Milliseconds as nanoseconds, held under 10^12 ms (31 years: longer than any run, so as good
    /// as forever) to stay far from Int64's end.
    static func nanoseconds(ms: Int) -> Int64 {
        Int64(min(max(0, ms), 1_000_000_000_000)) * 1_000_000
    }

    @inline(__always)
    func isRetryable(status: Int) -> Bool {
        retryable.contains(status)
    }

    /// The wait before retry number `attempt` (0-based), in milliseconds: a positive Retry-After plus
    /// up to maxJitter when honored, else the strategy under the cap with v = min(cap, base·2^attempt).
    /// Draws from `random` once for the jittered strategies and Retry-After, never otherwise.
    @inline(__always)
    func backoffMs(attempt: Int, retryAfterMs: Int, random: inout RandomStream) -> Double {
        let draws = (honorRetryAfter && retryAfterMs > 0) || strategy == .fullJitter || strategy == .equalJitter
        return backoffMs(attempt: attempt, retryAfterMs: Double(retryAfterMs), unit: draws ? random.unit() : 0)
    }

    /// The same with the draw given (`unit` in [0, 1), what the generated code's `random()` returns).
    @inline(__always)
    func backoffMs(attempt: Int, retryAfterMs: Double, unit: Double) -> Double {
        if honorRetryAfter, retryAfterMs > 0 {
            return retryAfterMs + unit * maxJitterMs
        }
        // 2^attempt exactly, as a double: infinite past its range, so min() gives the cap.
        let growth = Double(sign: .plus, exponent: attempt, significand: 1)
        let v = min(capMs, baseMs * growth)
        switch strategy {
        case .fullJitter: return unit * v
        case .equalJitter: return v / 2 + unit * (v / 2)
        case .exponential: return v
        case .constant: return baseMs
        }
    }
}

/// A set of the statuses 0 ... 599 as 640 bits, a plain value.
struct StatusBits: Sendable, Hashable {
    private var words: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) =
        (0, 0, 0, 0, 0, 0, 0, 0, 0, 0)

    init(_ statuses: Set<Int>) {
        for s in statuses where s >= 0 && s < 600 {
            withUnsafeMutableBytes(of: &words) { raw in
                let p = raw.baseAddress!.assumingMemoryBound(to: UInt64.self)
                p[s >> 6] |= 1 << UInt64(s & 63)
            }
        }
    }

    @inline(__always)
    func contains(_ status: Int) -> Bool {
        guard status >= 0 && status < 600 else { return false }
        return withUnsafeBytes(of: words) { raw in
            raw.load(fromByteOffset: (status >> 6) * 8, as: UInt64.self) >> UInt64(status & 63) & 1 == 1
        }
    }

    static func == (a: StatusBits, b: StatusBits) -> Bool {
        withUnsafeBytes(of: a.words) { x in withUnsafeBytes(of: b.words) { y in x.elementsEqual(y) } }
    }

    func hash(into hasher: inout Hasher) {
        withUnsafeBytes(of: words) { hasher.combine(bytes: $0) }
    }
}
