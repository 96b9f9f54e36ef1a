import PolicySource
import PolicyCheck

/// How a recording is judged: the policy, the profile of calls without a `play` item, the
/// recorder's clock tolerance and which requests are ticket requests.
public struct TrafficOptions: Sendable {
    public var policy: Policy
    /// `--profile`: the profile of calls without a `play` item (default: the first interactive one).
    public var profile: String?
    /// `--tolerance`: how far a measured wait may be off the recorder's clock.
    public var toleranceMs: Int
    /// `verify: {endpoint: GLOB}` of the project file: the ticket requests' path.
    public var endpoint: String?

    public init(policy: Policy, profile: String? = nil, toleranceMs: Int = 50, endpoint: String? = nil) {
        self.policy = policy
        self.profile = profile
        self.toleranceMs = toleranceMs
        self.endpoint = endpoint
    }

    var interactive: Policy.Profile? { policy.profiles.first { $0.isInteractive } ?? policy.profiles.first }

    /// The profile of a call: interactive when it plays an episode, else `--profile`.
    func profile(for asks: [Ask]) -> Policy.Profile? {
        if asks.contains(where: \.isPlay) { return interactive }
        if let name = profile, let named = policy.profiles.first(where: { $0.name == name }) { return named }
        return interactive
    }
}

/// A retry: the attempt before it in its call, the items it asks again and how they failed there,
/// and the wait from the end of that attempt to its start.
struct Retry: Sendable {
    var previous: Int
    /// 1 for the first retry of the call.
    var number: Int
    var asks: [Ask]
    var failures: [Outcome]
    var waitMs: Int

    /// The Retry-After the failed items carried (the largest), when any did.
    var retryAfterMs: Int? { failures.compactMap(\.retryAfterMs).filter { $0 > 0 }.max() }
}

struct Attempt: Sendable {
    var entry: TicketEntry
    var call: Int
    var retry: Retry?
}

struct Call: Sendable {
    var attempts: [Int] = []
    var profile: Policy.Profile
    var startMs: Int
}

/// One client (a device and a viewer_ref) of a recording: its attempts in time order, grouped in calls.
public struct ClientTraffic: Sendable {
    public var device: String
    public var viewer: String
    var attempts: [Attempt] = []
    var calls: [Call] = []

    /// `device D, viewer V`, as findings and the summary name it.
    public var name: String { "device \(device.isEmpty ? "?" : device), viewer \(viewer.isEmpty ? "?" : viewer)" }
}

/// A recording's ticket traffic, reconstructed: clients, calls and retries.
public struct Recording: Sendable {
    public var file: String
    public var clients: [ClientTraffic]
    public var options: TrafficOptions
    /// Entries in the file, ticket requests or not.
    public var entryCount: Int

    public init(file: String, entries: [TicketEntry], entryCount: Int, options: TrafficOptions) {
        self.file = file
        self.options = options
        self.entryCount = entryCount
        var byClient: [String: [TicketEntry]] = [:]
        var order: [String] = []
        for entry in entries {
            let key = entry.device + "\u{0}" + entry.viewer
            if byClient[key] == nil { order.append(key) }
            byClient[key, default: []].append(entry)
        }
        clients = order.compactMap { key in
            guard let list = byClient[key], let first = list.first else { return nil }
            return Recording.reconstruct(ClientTraffic(device: first.device, viewer: first.viewer), list, options)
        }
    }

    /// Links each attempt to the failed items it asks again (same film, episode and intent) after
    /// the attempt they failed in ended, within the profile's deadline of it; else it starts a call.
    static func reconstruct(_ client: ClientTraffic, _ entries: [TicketEntry], _ options: TrafficOptions) -> ClientTraffic? {
        guard let fallback = options.interactive else { return nil }
        var client = client
        let sorted = entries.sorted { $0.startMs != $1.startMs ? $0.startMs < $1.startMs : $0.index < $1.index }
        var open: [Ask: (attempt: Int, outcome: Outcome)] = [:]
        let tolerance = options.toleranceMs
        for entry in sorted {
            let index = client.attempts.count
            var previous: Int?
            for ask in entry.asks {
                guard let failed = open[ask] else { continue }
                let before = client.attempts[failed.attempt]
                let deadline = client.calls[before.call].profile.deadlineMs
                guard before.entry.endMs <= entry.startMs + tolerance, entry.startMs - before.entry.endMs <= deadline else { continue }
                if previous.map({ client.attempts[$0].entry.endMs < before.entry.endMs }) ?? true { previous = failed.attempt }
            }
            var attempt: Attempt
            if let previous {
                let call = client.attempts[previous].call
                let linked = entry.asks.filter { ask in open[ask].map { client.attempts[$0.attempt].call == call } ?? false }
                let retry = Retry(previous: previous, number: client.calls[call].attempts.count, asks: linked,
                                  failures: linked.compactMap { open[$0]?.outcome },
                                  waitMs: entry.startMs - client.attempts[previous].entry.endMs)
                attempt = Attempt(entry: entry, call: call, retry: retry)
                client.calls[call].attempts.append(index)
            } else {
                attempt = Attempt(entry: entry, call: client.calls.count, retry: nil)
                client.calls.append(Call(attempts: [index], profile: options.profile(for: entry.asks) ?? fallback, startMs: entry.startMs))
            }
            client.attempts.append(attempt)
            for (n, ask) in entry.asks.enumerated() {
                let outcome = n < entry.outcomes.count ? entry.outcomes[n] : Outcome(status: nil)
                if outcome.succeeded { open[ask] = nil } else { open[ask] = (index, outcome) }
            }
        }
        return client
    }
}
