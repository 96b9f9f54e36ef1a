import PolicySource
import PolicyCheck

extension RuleID {
    public static let trafficTimeoutMin: RuleID = "traffic-timeout-min"
}

extension TrafficRule {
    /// How long a failure without a reason must have lasted to count as given up.
    static let silentGiveUpMs = 300

    static let timeoutMin = TrafficRule(
        .trafficTimeoutMin, .error,
        summary: "an attempt is given up (aborted or timed out without an answer) before 5 s, or before the profile's timeout when the deadline leaves that much",
        reference: Reference("What Wandura does when it is busy; Checklist",
                             quote: "give ticket requests at least 5 seconds of client timeout"),
        examples: [
            TrafficExample("the client gave up after 2 s", triggers: true, [
                .at(0, took: 2, ["play 4"], .network("net::ERR_TIMED_OUT"), marked: true),
                .at(2.3, ["play 4"], .ok),
            ]),
            TrafficExample("given up at the profile's timeout of 8 s", triggers: false, [
                .at(0, took: 8, ["play 4"], .network("net::ERR_TIMED_OUT")),
                .at(8.3, ["play 4"], .ok),
            ]),
            TrafficExample("a refused connection is no timeout", triggers: false, [
                .at(0, took: 0.01, ["play 4"], .network("net::ERR_CONNECTION_REFUSED")),
                .at(0.3, ["play 4"], .ok),
            ]),
        ],
        check: { recording, findings in
            let tolerance = recording.options.toleranceMs
            for client in recording.clients {
                for (i, attempt) in client.attempts.enumerated() where attempt.entry.isNetworkFailure && TrafficRule.gaveUp(attempt.entry) {
                    let call = client.calls[attempt.call]
                    let timeout = max(5000, call.profile.timeoutMs)
                    let left = call.startMs + call.profile.deadlineMs - attempt.entry.startMs
                    let least = min(timeout, left)
                    guard attempt.entry.durationMs + tolerance < least else { continue }
                    findings.add(client, at: i, involving: [i],
                                 "an attempt for \(client.asks(i)) was given up after \(Clock.wait(attempt.entry.durationMs)); ticket requests need at least \(Clock.wait(least)) (profile '\(call.profile.name)': timeout \(Clock.wait(call.profile.timeoutMs)), at least 5 s)")
                }
            }
        })

    /// An attempt the client gave up: aborted, cancelled or timed out, or failed with no reason
    /// given after `silentGiveUpMs` (sooner, a failure with no reason is a refused connection as
    /// some recorders show it); a refused or reset connection is the network's doing, not a timeout.
    static func gaveUp(_ entry: TicketEntry) -> Bool {
        let error = (entry.networkError ?? "").lowercased()
        if error.isEmpty { return entry.durationMs >= silentGiveUpMs }
        return ["abort", "cancel", "timed out", "timed_out", "timeout"].contains { error.contains($0) }
    }
}
