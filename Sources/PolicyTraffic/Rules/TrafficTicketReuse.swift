import PolicySource
import PolicyCheck

extension RuleID {
    public static let trafficTicketReuse: RuleID = "traffic-ticket-reuse"
}

extension TrafficRule {
    static let ticketReuse = TrafficRule(
        .trafficTicketReuse, .warning,
        summary: "a ticket is asked again for the same viewer, device, episode and intent while the earlier one was still reusable (more than stopReuseBefore before its expires_at)",
        reference: Reference("Request tickets early", quote: "Reuse it only for the same viewer, the same device, the same episode and the same intent, and only until 5 minutes before expires_at"),
        examples: [
            TrafficExample("episode 4 asked again 30 s later; its ticket is valid for an hour", triggers: true, [
                .at(0, ["play 4"], .ok),
                .at(30, ["play 4"], .ok, marked: true),
            ]),
            TrafficExample("another intent asks for another ticket", triggers: false, [
                .at(0, ["play 4", "prefetch 5"], .ok),
                .at(30, ["play 5"], .ok),
            ]),
        ],
        check: { recording, findings in
            let policy = recording.options.policy
            for client in recording.clients {
                var tickets: [Ask: (attempt: Int, expiresAtMs: Int)] = [:]
                for (i, attempt) in client.attempts.enumerated() {
                    let entry = attempt.entry
                    if attempt.retry == nil, let ask = entry.asks.first(where: { ask in
                        tickets[ask].map { entry.startMs + recording.options.toleranceMs < $0.expiresAtMs - policy.stopReuseBeforeMs } ?? false
                    }), let earlier = tickets[ask] {
                        findings.add(client, at: i, involving: [earlier.attempt, i],
                                     "a ticket for \(ask.words) was asked again while the one from entries[\(client.attempts[earlier.attempt].entry.index)] was reusable (it expires at \(Clock.iso(earlier.expiresAtMs)); reuse stops \(Clock.wait(policy.stopReuseBeforeMs)) before)")
                    }
                    for (n, ask) in entry.asks.enumerated() where n < entry.outcomes.count {
                        if entry.outcomes[n].succeeded, let expires = entry.outcomes[n].expiresAtMs { tickets[ask] = (i, expires) }
                    }
                }
            }
        })
}
