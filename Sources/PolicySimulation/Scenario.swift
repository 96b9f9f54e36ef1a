import PolicySource
import PolicyCheck

/// What a simulation runs a policy against: a fleet of clients, a server, and faults in time.
/// Made from a scenario file (`ScenarioLoader`) or a built-in scenario (`Scenario.builtins`); every
/// value is within `Scenario.Bounds`, so a run is bounded in time and memory.
public struct Scenario: Sendable, Hashable {
    public enum Mode: String, Sendable, Hashable, CaseIterable {
        /// A token bucket of one second of capacity; a request without a token gets the busy answer at once.
        case shed
        /// One FIFO line served at `capacity`; requests whose client gave up are still served.
        case queue
    }

    /// A group of clients that share a rate and a profile: a fleet of devices, a few backend services.
    public struct Group: Sendable, Hashable {
        public var name: String
        public var clients: Int
        /// Per client.
        public var callsPerMinute: Double
        /// The profile its calls use; nil: the policy's first interactive profile.
        public var profile: String?

        public init(name: String, clients: Int, callsPerMinute: Double, profile: String? = nil) {
            self.name = name
            self.clients = clients
            self.callsPerMinute = callsPerMinute
            self.profile = profile
        }

        /// Calls a second in normal times, over the group.
        public var callsPerSecond: Double { Double(clients) * callsPerMinute / 60 }
    }

    public struct Fault: Sendable, Hashable {
        public enum Kind: String, Sendable, Hashable, CaseIterable {
            /// A reset happens at one instant (`fromMs == toMs`): every attempt under way then
            /// fails with a network error (a load balancer restarting).
            case outage, surge, brownout, reset
        }

        public var kind: Kind
        /// The window [from, to), in milliseconds from the start; a reset's instant is both.
        public var fromMs: Int
        public var toMs: Int
        /// Outage: the status every request is answered with, nil when none is ever answered.
        public var status: Int?
        /// Outage: the Retry-After of its answers in milliseconds, 0 for none.
        public var retryAfterMs: Int
        /// Surge: calls start this many times as often; brownout: capacity times this.
        public var factor: Double

        public init(kind: Kind, fromMs: Int, toMs: Int, status: Int? = nil, retryAfterMs: Int = 0, factor: Double = 1) {
            self.kind = kind
            self.fromMs = fromMs
            self.toMs = toMs
            self.status = status
            self.retryAfterMs = retryAfterMs
            self.factor = factor
        }

        /// "a 30 s outage", "a 60 s surge (3×)".
        public var words: String {
            let length = Wording.duration(toMs - fromMs)
            switch kind {
            case .outage: return "a \(length) outage"
            case .surge: return "a \(length) surge (\(JSON.number(factor))× the calls)"
            case .brownout: return "a \(length) brownout (\(JSON.number(factor))× the capacity)"
            case .reset: return "a reset at \(Wording.duration(fromMs))"
            }
        }
    }

    public var name: String
    public var description: String?
    /// A whole number of seconds.
    public var durationMs: Int
    public var seed: UInt64
    /// The clients: one group (`fleet:` with `clients`), or the groups `fleet.groups` lists.
    public var groups: [Group]
    /// Whether the file listed `fleet.groups` (results then have a line per group).
    public var grouped: Bool
    /// Requests per second.
    public var capacity: Double
    public var mode: Mode
    public var latencyMs: Int
    /// Queue mode: a request arriving while this many wait gets the busy answer. Nil: no limit.
    public var queueLimit: Int?
    public var busyStatus: Int
    /// 0: the busy answer has no Retry-After.
    public var busyRetryAfterMs: Int
    /// What refusing a request costs the server, as a fraction of serving one (0 to 1): refusal
    /// work comes out of the capacity that serves requests.
    public var rejectCost: Double
    /// In the order written.
    public var faults: [Fault]

    public init(name: String, description: String? = nil, durationMs: Int, seed: UInt64 = 1, clients: Int,
                callsPerMinute: Double, profile: String? = nil, capacity: Double, mode: Mode = .shed,
                latencyMs: Int = 50, queueLimit: Int? = nil, busyStatus: Int = 503, busyRetryAfterMs: Int = 1000,
                rejectCost: Double = 0, faults: [Fault] = []) {
        self.name = name
        self.description = description
        self.durationMs = durationMs
        self.seed = seed
        groups = [Group(name: "fleet", clients: clients, callsPerMinute: callsPerMinute, profile: profile)]
        grouped = false
        self.rejectCost = rejectCost
        self.capacity = capacity
        self.mode = mode
        self.latencyMs = latencyMs
        self.queueLimit = queueLimit
        self.busyStatus = busyStatus
        self.busyRetryAfterMs = busyRetryAfterMs
        self.faults = faults
    }

    /// Every client of every group.
    public var clients: Int { groups.reduce(0) { $0 + $1.clients } }

    /// The profile of the first group (of the only one, without groups).
    public var profile: String? { groups.first?.profile }

    /// Calls a second in normal times, over the whole fleet.
    public var normalCallsPerSecond: Double { groups.reduce(0) { $0 + $1.callsPerSecond } }

    /// The same scenario with these groups (`fleet.groups`).
    public func with(groups: [Group]) -> Scenario {
        var s = self
        s.groups = groups
        s.grouped = true
        return s
    }

    /// The instants of the resets, in order.
    public var resetTimesMs: [Int] { faults.filter { $0.kind == .reset }.map(\.fromMs).sorted() }

    public var seconds: Int { durationMs / 1000 }

    /// Where the last fault ends, in milliseconds; 0 without faults.
    public var lastFaultEndMs: Int { faults.map(\.toMs).max() ?? 0 }

    /// The calls the scenario starts on average: the normal rate times the surges, over the run.
    public var expectedCalls: Double {
        var points = Set([0, durationMs])
        for f in faults where f.kind == .surge {
            points.insert(min(f.fromMs, durationMs))
            points.insert(min(f.toMs, durationMs))
        }
        let sorted = points.sorted()
        var total = 0.0
        for (a, b) in zip(sorted, sorted.dropFirst()) {
            var factor = 1.0
            for f in faults where f.kind == .surge && f.fromMs <= a && a < f.toMs { factor *= f.factor }
            total += normalCallsPerSecond * factor * Double(b - a) / 1000
        }
        return total
    }

    /// The limits that keep any run bounded: a scenario outside them is refused with a finding.
    public enum Bounds {
        public static let maxClients = 10_000_000
        public static let maxDurationMs = 24 * 3_600_000
        public static let maxCallsPerMinute = 1_000_000.0
        public static let maxCapacity = 1_000_000_000.0
        public static let maxFactor = 1000.0
        public static let maxFaults = 1000
        public static let maxGroups = 100
        public static let maxQueueLimit = 8_000_000
        /// Calls started on average over a run (about a minute of work at the benchmark's speed).
        public static let maxExpectedCalls = 50_000_000.0
    }
}
