import PolicySource
import PolicyCheck

extension RuleID {
    public static let trafficRetryAfter: RuleID = "traffic-retry-after"
}

extension TrafficRule {
    static let retryAfter = TrafficRule(
        .trafficRetryAfter, .error,
        summary: "a retry starts before the Retry-After (the header, or the item's retry_after) of the answer it retries had passed",
        reference: Reference("What Wandura does when it is busy", quote: "always read Retry-After instead of assuming a number"),
        examples: [
            TrafficExample("Retry-After: 2, retried after 0.3 s", triggers: true, [
                .at(0, ["play 4"], .status(503, retryAfter: 2)),
                .at(0.4, ["play 4"], .ok, marked: true),
            ]),
            TrafficExample("an item's retry_after of 3 s, retried after 1 s", triggers: true, [
                .at(0, ["play 4", "prefetch 5"], .items(["503 retry_after=3", "200"])),
                .at(1.1, ["play 4"], .ok, marked: true),
            ]),
            TrafficExample("Retry-After: 2, retried after 2.4 s", triggers: false, [
                .at(0, ["play 4"], .status(503, retryAfter: 2)),
                .at(2.5, ["play 4"], .ok),
            ]),
        ],
        check: { recording, findings in
            let options = recording.options
            guard options.policy.retryAfterHonor else { return }
            for client in recording.clients {
                for (i, retry) in client.retries {
                    guard let asked = retry.retryAfterMs, retry.waitMs + options.toleranceMs < asked else { continue }
                    findings.add(client, at: i, involving: [retry.previous, i],
                                 "a retry of \(Wording.list(retry.asks.map(\.words))) waited \(Clock.wait(retry.waitMs)); the answer asked for Retry-After \(Clock.wait(asked))")
                }
            }
        })
}
