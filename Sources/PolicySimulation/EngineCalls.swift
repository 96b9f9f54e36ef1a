import PolicySource
import PolicyCheck

/// A call's life in the engine: it starts, sends its attempts, is answered or gives up, and ends.
extension Engine {
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
}
