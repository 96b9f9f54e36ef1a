import PolicySource
import PolicyCheck

/// One client's traffic under one profile: what `verify` sums up per client.
public struct ClientSummary: Sendable {
    public var file: String
    public var client: String
    public var profile: String
    public var calls = 0
    public var attempts = 0
    public var retries = 0
    /// The most retries one call made.
    public var mostRetries = 0
    /// The shortest and longest wait before a retry, when there was one.
    public var waits: (low: Int, high: Int)?
    /// The longest wait the strategy allows (its last step, `cap` at most), Retry-After aside.
    public var allowedHigh: Int

    /// `3 calls, 5 attempts, 2 retries (at most 2 in a call), waits 120 ms–1.40 s (the strategy allows up to 8.00 s)`.
    public var words: String {
        var text = "\(Wording.count(calls, "call")), \(Wording.count(attempts, "attempt")), \(Wording.count(retries, "retry", "retries"))"
        if retries > 0 { text += " (at most \(mostRetries) in a call)" }
        if let waits {
            text += ", waits \(Clock.wait(waits.low))–\(Clock.wait(waits.high)) (the strategy allows up to \(Clock.wait(allowedHigh)), Retry-After aside)"
        }
        return text
    }
}

extension Recording {
    /// Each client under each profile its calls used, in the order clients appear.
    public var summaries: [ClientSummary] {
        let policy = options.policy
        var result: [ClientSummary] = []
        for client in clients {
            var byProfile: [String: ClientSummary] = [:]
            var order: [String] = []
            for call in client.calls {
                let name = call.profile.name
                if byProfile[name] == nil {
                    order.append(name)
                    let highest = policy.backoffRange(call.profile, retry: call.profile.maxRetries).high
                    byProfile[name] = ClientSummary(file: file, client: client.name, profile: name, allowedHigh: highest)
                }
                byProfile[name]!.calls += 1
                byProfile[name]!.attempts += call.attempts.count
                byProfile[name]!.retries += call.attempts.count - 1
                byProfile[name]!.mostRetries = max(byProfile[name]!.mostRetries, call.attempts.count - 1)
                for i in call.attempts.dropFirst() {
                    guard let wait = client.attempts[i].retry?.waitMs else { continue }
                    let seen = byProfile[name]!.waits
                    byProfile[name]!.waits = (min(seen?.low ?? wait, wait), max(seen?.high ?? wait, wait))
                }
            }
            result += order.compactMap { byProfile[$0] }
        }
        return result
    }
}
