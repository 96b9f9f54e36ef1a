import PolicySource
import PolicyCheck

extension RuleID {
    public static let trafficDeadline: RuleID = "traffic-deadline"
}

extension TrafficRule {
    static let deadline = TrafficRule(
        .trafficDeadline, .error,
        summary: "a retry starts after the profile's deadline, counted from the call's first attempt",
        reference: Reference("Keep the viewer watching", quote: "Show Retry only when the budget is spent (about 15 seconds)"),
        examples: [
            TrafficExample("a retry 16 s after the first attempt; the interactive deadline is 15 s", triggers: true, [
                .at(0, ["play 4"], .status(503, retryAfter: 8)),
                .at(8.5, ["play 4"], .status(503, retryAfter: 7)),
                .at(16.2, ["play 4"], .ok, marked: true),
            ]),
            TrafficExample("the last retry within 15 s", triggers: false, [
                .at(0, ["play 4"], .status(503, retryAfter: 8)),
                .at(8.5, ["play 4"], .status(503, retryAfter: 5)),
                .at(14.0, ["play 4"], .ok),
            ]),
        ],
        check: { recording, findings in
            let tolerance = recording.options.toleranceMs
            for client in recording.clients {
                for call in client.calls {
                    guard let late = call.attempts.dropFirst().first(where: {
                        client.attempts[$0].entry.startMs > call.startMs + call.profile.deadlineMs + tolerance
                    }) else { continue }
                    let after = client.attempts[late].entry.startMs - call.startMs
                    findings.add(client, at: late, involving: call.attempts.filter { $0 <= late },
                                 "a retry of \(client.asks(late)) started \(Clock.wait(after)) after the call's first attempt; profile '\(call.profile.name)' has a deadline of \(Clock.wait(call.profile.deadlineMs))")
                }
            }
        })
}
