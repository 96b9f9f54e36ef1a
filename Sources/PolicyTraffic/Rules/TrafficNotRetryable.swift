import PolicySource
import PolicyCheck

extension RuleID {
    public static let trafficNotRetryable: RuleID = "traffic-not-retryable"
}

extension TrafficRule {
    static let notRetryable = TrafficRule(
        .trafficNotRetryable, .error,
        summary: "an item is asked again after an answer the policy never retries (404, 400, 503 not_ready, …)",
        reference: Reference("Retry 429 and 503 the right way", quote: "Retry only what can succeed later"),
        examples: [
            TrafficExample("episode 7 answered 404 not_ready, asked again", triggers: true, [
                .at(0, ["play 6", "prefetch 7"], .items(["200", "404 not_ready"])),
                .at(0.5, ["play 7"], .items(["404 not_ready"])),
                .at(1.2, ["play 7"], .ok, marked: true),
            ]),
            TrafficExample("503 not_ready is never retried", triggers: true, [
                .at(0, ["play 4"], .status(503, code: "not_ready")),
                .at(0.4, ["play 4"], .ok, marked: true),
            ]),
            TrafficExample("a 503 without not_ready is retried", triggers: false, [
                .at(0, ["play 4"], .status(503)),
                .at(0.4, ["play 4"], .ok),
            ]),
        ],
        check: { recording, findings in
            let policy = recording.options.policy
            for client in recording.clients {
                for (i, retry) in client.retries {
                    let refusedPrefetch = { (n: Int) in retry.asks[n].isPrefetch && retry.failures[n].itemRefused && !policy.prefetchRetryRefused }
                    guard let n = retry.asks.indices.first(where: { !policy.retries(retry.failures[$0]) && !refusedPrefetch($0) }) else { continue }
                    findings.add(client, at: i, involving: [retry.previous, i],
                                 "\(retry.asks[n].words) was asked again after \(retry.failures[n].words), which the policy never retries")
                }
            }
        })
}
