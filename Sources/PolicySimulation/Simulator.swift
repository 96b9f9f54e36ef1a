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
                "policy '\(printable(policy.name))' has no profile '\(printable(name))'; its profiles are \(Suggest.andList(names))\(nearest)"))
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

    // MARK: calls

    /// The next call: after an exponential wait at the current rate. There is one next call at a
    /// time, kept beside the heap; a surge change before it comes draws afresh (the wait is
    /// memoryless).
    mutating func scheduleArrival(after now: Int64) {
        nextArrival.key = UInt64.max
        let rate = normalRate * surgeFactor
        guard rate > 0 else { return }
        let gap = arrivalsRandom.exponential() / rate * 1e9
        // Past the end no call starts.
        guard gap < Double(endNs - now) else { return }
        nextArrival = Event(time: now + Int64(gap), kind: .arrival)
    }

    /// The client of a new call, drawn at random in proportion to its group's calls: with one
    /// group, uniformly.
    @inline(__always)
    mutating func drawClient() -> Int {
        if groupEnds.count == 1 { return clientsRandom.below(clients) }
        let total = groupRates[groupRates.count - 1]
        let x = clientsRandom.unit() * total
        var g = 0
        while g < groupRates.count - 1 && x >= groupRates[g] { g += 1 }
        let from = g == 0 ? 0 : groupEnds[g - 1]
        let below = g == 0 ? 0 : groupRates[g - 1]
        let share = groupRates[g] - below
        let n = groupEnds[g] - from
        let k = share > 0 ? Int((x - below) / share * Double(n)) : 0
        return from + min(max(0, k), n - 1)
    }

    /// The group of a client.
    @inline(__always)
    func group(of client: Int) -> Int {
        var g = 0
        while g < groupEnds.count - 1 && client >= groupEnds[g] { g += 1 }
        return g
    }

    /// The first reset after `time`, or `Int64.max`.
    func reset(after time: Int64) -> Int64 {
        for r in resets where r > time { return r }
        return .max
    }

    /// When the client stops waiting for the attempt of `c` sent at `c.sentAt`: its timeout, the
    /// call's deadline, or a reset.
    @inline(__always)
    func cutoff(_ c: Call) -> Int64 {
        let r = rules[Int(c.group)]
        let giveUp = min(c.sentAt + r.timeoutNs, c.start + r.deadlineNs)
        return resets.isEmpty ? giveUp : min(giveUp, reset(after: c.sentAt))
    }

    /// An answer `latency` from now. Every answer takes the same time and now never goes back, so
    /// answers come due in the order they are made: a FIFO ring, not the heap, holds them.
    @inline(__always)
    mutating func pushAnswer(_ kind: Event.Kind, _ slot: Int, _ token: UInt32, at now: Int64) {
        answers.append(Event(time: min(now + latencyNs, endNs), kind: kind, slot: UInt32(slot), token: token))
    }

    mutating func startCall(_ now: Int64, client: Int) {
        let slot: Int
        if let free = freeSlots.popLast() {
            slot = Int(free)
        } else {
            slot = calls.count
            calls.append(Call())
        }
        var c = calls[slot]
        c.start = now
        c.client = UInt32(client)
        c.attempts = 0
        c.token &+= 1
        let g = groupEnds.count == 1 ? 0 : group(of: client)
        c.group = UInt16(g)
        calls[slot] = c
        inFlight += 1
        totals.calls += 1
        tallies[g].calls += 1
        series[second].calls += 1
        if inFlight > Simulator.Limits.callsInFlight {
            failure = Simulator.Failure(message: "more than \(Simulator.Limits.callsInFlight) calls were under way at once at \(Engine.time(now)); the run stopped (a deadline far longer than the run, with no answers?)")
            return
        }
        // Attempt 0 is sent at the start, unless the deadline is already there.
        if rules[g].deadlineNs <= 0 {
            fail(slot, .deadline)
        } else {
            send(slot, now)
        }
    }

    /// Sends the call's next attempt.
    mutating func send(_ slot: Int, _ now: Int64) {
        var c = calls[slot]
        let retry = c.attempts > 0
        c.attempts += 1
        c.token &+= 1
        c.sentAt = now
        calls[slot] = c
        totals.attempts += 1
        series[second].attempts += 1
        let g = Int(c.group)
        tallies[g].attempts += 1
        if scenario.grouped { tallies[g].countAttempt(in: second) }
        if retry {
            totals.retries += 1
            tallies[g].retries += 1
            series[second].retries += 1
        }
        let t = now / 100_000_000
        if t != tenth {
            if tenthAttempts > peakTenthAttempts {
                peakTenthAttempts = tenthAttempts
                peakTenth = tenth
            }
            tenth = t
            tenthAttempts = 0
        }
        tenthAttempts += 1
        noteRequest(Int(c.client), now)
        if totals.attempts > Simulator.Limits.attempts {
            failure = Simulator.Failure(message: "the run stopped after \(Simulator.Limits.attempts) attempts at \(Engine.time(now)) (retries without waits?)")
            return
        }
        let r = rules[g]
        let giveUp = min(now + r.timeoutNs, c.start + r.deadlineNs, nextResetNs)

        if outage >= 0 {
            // Every request is answered after the latency with the outage's status, or never.
            if faults[outage].status != nil, now + latencyNs < giveUp {
                calls[slot].outage = Int16(outage)
                pushAnswer(.answerOutage, slot, c.token, at: now)
            } else {
                push(giveUp, .giveUp, slot, c.token)
            }
            return
        }
        switch scenario.mode {
        case .shed:
            refill(now)
            if tokens >= 1 {
                tokens -= 1
                let at = now + latencyNs
                if at < giveUp {
                    succeed(slot, at: at)
                } else {
                    // Served, but the client stops waiting first.
                    if at < endNs { totals.wastedAttempts += 1 }
                    push(giveUp, .giveUp, slot, c.token)
                }
            } else {
                // Turning it away takes work too, out of the same capacity (at most a second of
                // it owed: past that, the servers do nothing but refuse).
                if rejectCost > 0 { tokens = max(tokens - rejectCost, -bucketSize) }
                busyAnswer(slot, now, giveUp: giveUp)
            }
        case .queue:
            if let limit = scenario.queueLimit, queue.count >= limit {
                if rejectCost > 0, capacityNow > 0 {
                    refusalWorkNs = min(refusalWorkNs + rejectCost * 1e9 / capacityNow, 1e9)
                }
                busyAnswer(slot, now, giveUp: giveUp)
                return
            }
            enqueue(UInt64(slot) << 32 | UInt64(c.token))
            push(giveUp, .giveUp, slot, c.token)
            if !serverBusy { startService(now) }
        }
    }

    /// The busy answer, at once.
    mutating func busyAnswer(_ slot: Int, _ now: Int64, giveUp: Int64) {
        if now < giveUp {
            answered(slot, now, status: scenario.busyStatus, retryAfterMs: scenario.busyRetryAfterMs)
        } else {
            // A timeout of 0: the client gave up before any answer could come.
            gaveUp(slot, now)
        }
    }

    /// An answer reached the client while it was waiting.
    mutating func answered(_ slot: Int, _ now: Int64, status: Int, retryAfterMs: Int) {
        let c = calls[slot]
        // An answer exactly at the timeout, the deadline or a reset comes too late: the give-up
        // event takes it.
        guard now < cutoff(c) else { return }
        if status >= 200 && status < 300 {
            succeed(slot, at: now)
            return
        }
        series[second].busy += 1
        failed(slot, now, retryable: rules[Int(c.group)].isRetryable(status: status), retryAfterMs: retryAfterMs)
    }

    /// The client stopped waiting: the timeout or a reset (a network error), or the deadline with
    /// the attempt still under way (the call fails then).
    mutating func gaveUp(_ slot: Int, _ now: Int64) {
        let c = calls[slot]
        let r = rules[Int(c.group)]
        series[second].timeouts += 1
        if now >= c.start + r.deadlineNs && now < c.sentAt + r.timeoutNs {
            fail(slot, .deadline)
        } else {
            failed(slot, now, retryable: r.retryNetwork, retryAfterMs: 0)
        }
    }

    /// After a failed attempt, in this order: not retryable → fails; maxRetries made → fails; the
    /// budget refuses → fails; else the wait, and a retry that would start at or after the
    /// deadline is not sent: the call fails.
    mutating func failed(_ slot: Int, _ now: Int64, retryable: Bool, retryAfterMs: Int) {
        var c = calls[slot]
        guard retryable else { return fail(slot, .notRetryable) }
        let made = Int(c.attempts) - 1
        let g = Int(c.group)
        guard made < rules[g].maxRetries else { return fail(slot, .retriesUsed) }
        guard tryRetry(Int(c.client), now, group: g) else { return fail(slot, .budget) }
        let waitNs = rules[g].backoffMs(attempt: made, retryAfterMs: retryAfterMs, random: &jitterRandom) * 1e6
        let deadline = c.start + rules[g].deadlineNs
        // Compared as doubles first: a wait of years (or infinity) is simply past the deadline.
        guard waitNs < Double(deadline - now) else { return fail(slot, .deadline) }
        let at = now + Int64(waitNs)
        guard at < deadline else { return fail(slot, .deadline) }
        // The attempt's events still to come (its timeout) are stale from now on.
        c.token &+= 1
        calls[slot] = c
        push(at, .retry, slot, c.token)
    }

    /// The call gets its ticket at `at`: now, or later when nothing can change that any more (a
    /// 200 already on its way to a client that will still be waiting): it is counted then, and
    /// the call's slot is free at once, its answer event never made. Until `at` it still counts
    /// as under way (`finishing`). An answer due at or after the end leaves the call unfinished.
    mutating func succeed(_ slot: Int, at: Int64) {
        guard at < endNs else { return }
        let s = Int(at / 1_000_000_000)
        totals.succeeded += 1
        tallies[Int(calls[slot].group)].succeeded += 1
        series[s].succeeded += 1
        histogram.add(Int((at - calls[slot].start) / 1_000_000))
        if s > second {
            finishing[s] += 1
            finishingLater += 1
        }
        end(slot)
    }

    mutating func fail(_ slot: Int, _ reason: FailReason) {
        switch reason {
        case .notRetryable: totals.failedBy.notRetryable += 1
        case .retriesUsed: totals.failedBy.retriesUsed += 1
        case .budget: totals.failedBy.budget += 1
        case .deadline: totals.failedBy.deadline += 1
        }
        totals.failed += 1
        let g = Int(calls[slot].group)
        tallies[g].failed += 1
        if reason == .budget { tallies[g].budget += 1 }
        end(slot)
    }

    /// The call is over: its slot is free, and its events are stale.
    mutating func end(_ slot: Int) {
        calls[slot].token &+= 1
        freeSlots.append(UInt32(slot))
        inFlight -= 1
    }

    // MARK: the retry budget, as the generated RetryBudget

    /// A new minute once more than 60 000 ms have passed since the last one began; it begins now.
    @inline(__always)
    mutating func roll(_ b: inout Budget, _ nowMs: UInt32) {
        if Double(nowMs) - Double(b.since) > 60_000 {
            b.sent = 0
            b.retries = 0
            b.since = nowMs
        }
    }

    @inline(__always)
    static func budgetClock(_ now: Int64) -> UInt32 {
        UInt32(truncatingIfNeeded: now / 1_000_000 + Int64(budgetClockOffsetMs))
    }

    @inline(__always)
    mutating func noteRequest(_ client: Int, _ now: Int64) {
        var b = budgets[client]
        roll(&b, Engine.budgetClock(now))
        b.sent &+= 1
        budgets[client] = b
    }

    @inline(__always)
    mutating func tryRetry(_ client: Int, _ now: Int64, group: Int = 0) -> Bool {
        var b = budgets[client]
        roll(&b, Engine.budgetClock(now))
        defer { budgets[client] = b }
        let r = rules[group]
        if Double(b.retries) >= max(r.budgetFloor, Double(b.sent) * r.budgetRatio) { return false }
        b.retries &+= 1
        return true
    }

    // MARK: the server

    /// Shed mode: the bucket fills at the capacity, up to one second of it (and at least one
    /// token, so that a capacity under 1 a second still serves at its rate).
    @inline(__always)
    mutating func refill(_ now: Int64) {
        if now > tokensAt {
            tokens = min(bucketSize, tokens + Double(now - tokensAt) * capacityNow / 1e9)
            tokensAt = now
        }
    }

    var bucketSize: Double { capacityNow > 0 ? max(1, capacityNow) : 0 }

    mutating func enqueue(_ entry: UInt64) {
        queue.append(entry)
        if queue.count > Simulator.Limits.queued {
            failure = Simulator.Failure(message: "more than \(Simulator.Limits.queued) requests waited in the queue; the run stopped (give the server a queueLimit)")
        }
    }

    /// Queue mode: the next request, if any, goes into service for 1/capacity.
    mutating func startService(_ now: Int64) {
        guard !queue.isEmpty, capacityNow > 0 else {
            serverBusy = false
            return
        }
        serving = queue.removeFirst()
        serverBusy = true
        // Held under 4·10^18 ns: a capacity of a request a century is as good as none. The
        // refusals made meanwhile are worked off first.
        let serviceNs = max(1, Int64(min(1e9 / capacityNow + refusalWorkNs, 4e18)))
        refusalWorkNs = 0
        heap.push(Event(time: min(now + serviceNs, endNs), kind: .serviceDone))
    }

    mutating func serviceDone(_ now: Int64) {
        let slot = Int(serving >> 32), token = UInt32(truncatingIfNeeded: serving)
        let c = calls[slot]
        let giveUp = cutoff(c)
        if c.token == token && now < giveUp {
            if now + latencyNs < giveUp {
                succeed(slot, at: now + latencyNs)
            } else {
                // Served in time, but the answer arrives after the client stopped waiting.
                pushAnswer(.answerOK, slot, token, at: now)
            }
        } else {
            totals.wastedAttempts += 1
        }
        startService(now)
    }

    /// The faults under way at `now` decide the state: the last outage listed that is under way,
    /// the product of the surges' factors, the product of the brownouts' factors.
    func faultState(at now: Int64) -> (outage: Int, surge: Double, brownout: Double) {
        var outage = -1, surge = 1.0, brownout = 1.0
        for (i, f) in faults.enumerated() where f.from <= now && now < f.to {
            switch f.kind {
            case .outage: outage = i
            case .surge: surge *= f.factor
            case .brownout: brownout *= f.factor
            case .reset: break   // an instant: its window is empty
            }
        }
        return (outage, surge, brownout)
    }

    /// At a fault's start or end: the new state, the bucket filled up to now at the old capacity.
    mutating func applyFaults(at now: Int64) {
        let (newOutage, surge, brownout) = faultState(at: now)
        outage = newOutage
        // Every attempt sent before a reset at now already gives up now (its cutoff).
        nextResetNs = reset(after: now)
        refill(now)
        capacityNow = scenario.capacity * brownout
        tokens = min(tokens, bucketSize)
        if surge != surgeFactor {
            surgeFactor = surge
            scheduleArrival(after: now)
        }
        if scenario.mode == .queue && !serverBusy { startService(now) }
    }

    // MARK: results

    static func time(_ ns: Int64) -> String { Wording.duration(Int(ns / 1_000_000)) }

    /// Per group, its counts with its profile's name.
    func groupSummaries(_ profiles: [Policy.Profile]) -> [SimulationGroup] {
        scenario.groups.indices.map { g in
            let t = tallies[g]
            let normal = scenario.groups[g].callsPerSecond
            return SimulationGroup(
                name: scenario.groups[g].name, profile: profiles[g].name, interactive: profiles[g].isInteractive,
                clients: scenario.groups[g].clients, calls: t.calls, attempts: t.attempts, retries: t.retries,
                succeeded: t.succeeded, failed: t.failed, budget: t.budget,
                peakLoad: normal > 0 ? Double(max(t.peakAttempts, t.secondAttempts)) / normal : nil)
        }
    }

    func seriesList() -> [SimulationSecond] {
        (0..<seconds).map { series[$0] }
    }

    func summary() -> SimulationSummary {
        var s = totals
        s.unfinished = inFlight
        if s.calls > 0 {
            s.amplification = Double(s.attempts) / Double(s.calls)
            s.failedPercent = Double(s.failed) / Double(s.calls) * 100
        }
        var peak = 0, peakSecond = 0
        for i in 0..<seconds where series[i].attempts > peak {
            peak = series[i].attempts
            peakSecond = i
        }
        if normalRate > 0 {
            s.peakLoad = Double(peak) / normalRate
            s.peakSecond = peakSecond
            var (tenthPeak, tenthAt) = (peakTenthAttempts, peakTenth)
            if tenthAttempts > tenthPeak { (tenthPeak, tenthAt) = (tenthAttempts, tenth) }
            s.peakLoad100ms = Double(tenthPeak) / (normalRate / 10)
            s.peakTenthMs = Int(tenthAt) * 100
        }
        s.timeToTicketMs = .init(p50: histogram.percentile(50, of: s.calls), p95: histogram.percentile(95, of: s.calls),
                                p99: histogram.percentile(99, of: s.calls))
        s.recoverySeconds = SimulationSummary.recovery(seriesList(), lastFaultEndMs: scenario.faults.isEmpty ? nil : scenario.lastFaultEndMs)
        return s
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
