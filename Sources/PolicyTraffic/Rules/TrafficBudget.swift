import PolicySource
import PolicyCheck

extension RuleID {
    public static let trafficBudget: RuleID = "traffic-budget"
}

extension TrafficRule {
    static let budget = TrafficRule(
        .trafficBudget, .error,
        summary: "a client's retries in a rolling minute exceed max(minPerMinute, ratio × its requests in that minute)",
        reference: Reference("Retry 429 and 503 the right way", quote: "at most 10 % of the requests of the last minute (never fewer than 10 a minute)"),
        examples: [
            TrafficExample("eleven retries within a minute, of 22 requests: the budget allows 10", triggers: true, (0..<11).flatMap { n -> [TrafficExample.Step] in
                let at = Double(n) * 5
                return [.at(at, ["play \(n + 1)"], .status(502)), .at(at + 0.15 + 0.03 * Double(n), ["play \(n + 1)"], .ok, marked: n == 10)]
            }),
            TrafficExample("ten retries within a minute", triggers: false, (0..<10).flatMap { n -> [TrafficExample.Step] in
                let at = Double(n) * 5
                return [.at(at, ["play \(n + 1)"], .status(502)), .at(at + 0.15 + 0.03 * Double(n), ["play \(n + 1)"], .ok)]
            }),
        ],
        check: { recording, findings in
            let policy = recording.options.policy
            for client in recording.clients {
                let starts = client.attempts.map(\.entry.startMs)
                let retries = client.retries.map(\.attempt)
                var quietUntil = Int.min
                var first = 0, firstRetry = 0
                for (k, i) in retries.enumerated() {
                    let t = starts[i]
                    while starts[first] <= t - 60_000 { first += 1 }
                    while starts[retries[firstRetry]] <= t - 60_000 { firstRetry += 1 }
                    let requests = i - first + 1, count = k - firstRetry + 1
                    let allowed = max(Double(policy.budgetMinPerMinute), policy.budgetRatio.percent / 100 * Double(requests))
                    guard Double(count) > allowed, t >= quietUntil else { continue }
                    quietUntil = t + 60_000
                    findings.add(client, at: i, involving: Array(retries[firstRetry...k]),
                                 "\(count) retries in the minute up to this one, of \(requests) requests; the budget allows \(Wording.number(allowed, places: 1)) (\(policy.budgetRatio.canonical), at least \(policy.budgetMinPerMinute) a minute)")
                }
            }
        })
}
