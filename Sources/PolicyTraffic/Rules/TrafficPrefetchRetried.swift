import PolicySource
import PolicyCheck

extension RuleID {
    public static let trafficPrefetchRetried: RuleID = "traffic-prefetch-retried"
}

extension TrafficRule {
    static let prefetchRetried = TrafficRule(
        .trafficPrefetchRetried, .error,
        summary: "a prefetch the answer refused (its own item status) is asked again as a prefetch while the policy's retryRefused is false",
        reference: Reference("Keep the viewer watching", quote: "A refused prefetch is not a failure"),
        examples: [
            TrafficExample("a paused prefetch (429) asked again", triggers: true, [
                .at(0, ["play 4", "prefetch 5"], .items(["200", "429"])),
                .at(1.0, ["prefetch 5"], .ok, marked: true),
            ]),
            TrafficExample("asked with intent play when the viewer gets there", triggers: false, [
                .at(0, ["play 4", "prefetch 5"], .items(["200", "429"])),
                .at(1.0, ["play 5"], .ok),
            ]),
        ],
        check: { recording, findings in
            guard !recording.options.policy.prefetchRetryRefused else { return }
            for client in recording.clients {
                for (i, retry) in client.retries {
                    guard let n = retry.asks.indices.first(where: { retry.asks[$0].isPrefetch && retry.failures[$0].itemRefused }) else { continue }
                    findings.add(client, at: i, involving: [retry.previous, i],
                                 "the prefetch of \(retry.asks[n].film) \(retry.asks[n].episode) was refused (\(retry.failures[n].words)) and asked again; the policy leaves refused prefetches alone (retryRefused: false)")
                }
            }
        })
}
