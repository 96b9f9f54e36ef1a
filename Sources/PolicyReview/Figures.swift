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
/// Exact integer arithmetic in O(log maxRetries): once a backoff step reaches `cap` every later
/// step is `cap`, so sums have closed forms and nothing loops over retries.
public struct ProfileFigures: Sendable, Hashable {
    /// How the waits grow (the policy's `backoff`).
    public var growth: WaitGrowth
    /// maxRetries + 1.
    public var attemptsMax: Int
    /// Σ over retries i = 0..maxRetries-1 of the longest wait: min(cap, base·2^i), or `base` when
    /// constant. Up to about 2^106: exact, wide.
    public var maxBackoffTotalMs: WideInt
    /// Attempts that start strictly before the deadline when every attempt runs to its timeout and
    /// every backoff is at its largest.
    public var worstCaseAttempts: Int
    /// min(deadline, start of the last such attempt + timeout), 0 when no attempt counts.
    public var worstCaseWaitMs: Int

    public init(maxRetries: Int, baseMs: Int, capMs: Int, timeoutMs: Int, deadlineMs: Int, growth: WaitGrowth = .doubling) {
        // Negative values cannot decode; clamping keeps these total functions anyway.
        let retries = max(0, maxRetries), base = max(0, baseMs), cap = max(0, capMs)
        let timeout = max(0, timeoutMs), deadline = max(0, deadlineMs)
        self.growth = growth
        let steps = BackoffSteps(base: base, cap: cap, growth: growth)
        attemptsMax = Saturating.add(retries, 1)
        maxBackoffTotalMs = steps.exactSum(retries)

        // start(k) = k·timeout + Σ_{i<k} step(i) never decreases, so the attempts that count are
        // k = 0...last for the largest `last` with start(last) < deadline: a binary search.
        func start(_ k: Int) -> Int { Saturating.add(Saturating.multiply(k, timeout), steps.sum(k)) }
        if deadline > 0 {   // start(0) = 0 counts iff 0 < deadline
            var lo = 0, hi = retries        // invariant: start(lo) < deadline
            while lo < hi {
                let mid = lo + (hi - lo + 1) / 2
                if start(mid) < deadline { lo = mid } else { hi = mid - 1 }
            }
            worstCaseAttempts = lo + 1
            worstCaseWaitMs = min(deadline, Saturating.add(start(lo), timeout))
        } else {
            worstCaseAttempts = 0
            worstCaseWaitMs = 0
        }
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

/// The largest backoff steps min(cap, base·2^i) of one profile and their sums in closed form;
/// constant steps are all `base`, that is a cap of `base` reached at once.
struct BackoffSteps {
    var base: Int
    var cap: Int
    /// The first step that is `cap` (base·2^i ≥ cap); all later ones are too. At most 54 for
    /// values up to 2^53, as base ≥ 1 doubles past any cap by then.
    var firstCapped: Int

    init(base: Int, cap: Int, growth: WaitGrowth = .doubling) {
        self.base = base
        self.cap = growth == .constant ? base : cap
        var i = 0
        var step = base
        if base == 0 {
            firstCapped = Int.max   // every step is min(cap, 0) = 0: never capped, sums are 0
            return
        }
        if growth == .constant {
            firstCapped = 0
            return
        }
        while step < cap {
            step = Saturating.multiply(step, 2)
            i += 1
        }
        firstCapped = i
    }

    /// base·(2^k − 1) for the steps below the cap, k ≤ firstCapped: under 2·cap, no overflow.
    private func uncappedSum(_ k: Int) -> Int {
        guard base > 0, k > 0 else { return 0 }
        return base * ((1 << k) - 1)
    }

    /// Σ_{i<n} step(i), saturating at Int.max (enough to compare with a deadline).
    func sum(_ n: Int) -> Int {
        guard base > 0, n > 0 else { return 0 }
        if n <= firstCapped { return uncappedSum(n) }
        return Saturating.add(uncappedSum(firstCapped), Saturating.multiply(n - firstCapped, cap))
    }

    /// Σ_{i<n} step(i), exact.
    func exactSum(_ n: Int) -> WideInt {
        guard base > 0, n > 0 else { return WideInt(0) }
        if n <= firstCapped { return WideInt(uncappedSum(n)) }
        return WideInt(product: n - firstCapped, cap) + WideInt(uncappedSum(firstCapped))
    }
}

/// Arithmetic that sticks at the bounds instead of trapping: figures of absurd profiles are
/// "more than anyone waits", never a crash.
enum Saturating {
    static func add(_ a: Int, _ b: Int) -> Int {
        let (r, o) = a.addingReportingOverflow(b)
        return o ? (b > 0 ? Int.max : Int.min) : r
    }

    static func multiply(_ a: Int, _ b: Int) -> Int {
        let (r, o) = a.multipliedReportingOverflow(by: b)
        return o ? ((a < 0) == (b < 0) ? Int.max : Int.min) : r
    }
}

/// A non-negative integer of up to 128 bits, exact: products of two values up to 2^53 and sums of
/// such. (Swift's UInt128 needs macOS 15; this is all we need of it.)
public struct WideInt: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var high: UInt64
    public var low: UInt64

    public init(_ value: Int) {
        high = 0
        low = UInt64(max(0, value))
    }

    init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    /// a·b for a, b ≥ 0.
    init(product a: Int, _ b: Int) {
        let r = UInt64(max(0, a)).multipliedFullWidth(by: UInt64(max(0, b)))
        self.init(high: r.high, low: r.low)
    }

    public static func + (a: WideInt, b: WideInt) -> WideInt {
        let (low, carry) = a.low.addingReportingOverflow(b.low)
        return WideInt(high: a.high &+ b.high &+ (carry ? 1 : 0), low: low)
    }

    public static func < (a: WideInt, b: WideInt) -> Bool {
        (a.high, a.low) < (b.high, b.low)
    }

    /// The value as an Int, when it fits.
    public var exactInt: Int? {
        high == 0 && low <= UInt64(Int.max) ? Int(low) : nil
    }

    /// Decimal digits, by division by 10^19 (the largest power of ten in 64 bits).
    public var description: String {
        if high == 0 { return String(low) }
        let chunk: UInt64 = 10_000_000_000_000_000_000
        let upper = high / chunk
        let rest = (high % chunk, low)
        let (q, r) = chunk.dividingFullWidth(rest)
        let head = WideInt(high: upper, low: q).description
        let tail = String(r)
        return (head == "0" ? "" : head + String(repeating: "0", count: 19 - tail.count)) + tail
    }

    public var json: JSON {
        if let i = exactInt { return .int(i) }
        return .bigInt(description)
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
    public var floorBelowRequestsPerMinute: WideInt

    public init(ratio: Percent, minPerMinute: Int) {
        self.ratio = ratio
        self.minPerMinute = minPerMinute
        floorBelowRequestsPerMinute = BudgetFigures.threshold(ratio: ratio, minPerMinute: max(0, minPerMinute))
    }

    /// ⌈minPerMinute·100·10^f / digits⌉ where the percent is digits/10^f, exactly.
    static func threshold(ratio: Percent, minPerMinute: Int) -> WideInt {
        let parts = ratio.canonical.split(separator: ".", maxSplits: 1)
        let fraction = parts.count > 1 ? String(parts[1]) : ""
        guard let digits = UInt64(String(parts.first ?? "0") + fraction), digits > 0 else { return WideInt(0) }
        // numerator = minPerMinute · 100 · 10^f; the percent has at most 16 fraction digits and
        // minPerMinute < 2^53, so this fits 128 bits: multiply step by step.
        var n = WideInt(minPerMinute)
        for _ in 0..<(2 + fraction.count) { n = n.times(10) }
        return n.dividedRoundingUp(by: digits)
    }
}

extension WideInt {
    /// self·m, wrapping past 128 bits (callers stay far below).
    func times(_ m: UInt64) -> WideInt {
        let lowProduct = low.multipliedFullWidth(by: m)
        return WideInt(high: high &* m &+ lowProduct.high, low: lowProduct.low)
    }

    /// ⌈self / d⌉ for d > 0.
    func dividedRoundingUp(by d: UInt64) -> WideInt {
        let qHigh = high / d
        let (qLow, r) = d.dividingFullWidth((high % d, low))
        let q = WideInt(high: qHigh, low: qLow)
        return r == 0 ? q : q + WideInt(1)
    }
}

extension Wording {
    public static func duration(_ ms: WideInt) -> String {
        ms.exactInt.map(duration) ?? "\(ms) ms"
    }
}
