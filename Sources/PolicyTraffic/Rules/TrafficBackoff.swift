import PolicySource
import PolicyCheck

extension RuleID {
    public static let trafficBackoff: RuleID = "traffic-backoff"
}

extension TrafficRule {
    static let backoff = TrafficRule(
        .trafficBackoff, .error,
        summary: "a retry without Retry-After waits longer than the backoff strategy allows for it (or shorter, for a strategy with a floor), or five or more such retries of a client wait alike (no jitter)",
        reference: Reference("Checklist", quote: "otherwise exponential backoff with full jitter"),
        examples: [
            TrafficExample("the first retry waited 3 s; full jitter under base 500 ms allows up to 500 ms", triggers: true, [
                .at(0, ["play 4"], .status(502)),
                .at(3.1, ["play 4"], .ok, marked: true),
            ]),
            TrafficExample("retried at once, again and again: no jitter (the finding names the first retry and lists all)", triggers: true,
                           alsoFinds: [.trafficRetriesMax], [
                .at(0, ["play 4"], .status(502)),
                .at(0.105, ["play 4"], .status(502), marked: true),
                .at(0.21, ["play 4"], .status(502)),
                .at(0.315, ["play 4"], .status(502)),
                .at(0.42, ["play 4"], .status(502)),
                .at(0.525, ["play 4"], .ok),
            ]),
            TrafficExample("waits drawn under the growing step", triggers: false, [
                .at(0, ["play 4"], .status(502)),
                .at(0.4, ["play 4"], .status(502)),
                .at(0.6, ["play 4"], .status(502)),
                .at(2.2, ["play 4"], .ok),
            ]),
        ],
        check: { recording, findings in
            let policy = recording.options.policy, tolerance = recording.options.toleranceMs
            for client in recording.clients {
                var samples: [(attempt: Int, share: Double, wait: Int)] = []
                for (i, retry) in client.retries where retry.isRetryOf(policy) && !(policy.retryAfterHonor && retry.retryAfterMs != nil) {
                    let profile = client.profile(of: i)
                    let range = policy.backoffRange(profile, retry: retry.number)
                    samples.append((i, Double(retry.waitMs) / Double(max(1, range.high)), retry.waitMs))
                    guard retry.waitMs > range.high + tolerance || retry.waitMs + tolerance < range.low else { continue }
                    let allowed = range.low == range.high ? Clock.wait(range.low) : "\(Clock.wait(range.low))–\(Clock.wait(range.high))"
                    findings.add(client, at: i, involving: [retry.previous, i],
                                 "retry \(retry.number) of \(Wording.list(retry.asks.map(\.words))) waited \(Clock.wait(retry.waitMs)); \(policy.backoff.rawValue) backoff of profile '\(profile.name)' allows \(allowed) for it")
                }
                let shares = samples.map(\.share)
                guard policy.backoffJitters, samples.count >= jitterSamples, let low = shares.min(), let high = shares.max(),
                      high - low < 0.05 else { continue }
                let waits = samples.map(\.wait)
                findings.add(client, at: samples[0].attempt, involving: samples.map(\.attempt),
                             "\(samples.count) retries waited \(Clock.wait(waits.min() ?? 0))–\(Clock.wait(waits.max() ?? 0)), the same share of their backoff step each time: no jitter (\(policy.backoff.rawValue) draws each wait at random)")
            }
        })
}
