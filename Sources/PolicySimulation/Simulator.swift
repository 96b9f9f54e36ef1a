import PolicySource
import PolicyCheck

/// `policyc simulate`: a fleet of clients that follow one profile of a policy exactly, against a
/// server that sheds or queues, through a scenario's faults. Deterministic and event-driven: a
/// heap of events (beside it, the next call and a FIFO of answers, which come due in the order they
/// are made), the simulation's own random streams, memory in proportion to the calls under way and
/// the clients, never to all calls.
public enum Simulator {
    public struct Failure: Error, Sendable, Hashable {
        public var message: String
    }

    /// Hard limits of one run, on top of `Scenario.Bounds`: what an absurd policy (a deadline of
    /// hours with no answer, zero waits) could otherwise pile up. Past one, the run stops with a
    /// failure that says so, never with an exhausted machine.
    public enum Limits {
        public static let callsInFlight = 2_000_000
        public static let queued = 8_000_000
        public static let attempts = 250_000_000
    }

    /// The profile a run uses: the one named, else the first interactive one, else the first.
    public static func profile(_ name: String?, of policy: Policy) -> Result<Policy.Profile, Failure> {
        if let name {
            if let p = policy.profiles.first(where: { $0.name == name }) { return .success(p) }
            let names = policy.profiles.map { "'\(printable($0.name))'" }
            let nearest = Suggest.nearest(name, in: policy.profiles.map(\.name)).map { "; did you mean '\(printable($0))'?" } ?? ""
            return .failure(Failure(message:
                "policy '\(printable(policy.name))' has no profile '\(printable(name))'; its profiles are \(Wording.list(names))\(nearest)"))
        }
        guard let p = policy.profiles.first(where: \.isInteractive) ?? policy.profiles.first else {
            return .failure(Failure(message: "policy '\(printable(policy.name))' has no profile"))
        }
        return .success(p)
    }

    /// Runs `scenario` with the profile `profile` for every group (else each group's, else the
    /// default) and `seed` (else the scenario's).
    public static func run(policy: Policy, scenario: Scenario, profile: String? = nil, seed: UInt64? = nil)
        -> Result<SimulationRun, Failure>
    {
        var profiles: [Policy.Profile] = []
        for group in scenario.groups {
            switch Simulator.profile(profile ?? group.profile, of: policy) {
            case .success(let p): profiles.append(p)
            case .failure(let f): return .failure(f)
            }
        }
        return run(policy: policy, profiles: profiles, scenario: scenario, seed: seed)
    }

    /// Runs `scenario` with `profile` for every group.
    public static func run(policy: Policy, profile: Policy.Profile, scenario: Scenario, seed: UInt64? = nil)
        -> Result<SimulationRun, Failure>
    {
        run(policy: policy, profiles: scenario.groups.map { _ in profile }, scenario: scenario, seed: seed)
    }

    /// Runs `scenario` with a profile per group, in the order of its groups.
    public static func run(policy: Policy, profiles: [Policy.Profile], scenario: Scenario, seed: UInt64? = nil)
        -> Result<SimulationRun, Failure>
    {
        precondition(profiles.count == scenario.groups.count, "a profile per group")
        let seed = seed ?? scenario.seed
        var engine = Engine(rules: profiles.map { ClientRules(policy: policy, profile: $0) }, scenario: scenario, seed: seed)
        if let failure = engine.run() { return .failure(failure) }
        var names: [String] = []
        for p in profiles where !names.contains(p.name) { names.append(p.name) }
        return .success(SimulationRun(
            policy: policy.name, file: policy.file, profile: names.joined(separator: ", "),
            interactive: profiles.allSatisfy(\.isInteractive),
            scenario: scenario, seed: seed, summary: engine.summary(), series: engine.seriesList(),
            groups: scenario.grouped ? engine.groupSummaries(profiles) : []))
    }
}

/// One call under way. Its `token` changes at every step (attempt sent, attempt over, call over),
/// and every event carries the token it was made with: an event whose token no longer matches is
/// about something the call has left behind (an answer after a timeout), and is dropped.
struct Call {
    var start: Int64 = 0
    var sentAt: Int64 = 0
    var client: UInt32 = 0
    var token: UInt32 = 0
    /// Attempts sent so far.
    var attempts: Int32 = 0
    /// The outage fault that answers the attempt under way, if one does (at most
    /// `Scenario.Bounds.maxFaults`, so 16 bits keep a call at 32 bytes).
    var outage: Int16 = -1
    /// The client's group.
    var group: UInt16 = 0
}

/// One client's retry budget: the generated `RetryBudget`'s three fields, the clock in
/// milliseconds. 12 bytes: a run lasts at most 24 h (86 400 000 ms) and makes at most
/// `Simulator.Limits.attempts`, so each fits 32 bits; a million clients are 12 MB.
struct Budget {
    /// On the budget's clock: the run's milliseconds plus `Engine.budgetClockOffsetMs`.
    var since: UInt32 = 0
    var sent: UInt32 = 0
    var retries: UInt32 = 0

