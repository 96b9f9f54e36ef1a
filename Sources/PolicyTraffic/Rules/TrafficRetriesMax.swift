import PolicySource
import PolicyCheck

extension RuleID {
    public static let trafficRetriesMax: RuleID = "traffic-retries-max"
}

extension TrafficRule {
    static let retriesMax = TrafficRule(
        .trafficRetriesMax, .error,
        summary: "a recorded call makes more retries than its profile's maxRetries",
        reference: Reference("Checklist", quote: "At most 3 retries per interactive request"),
        examples: [
            TrafficExample("a play request retried four times; the interactive profile allows 3", triggers: true,
                           alsoFinds: [.trafficBackoff], [
                .at(0, ["play 4"], .status(503)),
                .at(0.4, ["play 4"], .status(503)),
                .at(1.2, ["play 4"], .status(503)),
                .at(2.5, ["play 4"], .status(503)),
                .at(4.6, ["play 4"], .ok, marked: true),
            ]),
            TrafficExample("three retries, then a ticket", triggers: false, [
                .at(0, ["play 4"], .status(503)),
                .at(0.4, ["play 4"], .status(503)),
                .at(1.2, ["play 4"], .status(503)),
                .at(2.5, ["play 4"], .ok),
            ]),
        ],
        check: { recording, findings in
            for client in recording.clients {
                for call in client.calls where call.attempts.count - 1 > call.profile.maxRetries {
                    let over = call.attempts[call.profile.maxRetries + 1]
                    findings.add(client, at: over, involving: call.attempts,
                                 "a call for \(client.asks(call.attempts[0])) made \(call.attempts.count - 1) retries; profile '\(call.profile.name)' allows \(call.profile.maxRetries)")
                }
            }
        })
}
