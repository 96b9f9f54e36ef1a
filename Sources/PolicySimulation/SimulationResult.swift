import PolicySource
import PolicyCheck

/// What one run of a policy's profile against a scenario gave: the summary and the per-second series.
public struct SimulationRun: Sendable {
    public var policy: String
    /// The policy's file, as given.
    public var file: String
    public var profile: String
    /// A failed call of an interactive profile is a viewer who sees Retry.
    public var interactive: Bool
    public var scenario: Scenario
    public var seed: UInt64
    public var summary: SimulationSummary
    /// One entry per second of the run.
    public var series: [SimulationSecond]
    /// Per group of clients, when the scenario lists groups; empty otherwise.
    public var groups: [SimulationGroup] = []
}

/// One group's share of a run.
public struct SimulationGroup: Sendable, Hashable {
    public var name: String
    public var profile: String
    public var interactive: Bool
    public var clients: Int
    public var calls: Int
    public var attempts: Int
    public var retries: Int
    public var succeeded: Int
    public var failed: Int
    /// Calls that failed because the retry budget refused a retry.
    public var budget: Int
    /// The group's largest attempts in one second ÷ its normal calls per second; nil when that is 0.
    public var peakLoad: Double?

    /// attempts ÷ calls; nil without calls.
    public var amplification: Double? { calls > 0 ? Double(attempts) / Double(calls) : nil }
    /// failed ÷ calls × 100; nil without calls.
    public var failedPercent: Double? { calls > 0 ? Double(failed) / Double(calls) * 100 : nil }
}

public struct SimulationSummary: Sendable, Hashable {
    public struct FailedBy: Sendable, Hashable {
        /// The answer is not retried under retryOn/neverRetry.
        public var notRetryable = 0
        /// maxRetries retries were already made.
        public var retriesUsed = 0
        /// The retry budget refused the retry.
        public var budget = 0
        /// The retry would start at or after the deadline, or an attempt was still under way at it.
        public var deadline = 0
    }

    /// Time from a call's start to its ticket, in whole milliseconds, over every call: a call that
    /// failed, or was still waiting when the run ended, has no ticket. nil: that percentile's call
    /// got none (over 5 % of calls got none, for p95). Over successes alone a change that lets
    /// more slow calls succeed would look slower, and one that makes them fail faster.
    public struct Percentiles: Sendable, Hashable {
        public var p50: Int?
        public var p95: Int?
        public var p99: Int?

        public init(p50: Int? = nil, p95: Int? = nil, p99: Int? = nil) {
            self.p50 = p50
            self.p95 = p95
            self.p99 = p99
        }
    }

    public var calls = 0
    public var attempts = 0
    public var retries = 0
    public var succeeded = 0
    public var failed = 0
    /// Calls still under way when the run ends.
    public var unfinished = 0
    public var failedBy = FailedBy()
    /// attempts ÷ calls; nil without calls.
    public var amplification: Double?
    /// The largest attempts in one second ÷ the normal calls per second; nil when that is 0.
    public var peakLoad: Double?
    /// The second of the peak.
    public var peakSecond: Int?
    /// The largest attempts in 100 ms ÷ the normal calls per 100 ms: waves that a second's
    /// count smooths out (clients retrying together after a reset); nil when there are no calls.
    public var peakLoad100ms: Double?
    /// Where the 100 ms of that peak begin, in milliseconds.
    public var peakTenthMs: Int?
    /// failed ÷ calls × 100 (for an interactive profile: the viewers who saw Retry); nil without calls.
    public var failedPercent: Double?
    public var timeToTicketMs = Percentiles()
    /// Seconds after the last fault ends until the first second from which, for 10 seconds in a
    /// row, successes are at least 95 % of the calls started; nil if that never happens in the
    /// run; 0 without faults.
    public var recoverySeconds: Int?
    /// Attempts the servers served after their client had given up on them.
    public var wastedAttempts = 0
}

public struct SimulationSecond: Sendable, Hashable {
    public var second: Int
    /// Calls started in this second.
    public var calls = 0
    /// Attempts sent, first attempts and retries.
    public var attempts = 0
    public var retries = 0
    /// Calls that got their ticket in this second.
    public var succeeded = 0
    /// Attempts answered with an error status (busy answers and outage answers).
    public var busy = 0
    /// Attempts the client stopped waiting for: its timeout, or the call's deadline.
    public var timeouts = 0
    /// Calls under way at the end of this second.
    public var inFlight = 0

    public init(second: Int) {
        self.second = second
    }

    public var firstAttempts: Int { attempts - retries }
}

/// Exact counts of times to a ticket in whole milliseconds: one bucket per millisecond under
/// 4096 ms, then 2048 buckets per doubling (a bucket is then under 0.05 % of its value wide).
/// Memory follows the longest time seen, never the number of calls.
struct TicketHistogram {
    private(set) var counts: [Int] = []
    private(set) var total = 0

    init() {}

    static let exactBelow = 4096
    static let subBuckets = 2048

    static func bucket(_ ms: Int) -> Int {
        guard ms >= exactBelow else { return max(0, ms) }
        let e = Int.bitWidth - 1 - ms.leadingZeroBitCount    // 2^e ≤ ms, e ≥ 12
        let sub = (ms >> (e - 11)) & (subBuckets - 1)
        return exactBelow + (e - 12) * subBuckets + sub
    }

    /// The smallest value of a bucket.
    static func lowerBound(_ bucket: Int) -> Int {
        guard bucket >= exactBelow else { return bucket }
        let e = (bucket - exactBelow) / subBuckets + 12
        let sub = (bucket - exactBelow) % subBuckets
        return (1 << e) + (sub << (e - 11))
    }

    mutating func add(_ ms: Int) {
        let b = TicketHistogram.bucket(ms)
        if b >= counts.count { counts += [Int](repeating: 0, count: b + 1 - counts.count) }
        counts[b] += 1
        total += 1
    }

    /// The nearest-rank percentile over `calls` calls, of which `total` got a ticket and the rest
    /// none: the smallest time with at least p % of the calls at or under it; nil when that rank
    /// falls among the calls without a ticket.
    func percentile(_ p: Double, of calls: Int? = nil) -> Int? {
        let calls = max(calls ?? total, total)
        guard calls > 0 else { return nil }
        let rank = max(1, Int((p / 100 * Double(calls)).rounded(.up)))
        guard rank <= total else { return nil }
        var seen = 0
        for (b, c) in counts.enumerated() {
            seen += c
            if seen >= rank { return TicketHistogram.lowerBound(b) }
        }
        return TicketHistogram.lowerBound(counts.count - 1)
    }
}

extension SimulationSummary {
    /// Recovery as the summary defines it, from the series and the end of the last fault; 0
    /// without faults (nothing to recover from).
    static func recovery(_ series: [SimulationSecond], lastFaultEndMs: Int?) -> Int? {
        guard let lastFaultEndMs else { return 0 }
        let end = (lastFaultEndMs + 999) / 1000
        let window = 10
        var run = 0
        var second = end
        while second < series.count {
            let s = series[second]
            if Double(s.succeeded) >= 0.95 * Double(s.calls) {
                run += 1
                if run == window { return second - window + 1 - end }
            } else {
                run = 0
            }
            second += 1
        }
        return nil
    }
}
