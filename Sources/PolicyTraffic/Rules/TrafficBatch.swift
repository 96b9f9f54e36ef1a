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
                // The latest play of each episode, with the episodes its request asked for: looked
                // up, never scanned, so that a recording of many plays stays linear.
                var plays: [Episode: (attempt: Int, asked: Set<Episode>)] = [:]
                for (i, attempt) in client.attempts.enumerated() where attempt.retry == nil {
                    let entry = attempt.entry
                    let prefetches = entry.asks.filter(\.isPrefetch)
                    if prefetches.count > ahead {
                        findings.add(client, at: i, involving: [i],
                                     "one request asks for \(prefetches.count) prefetches; prefetch.ahead allows \(ahead)")
                    }
                    // A request with a play of its own is the viewer moving on (a skip), not a
                    // prefetch split off; an item the play request already asked is not batching.
                    if !entry.asks.contains(where: \.isPlay), let split = TrafficRule.splitPrefetch(prefetches, plays, at: entry.startMs, client) {
                        let play = client.attempts[split.play]
                        findings.add(client, at: i, involving: [split.play, i],
                                     "\(split.ask.words) came in a request of its own \(Clock.wait(entry.startMs - play.entry.startMs)) after \(excerpt(split.ask.film)) \(split.ask.episode - split.distance) play; ask for the next episodes in the play request")
                    }
                    let asked = Set(entry.asks.map { Episode(film: $0.film, episode: $0.episode) })
                    for ask in entry.asks where ask.isPlay { plays[Episode(film: ask.film, episode: ask.episode)] = (i, asked) }
                }
            }
        })
}

/// A film's episode, whatever the intent.
struct Episode: Hashable {
    var film: String
    var episode: Int
}

extension TrafficRule {
    /// The first prefetch of N+1 or N+2 asked within the window after N's play, in a request of
    /// its own (not one the play request asked already): the play's attempt and the distance.
    static func splitPrefetch(_ prefetches: [Ask], _ plays: [Episode: (attempt: Int, asked: Set<Episode>)], at start: Int,
                              _ client: ClientTraffic) -> (play: Int, ask: Ask, distance: Int)? {
        for ask in prefetches {
            for distance in 1...2 {
                guard let play = plays[Episode(film: ask.film, episode: ask.episode - distance)],
                      start - client.attempts[play.attempt].entry.startMs <= batchWindowMs,
                      !play.asked.contains(Episode(film: ask.film, episode: ask.episode)) else { continue }
                return (play.attempt, ask, distance)
            }
        }
        return nil
    }
}
