import PolicySource
import PolicyCheck

extension RuleID {
    public static let trafficRetryAfterJitter: RuleID = "traffic-retry-after-jitter"
}

extension TrafficRule {
    /// Waits after Retry-After judged as a distribution only from this many on.
    static let jitterSamples = 5

    static let retryAfterJitter = TrafficRule(
        .trafficRetryAfterJitter, .error,
        summary: "a retry waits longer than Retry-After plus maxJitter, or five or more retries of a client wait exactly the Retry-After (no jitter)",
        reference: Reference("Retry 429 and 503 the right way", quote: "Retry-After (+ up to 1 s jitter)"),
        examples: [
            TrafficExample("Retry-After: 1, retried after 3 s: more than 1 s of jitter", triggers: true, [
                .at(0, ["play 4"], .status(503, retryAfter: 1)),
                .at(3.1, ["play 4"], .ok, marked: true),
            ]),
            TrafficExample("five retries each exactly 1 s after Retry-After: 1 (the finding names the first and lists all five)", triggers: true, [
                .at(0, ["play 4"], .status(503, retryAfter: 1)),
                .at(1.1, ["play 4"], .ok, marked: true),
                .at(20, ["play 5"], .status(503, retryAfter: 1)),
                .at(21.1, ["play 5"], .ok),
                .at(40, ["play 6"], .status(503, retryAfter: 1)),
                .at(41.1, ["play 6"], .ok),
                .at(60, ["play 7"], .status(503, retryAfter: 1)),
                .at(61.1, ["play 7"], .ok),
                .at(80, ["play 8"], .status(503, retryAfter: 1)),
                .at(81.1, ["play 8"], .ok),
            ]),
            TrafficExample("Retry-After plus jitter of 0.1 to 0.9 s", triggers: false, [
                .at(0, ["play 4"], .status(503, retryAfter: 1)),
                .at(1.2, ["play 4"], .ok),
                .at(20, ["play 5"], .status(503, retryAfter: 1)),
                .at(21.9, ["play 5"], .ok),
                .at(40, ["play 6"], .status(503, retryAfter: 1)),
                .at(41.5, ["play 6"], .ok),
                .at(60, ["play 7"], .status(503, retryAfter: 1)),
                .at(61.4, ["play 7"], .ok),
                .at(80, ["play 8"], .status(503, retryAfter: 1)),
                .at(81.8, ["play 8"], .ok),
            ]),
        ],
        check: { recording, findings in
            let options = recording.options
            let tolerance = options.toleranceMs, maxJitter = options.policy.retryAfterMaxJitterMs
            guard options.policy.retryAfterHonor else { return }
            for client in recording.clients {
                var samples: [(attempt: Int, extra: Int)] = []
                for (i, retry) in client.retries {
                    guard let asked = retry.retryAfterMs, retry.waitMs + tolerance >= asked else { continue }
                    samples.append((i, retry.waitMs - asked))
                    guard retry.waitMs > asked + maxJitter + tolerance else { continue }
                    findings.add(client, at: i, involving: [retry.previous, i],
                                 "a retry of \(Wording.list(retry.asks.map(\.words))) waited \(Clock.wait(retry.waitMs)), \(Clock.wait(retry.waitMs - asked)) past Retry-After \(Clock.wait(asked)); the policy's maxJitter is \(Clock.wait(maxJitter))")
                }
                let extras = samples.map(\.extra)
                guard samples.count >= jitterSamples, let low = extras.min(), let high = extras.max(),
                      high - low <= tolerance, maxJitter > tolerance else { continue }
                findings.add(client, at: samples[0].attempt, involving: samples.map(\.attempt),
                             "\(samples.count) retries after Retry-After all waited \(Clock.wait(low))–\(Clock.wait(high)) past it: no jitter (the policy draws up to \(Clock.wait(maxJitter)))")
            }
        })
}
