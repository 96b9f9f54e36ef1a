import PolicySource
import PolicyCheck

/// The engine's retry budget (as the generated `RetryBudget`), its server, and what a run adds
/// up to.
extension Engine {
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