    /// A budget whose minute began `msBeforeStart` before the run (0 ... 60 000).
    init(minuteBegan msBeforeStart: Int = 0) {
        since = UInt32(Engine.budgetClockOffsetMs - msBeforeStart)
    }
}

/// A group's counts, for the results of a scenario with groups.
struct GroupTally {
    var calls = 0
    var attempts = 0
    var retries = 0
    var succeeded = 0
    var failed = 0
    var budget = 0
    /// The second under way, its attempts, and the most in one second so far.
    var second = 0
    var secondAttempts = 0
    var peakAttempts = 0

    mutating func countAttempt(in second: Int) {
        if second != self.second {
            peakAttempts = max(peakAttempts, secondAttempts)
            self.second = second
            secondAttempts = 0
        }
        secondAttempts += 1
    }
}

/// Why a call failed (the summary's `failedBy`).
enum FailReason: Int {
    case notRetryable, retriesUsed, budget, deadline
}

/// One run: the state of the server, the clients and the calls under way, in plain arrays of
/// plain values (no references in the hot loop).
struct Engine {
    /// The rules of each group's clients.
    let rules: [ClientRules]
    /// Where each group's clients end (clients are numbered group after group).
    let groupEnds: [Int]
    /// Each group's calls a second, summed up to it: the draw of a call's group.
    let groupRates: [Double]
    var tallies: [GroupTally]
    let scenario: Scenario
    let seed: UInt64
    let endNs: Int64
    let latencyNs: Int64
    let clients: Int
    let normalRate: Double
    let faults: [(kind: Scenario.Fault.Kind, from: Int64, to: Int64, status: Int?, retryAfterMs: Int, factor: Double)]
    /// The instants of the resets, in order, and the first one after now (`Int64.max`: none).
    let resets: [Int64]
    var nextResetNs = Int64.max
    let rejectCost: Double
    /// Queue mode: refusal work owed, added to the next service.
    var refusalWorkNs: Double = 0
    /// Attempts per 100 ms: the tenth of a second under way, its attempts, the largest so far.
    var tenth: Int64 = 0
    var tenthAttempts = 0
    var peakTenthAttempts = 0
    var peakTenth: Int64 = 0

    /// The budget clock runs this far ahead of the run's, so that a client's minute may have
    /// begun before the run (each client has its own phase) without a negative time.
    static let budgetClockOffsetMs = 60_000

    var arrivalsRandom: RandomStream
    var jitterRandom: RandomStream
    var clientsRandom: RandomStream
    var heap = EventHeap()

    /// The calls under way and the slots of those over, taken again first: as many slots as
    /// calls were ever under way at once.
    var calls: [Call] = []
    var freeSlots: [UInt32] = []
    var budgets: [Budget]
    var inFlight = 0

    // The server.
    var capacityNow: Double
    var tokens: Double
    var tokensAt: Int64 = 0
    var queue = Fifo<UInt64>()
    var serving: UInt64 = 0
    var serverBusy = false
    var outage = -1
    var surgeFactor = 1.0
    var nextArrival = Event(time: 0, kind: .arrival)
    var answers = Fifo<Event>()

    // Accounting.
    var second = 0
    var nextSecondNs: Int64 = 1_000_000_000
    var series: [SimulationSecond]
    /// Calls already counted as succeeded whose ticket arrives in a later second, by that second,
    /// and how many of them are still to arrive: they are under way until then.
    var finishing: [Int]
    var finishingLater = 0
    let seconds: Int
    var totals = SimulationSummary()
    var histogram = TicketHistogram()
    var failure: Simulator.Failure?

    init(rules: ClientRules, scenario: Scenario, seed: UInt64) {
        self.init(rules: scenario.groups.map { _ in rules }, scenario: scenario, seed: seed)
    }

