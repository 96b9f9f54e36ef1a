import PolicySource
import PolicyCheck

extension RuleID {
    public static let trafficBatch: RuleID = "traffic-batch"
}

extension TrafficRule {
    /// How soon after episode N's `play` a separate prefetch of N+1 or N+2 counts as unbatched.
    static let batchWindowMs = 10_000

    static let batch = TrafficRule(
        .trafficBatch, .warning,
        summary: "episode N+1 or N+2 is prefetched in a separate request (one without a play) within 10 s of N's play, or a request holds more prefetch items than prefetch.ahead",
        reference: Reference("Request tickets early", quote: "When a viewer starts episode N, send one request"),
        examples: [
            TrafficExample("episode 5 prefetched in a request of its own", triggers: true, [
                .at(0, ["play 4"], .ok),
                .at(0.2, ["prefetch 5"], .ok, marked: true),
            ]),
            TrafficExample("three prefetches; prefetch.ahead is 2", triggers: true, [
                .at(0, ["play 4", "prefetch 5", "prefetch 6", "prefetch 7"], .ok, marked: true),
            ]),
            TrafficExample("one request: play 4, prefetch 5 and 6", triggers: false, [
                .at(0, ["play 4", "prefetch 5", "prefetch 6"], .ok),
            ]),
            TrafficExample("the viewer skips to episode 5 after 3 s: its own play request", triggers: false, [
                .at(0, ["play 4", "prefetch 5"], .ok),
                .at(3, ["play 5", "prefetch 6"], .ok),
            ]),
        ],
        check: { recording, findings in
            let ahead = recording.options.policy.prefetchAhead
            for client in recording.clients {
                var plays: [(attempt: Int, ask: Ask)] = []
                for (i, attempt) in client.attempts.enumerated() where attempt.retry == nil {
                    let entry = attempt.entry
                    let prefetches = entry.asks.filter(\.isPrefetch)
                    if prefetches.count > ahead {
                        findings.add(client, at: i, involving: [i],
                                     "one request asks for \(prefetches.count) prefetches; prefetch.ahead allows \(ahead)")
                    }
                    plays.removeAll { entry.startMs - client.attempts[$0.attempt].entry.startMs > batchWindowMs }
                    // A request with a play of its own is the viewer moving on (a skip), not a
                    // prefetch split off; an item the play request already asked is not batching.
                    let playRequest = { (attempt: Int) in client.attempts[attempt].entry.asks }
                    if !entry.asks.contains(where: \.isPlay), let earlier = plays.first(where: { play in
                        prefetches.contains { ask in
                            ask.film == play.ask.film && (1...2).contains(ask.episode - play.ask.episode)
                                && !playRequest(play.attempt).contains { $0.film == ask.film && $0.episode == ask.episode }
                        }
                    }) {
                        findings.add(client, at: i, involving: [earlier.attempt, i],
                                     "\(client.asks(i)) came in a request of its own \(Clock.wait(entry.startMs - client.attempts[earlier.attempt].entry.startMs)) after \(earlier.ask.words); ask for the next episodes in the play request")
                    }
                    plays += entry.asks.filter(\.isPlay).map { (i, $0) }
                }
            }
        })
}
