import PolicySource
import PolicyCheck
import PolicyReport
import PolicySimulation

/// How the longest wait before each retry grows under a policy's `backoff`, as the generated
/// `backoffMs` computes it: `constant` waits `base` every time; `exponential`, `equal-jitter` and
/// `full-jitter` wait at most min(cap, base·2^i) before retry i (the jittered ones less, at random).
public enum WaitGrowth: Sendable, Hashable {
    case doubling, constant

    /// A missing or unknown strategy counts as doubling: the bound of three strategies of four.
    public init(backoff: Backoff?) {
        self = backoff == .constant ? .constant : .doubling
    }
}

/// What a retry profile means in numbers (`policyc explain`, the words of `policyc diff`, the
/// editor's hover): every figure derived from waits is computed here, by the policy's strategy.
/// Exact integer arithmetic: the language caps retries at 100 and durations at a day, so every
/// sum of waits fits an `Int` with room to spare.
public struct ProfileFigures: Sendable, Hashable {
    /// How the waits grow (the policy's `backoff`).
    public var growth: WaitGrowth
    /// maxRetries + 1.
    public var attemptsMax: Int
    /// Σ over retries i = 0..maxRetries-1 of the longest wait: min(cap, base·2^i), or `base` when
    /// constant.
    public var maxBackoffTotalMs: Int
    /// Attempts that start strictly before the deadline when every attempt runs to its timeout and
    /// every backoff is at its largest.
    public var worstCaseAttempts: Int
    /// min(deadline, start of the last such attempt + timeout), 0 when no attempt counts.
    public var worstCaseWaitMs: Int

    public init(maxRetries: Int, baseMs: Int, capMs: Int, timeoutMs: Int, deadlineMs: Int, growth: WaitGrowth = .doubling) {
        // Values past the language's ranges cannot decode; clamping keeps these total functions.
        let retries = min(max(0, maxRetries), Language.maxRetries)
        let day = Values.maxDurationMs
        let base = min(max(0, baseMs), day), cap = min(max(0, capMs), day)
        let timeout = min(max(0, timeoutMs), day), deadline = min(max(0, deadlineMs), day)
        self.growth = growth
        let steps = BackoffSteps.longest(retries, base: base, cap: cap, growth: growth)
        attemptsMax = retries + 1
        maxBackoffTotalMs = steps.reduce(0, +)
        // Attempt k starts after k timeouts and the k longest waits before it; it counts when it
        // starts before the deadline. Starts never decrease.
        var starts = [0]
        for step in steps { starts.append(starts[starts.count - 1] + timeout + step) }
        let counted = starts.filter { $0 < deadline }
        worstCaseAttempts = counted.count
        worstCaseWaitMs = counted.last.map { min(deadline, $0 + timeout) } ?? 0
    }

    /// The figures of a profile of a policy whose `backoff` is `backoff`.
    public init(_ profile: Policy.Profile, backoff: Backoff) {
        self.init(maxRetries: profile.maxRetries, baseMs: profile.baseMs, capMs: profile.capMs,
                  timeoutMs: profile.timeoutMs, deadlineMs: profile.deadlineMs, growth: WaitGrowth(backoff: backoff))
    }

    /// The figures of a profile as written, when it has every value (`backoff` is the policy's).
    public init?(_ profile: PolicyDoc.Profile, backoff: Backoff?) {
        guard let r = profile.maxRetries, let b = profile.base, let c = profile.cap,
              let t = profile.timeout, let d = profile.deadline else { return nil }
        self.init(maxRetries: r.value, baseMs: b.value, capMs: c.value, timeoutMs: t.value, deadlineMs: d.value,
                  growth: WaitGrowth(backoff: backoff))
    }
}

/// The largest backoff steps of one profile: min(cap, base·2^i) before retry i, or `base` every
/// time when constant.
enum BackoffSteps {
    static func longest(_ retries: Int, base: Int, cap: Int, growth: WaitGrowth = .doubling) -> [Int] {
        var steps: [Int] = []
        var step = growth == .constant ? base : min(cap, base)
        for _ in 0..<retries {
            steps.append(step)
            // Doubled only below the cap: no step grows past it, and nothing overflows.
            if growth == .doubling, step < cap { step = min(cap, step * 2) }
        }
        return steps
    }
}

/// What the retry budget allows during a full outage, when every request fails and would be
/// retried: `tryRetry` allows retries while retries < max(minPerMinute, sent·ratio).
public struct BudgetFigures: Sendable, Hashable {
    /// The ratio as a number of percent: retries add at most this share to last minute's requests.
    public var ratio: Percent
    /// Retries always allowed in a minute, whatever the ratio.
    public var minPerMinute: Int
    /// The floor governs for a client that sends fewer requests than this in a minute:
    /// ⌈minPerMinute / ratio⌉ (100 for 10 a minute at 10%).
    public var floorBelowRequestsPerMinute: Int

    public init(ratio: Percent, minPerMinute: Int) {
        self.ratio = ratio
        self.minPerMinute = minPerMinute
        floorBelowRequestsPerMinute = BudgetFigures.threshold(ratio: ratio, minPerMinute: max(0, minPerMinute))
    }

    /// ⌈minPerMinute·100·10^f / digits⌉ where the percent is digits/10^f, exactly: a percent has at
    /// most three decimals and the floor is at most 1000, so this stays small.
    static func threshold(ratio: Percent, minPerMinute: Int) -> Int {
        let parts = ratio.canonical.split(separator: ".", maxSplits: 1)
        let fraction = parts.count > 1 ? String(parts[1]) : ""
        guard let digits = Int(String(parts.first ?? "0") + fraction), digits > 0 else { return 0 }
        var numerator = min(minPerMinute, Language.maxMinPerMinute) * 100
        for _ in fraction.utf8 { numerator *= 10 }
        return (numerator + digits - 1) / digits
    }
}