    init(rules: [ClientRules], scenario: Scenario, seed: UInt64) {
        precondition(rules.count == scenario.groups.count && !rules.isEmpty, "a profile per group")
        self.rules = rules
        var end = 0, rate = 0.0
        var ends: [Int] = [], rates: [Double] = []
        for g in scenario.groups {
            end += max(1, g.clients)
            rate += g.callsPerSecond
            ends.append(end)
            rates.append(rate)
        }
        groupEnds = ends
        groupRates = rates
        tallies = Array(repeating: GroupTally(), count: rules.count)
        self.scenario = scenario
        self.seed = seed
        seconds = max(1, scenario.seconds)
        endNs = Int64(scenario.durationMs) * 1_000_000
        latencyNs = ClientRules.nanoseconds(ms: scenario.latencyMs)
        clients = end
        normalRate = scenario.normalCallsPerSecond
        resets = scenario.resetTimesMs.map { Int64($0) * 1_000_000 }
        nextResetNs = resets.first { $0 > 0 } ?? .max
        rejectCost = scenario.rejectCost
        faults = scenario.faults.map {
            ($0.kind, Int64($0.fromMs) * 1_000_000, Int64($0.toMs) * 1_000_000, $0.status, $0.retryAfterMs, $0.factor)
        }
        arrivalsRandom = RandomStream(seed: seed, purpose: .arrivals)
        jitterRandom = RandomStream(seed: seed, purpose: .jitter)
        clientsRandom = RandomStream(seed: seed, purpose: .clients)
        budgets = Array(repeating: Budget(), count: clients)
        // Each client's budget minute began at its own moment of the minute before the run: a
        // fault then finds budgets part used, as in production, not all fresh at once.
        var phases = RandomStream(seed: seed, purpose: .phases)
        for i in 0..<clients {
            budgets[i] = Budget(minuteBegan: phases.below(Engine.budgetClockOffsetMs))
        }
        series = (0..<seconds).map { SimulationSecond(second: $0) }
        finishing = Array(repeating: 0, count: seconds)
        capacityNow = scenario.capacity
        tokens = scenario.capacity
    }

    // MARK: the loop

    /// Runs to the end of the scenario; the failure when a limit stopped it.
    mutating func run() -> Simulator.Failure? {
        let initial = faultState(at: 0)
        outage = initial.outage
        surgeFactor = initial.surge
        capacityNow = scenario.capacity * initial.brownout
        tokens = bucketSize
        for f in faults {
            for t in (f.from == f.to ? [f.from] : [f.from, f.to]) where t > 0 && t < endNs {
                heap.push(Event(time: t, kind: .boundary))
            }
        }
        scheduleArrival(after: 0)
        while true {
            // The earliest of the three lines of events; on a tie the heap, then answers.
            var e: Event
            let heapKey = heap.isEmpty ? UInt64.max : heap.top.key
            if !answers.isEmpty, answers[0].key < heapKey, answers[0].key < nextArrival.key {
                e = answers.removeFirst()
            } else if nextArrival.key < heapKey {
                e = nextArrival
                nextArrival.key = UInt64.max
            } else if heapKey != UInt64.max {
                e = heap.top
                heap.removeTop()
            } else {
                break
            }
            let now = e.time
            if now >= endNs { break }
            if now >= nextSecondNs { closeSeconds(upTo: now) }
            switch e.kind {
            case .arrival:
                startCall(now, client: drawClient())
                scheduleArrival(after: now)
            case .retry:
                // Never stale: nothing else happens to a call while it waits to retry.
                assert(calls[Int(e.slot)].token == e.token, "a retry for a call that has moved on")
                send(Int(e.slot), now)
            case .answerOK:
                guard calls[Int(e.slot)].token == e.token else { continue }
                answered(Int(e.slot), now, status: 200, retryAfterMs: 0)
            case .answerOutage:
                let c = calls[Int(e.slot)]
                guard c.token == e.token else { continue }
                let f = faults[Int(c.outage)]
                answered(Int(e.slot), now, status: f.status ?? 0, retryAfterMs: f.retryAfterMs)
            case .giveUp:
                guard calls[Int(e.slot)].token == e.token else { continue }
                gaveUp(Int(e.slot), now)
            case .serviceDone:
                serviceDone(now)
            case .boundary:
                applyFaults(at: now)
            }
            if let failure { return failure }
        }
        closeSeconds(upTo: endNs)
        return nil
    }

    /// Ends every second that is over by `time`, noting the calls under way at its end.
    mutating func closeSeconds(upTo time: Int64) {
        while time >= nextSecondNs && second < seconds {
            finishingLater -= finishing[second]
            series[second].inFlight = inFlight + finishingLater
            second += 1
            nextSecondNs += 1_000_000_000
        }
        if second >= seconds { second = seconds - 1 }   // the end itself counts in the last second
    }

    /// An event about a call. Times past the end are all the same (never reached), so they are
    /// held at the end: keys stay far from overflow whatever the deadline.
    @inline(__always)
    mutating func push(_ time: Int64, _ kind: Event.Kind, _ slot: Int, _ token: UInt32) {
        heap.push(Event(time: min(time, endNs), kind: kind, slot: UInt32(slot), token: token))
    }
}

extension CheckedFile {
    /// The policy to simulate: every value decoded and no error but the guide's limits. Breaking a
    /// limit does not stop a simulation (showing what that does is the point); a structural error
    /// (a missing key, a bad name, a collision) does.
    public var simulatable: Policy? {
        let stops = diagnostics.contains { d in
            d.severity == .error && Catalog.rule(d.rule)?.reference == nil
        }
        return stops ? nil : doc?.complete(file: path)
    }
}
