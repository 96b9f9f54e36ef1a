import PolicySource
import PolicyCheck

/// One finding of `verify`: the rule, the entry that shows it (its index in `log.entries`) and
/// every entry involved, the client, and the entry's place, time and URL.
public struct TrafficFinding: Sendable, Hashable {
    public var rule: RuleID
    public var severity: Severity
    /// The sentence, ending with the entry's index, time and URL.
    public var message: String
    public var file: String
    public var entry: Int
    public var entries: [Int]
    public var client: String
    /// Where the entry starts in the file.
    public var mark: Mark
}

/// A rule of `verify`: its catalog entry (for `policyc rules`, SARIF and the docs), the examples
/// that are its tests, and its check over a reconstructed recording.
public struct TrafficRule: Sendable {
    public let rule: Rule
    public let examples: [TrafficExample]
    let check: @Sendable (Recording, inout TrafficFindings) -> Void

    init(_ id: RuleID, _ severity: Severity, summary: String, reference: Reference, examples: [TrafficExample],
         check: @escaping @Sendable (Recording, inout TrafficFindings) -> Void) {
        rule = Rule(id, severity, summary: summary, reference: reference, examples: examples.map(\.example))
        self.examples = examples
        self.check = check
    }
}

/// Collects a rule's findings; each names its entry, the entries involved and the client.
struct TrafficFindings {
    let file: String
    var rule: (id: RuleID, severity: Severity) = ("", .error)
    var list: [TrafficFinding] = []

    mutating func add(_ client: ClientTraffic, at attempt: Int, involving: [Int], _ message: String) {
        let entry = client.attempts[attempt].entry
        let involved = Array(Set(involving.map { client.attempts[$0].entry.index } + [entry.index])).sorted()
        list.append(TrafficFinding(rule: rule.id, severity: rule.severity,
                                   message: message + " (entries[\(entry.index)] at \(Clock.iso(entry.startMs)), \(entry.url))",
                                   file: file, entry: entry.index, entries: involved, client: client.name, mark: entry.mark))
    }
}

/// What the policy says about waits and statuses, as the recorded client is judged by it.
extension Policy {
    /// Whether the policy retries an item that failed so (a network failure: status nil).
    func retries(_ outcome: Outcome) -> Bool {
        guard let status = outcome.status else { return retryOnNetwork }
        if neverRetry.contains(where: { $0.status == status && $0.code == outcome.code }) { return false }
        return retryStatuses.contains(status)
    }

    /// The waits the backoff strategy allows before retry `number` (1-based), in milliseconds.
    func backoffRange(_ profile: Profile, retry number: Int) -> (low: Int, high: Int) {
        let exponent = min(max(0, number - 1), 40)
        let step = min(Double(profile.capMs), Double(profile.baseMs) * Double(1 << exponent))
        switch backoff {
        case .fullJitter: return (0, Int(step))
        case .equalJitter: return (Int(step / 2), Int(step))
        case .exponential: return (Int(step), Int(step))
        case .constant: return (profile.baseMs, profile.baseMs)
        }
    }

    var backoffJitters: Bool { backoff == .fullJitter || backoff == .equalJitter }
}

extension ClientTraffic {
    /// Each retry with its attempt's index.
    var retries: [(attempt: Int, retry: Retry)] {
        attempts.indices.compactMap { i in attempts[i].retry.map { (i, $0) } }
    }

    func profile(of attempt: Int) -> Policy.Profile { calls[attempts[attempt].call].profile }

    func asks(_ attempt: Int) -> String { Wording.list(attempts[attempt].entry.asks.map(\.words)) }
}

/// Times as the findings show them.
enum Clock {
    /// `2026-12-07T10:00:01.250Z`.
    static func iso(_ ms: Int) -> String {
        let days = Int((Double(ms) / 86_400_000).rounded(.down))
        let rest = ms - days * 86_400_000
        let day = Day(daysSinceEpoch: days)
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : String(n) }
        let milli = rest % 1000
        return "\(day)T\(two(rest / 3_600_000)):\(two(rest / 60_000 % 60)):\(two(rest / 1000 % 60))."
            + (milli < 10 ? "00" : milli < 100 ? "0" : "") + "\(milli)Z"
    }

    /// `1.25 s`, `80 ms`.
    static func wait(_ ms: Int) -> String {
        abs(ms) < 1000 ? "\(ms) ms" : Wording.number(Double(ms) / 1000, places: 2) + " s"
    }
}

extension Retry {
    /// Whether the retry asks again for something the policy retries (its wait is then judged by
    /// the backoff rules); re-asking for what it never retries has rules of its own.
    func isRetryOf(_ policy: Policy) -> Bool {
        failures.indices.contains { n in
            policy.retries(failures[n]) && !(asks[n].isPrefetch && failures[n].itemRefused && !policy.prefetchRetryRefused)
        }
    }
}
