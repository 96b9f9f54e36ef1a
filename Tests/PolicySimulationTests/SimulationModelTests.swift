import Foundation
import Testing
@testable import PolicySource
@testable import PolicyCheck
@testable import PolicySimulation
@testable import TestSupport

/// The simulation against results known without it: closed forms that hold exactly, the retry
/// budget's bound from the SRE book, metastability as Bronson et al. describe it. Every run is
/// deterministic, so a tolerance here is for what the model itself leaves open (Poisson counts,
/// a budget's minute starting with its floor), never for run-to-run noise.
@Suite struct SimulationModelTests {
    // MARK: policies and scenarios

    /// The canonical policy with its interactive profile, backoff and budget replaced. Limit
    /// findings are fine: simulating a broken limit is the point.
    static func policy(maxRetries: Int = 3, base: String = "500ms", cap: String = "8s", timeout: String = "8s",
                       deadline: String = "15s", backoff: String = "full-jitter", ratio: String = "10%",
                       floor: Int = 10, retryOn: String = "[network, 429, 500, 502, 503]") throws -> Policy {
        let text = Canonical.text
            .replacingFirst("maxRetries: 3 ", with: "maxRetries: \(maxRetries) ")
            .replacingFirst("base: 500ms ", with: "base: \(base) ")
            .replacingFirst("cap: 8s ", with: "cap: \(cap) ")
            .replacingFirst("timeout: 8s ", with: "timeout: \(timeout) ")
            .replacingFirst("deadline: 15s ", with: "deadline: \(deadline) ")
            .replacingFirst("backoff: full-jitter", with: "backoff: \(backoff)")
            .replacingFirst("ratio: 10%", with: "ratio: \(ratio)")
            .replacingFirst("minPerMinute: 10", with: "minPerMinute: \(floor)")
            .replacingFirst("retryOn: [network, 429, 500, 502, 503]", with: "retryOn: \(retryOn)")
        let checked = Checker.check(Array(text.utf8), path: "test.yaml")
        return try #require(checked.simulatable, "\(checked.diagnostics.map(\.headline))")
    }

    static func scenario(_ yaml: String) throws -> Scenario {
        let file = ScenarioLoader.load(Array(yaml.utf8), path: "test-scenario.yaml")
        return try #require(file.scenario, "\(file.diagnostics.map(\.headline))")
    }

    static func run(_ policy: Policy, _ scenario: Scenario, seed: UInt64? = nil) throws -> SimulationRun {
        switch Simulator.run(policy: policy, scenario: scenario, seed: seed) {
        case .success(let run): return run
        case .failure(let f): throw f
        }
    }

    /// attempts ÷ calls over the seconds `range`, and successes ÷ calls.
    static func ratios(_ run: SimulationRun, _ range: Range<Int>) -> (load: Double, success: Double) {
        let part = run.series[range]
        let calls = Double(part.reduce(0) { $0 + $1.calls })
        return (Double(part.reduce(0) { $0 + $1.attempts }) / calls, Double(part.reduce(0) { $0 + $1.succeeded }) / calls)
    }

    // MARK: closed forms

    @Test func noFaultsAndAmpleCapacityMeanOneAttemptPerCall() throws {
        let run = try Self.run(Self.policy(), Self.scenario("""
            version: 1
            scenario: calm
            duration: 60s
            fleet: {clients: 1000, callsPerMinute: 6}
            server: {capacity: 100000, mode: shed, latency: 50ms}
            """))
        let s = run.summary
        #expect(s.calls > 5000)
        #expect(s.attempts == s.calls)
        #expect(s.retries == 0 && s.failed == 0 && s.wastedAttempts == 0)
        #expect(s.succeeded + s.unfinished == s.calls)
        #expect(s.unfinished <= 20)   // only calls started in the last 50 ms
        #expect(s.timeToTicketMs == .init(p50: 50, p95: 50, p99: 50))
        #expect(s.amplification == Double(s.attempts) / Double(s.calls))
        #expect(s.recoverySeconds == 0)
        #expect(run.series.count == 60)
        #expect(run.series.reduce(0) { $0 + $1.calls } == s.calls)
        #expect(run.series.reduce(0) { $0 + $1.succeeded } == s.succeeded)
        #expect(run.series.last?.inFlight == s.unfinished)
    }

    /// Attempts a call makes when every attempt fails the same way and the budget never binds,
    /// computed here from the rules (deterministic strategies only): attempt k starts at t_k; it
    /// ends at t_k + `lasts` (the answer, or the timeout when nothing answers); if the deadline
    /// comes first the call is over; else, with retries left, the next starts after the wait,
    /// unless that is at or after the deadline.
    static func attemptsAllowed(maxRetries: Int, lasts: Int, deadline: Int, wait: (Int) -> Int) -> Int {
        var start = 0, attempts = 0
        while true {
            attempts += 1
            let end = start + lasts
            if end >= deadline { return attempts }          // abandoned at the deadline (or timed out on it)
            if attempts - 1 == maxRetries { return attempts }
            let next = end + wait(attempts - 1)
            if next >= deadline { return attempts }
            start = next
        }
    }

    /// Calls start only in the first 30 s (a surge of factor 0 then), the outage lasts the whole
    /// run, and the run is long enough for every call to end: each call's attempts are exact.
    static func outageEverywhere(status: String) -> String {
        """
        version: 1
        scenario: dead
        duration: 120s
        fleet: {clients: 1000, callsPerMinute: 6}
        server: {capacity: 100000, mode: shed, latency: 50ms}
        faults:
          - {kind: outage, from: 0s, to: 120s, status: \(status)}
          - {kind: surge, from: 30s, to: 120s, factor: 0}
        """
    }

    @Test(arguments: [
        // (maxRetries, base, cap, timeout, deadline, backoff, status, ends by)
        (3, 500, 8000, 8000, 15000, "full-jitter", "503", "retriesUsed"),       // all four fit whatever the jitter
        (5, 1000, 8000, 8000, 4000, "exponential", "503", "deadline"),          // 0, 1.05, 3.1; 7.15 is past 4 s
        (5, 700, 700, 8000, 3000, "constant", "503", "deadline"),               // every 0.75 s: 0 … 2.25
        (1, 2000, 2000, 8000, 15000, "constant", "503", "retriesUsed"),
        (3, 500, 500, 5000, 12000, "constant", "none", "deadline"),             // timeouts: 0, 5.5, 11 (abandoned at 12)
        (3, 1000, 1000, 5000, 30000, "exponential", "none", "retriesUsed"),     // 0, 6, 12, 18 → 4 attempts
        (0, 500, 500, 8000, 15000, "full-jitter", "503", "retriesUsed"),
    ] as [(Int, Int, Int, Int, Int, String, String, String)])
    func fullOutageWithoutRetryAfterMakesExactlyTheAttemptsAllowed(
        _ c: (Int, Int, Int, Int, Int, String, String, String)
    ) throws {
        let (maxRetries, base, cap, timeout, deadline, backoff, status, endsBy) = c
        let policy = try Self.policy(maxRetries: maxRetries, base: "\(base)ms", cap: "\(cap)ms", timeout: "\(timeout)ms",
                                     deadline: "\(deadline)ms", backoff: backoff, ratio: "100%", floor: Language.maxMinPerMinute)
        let run = try Self.run(policy, Self.scenario(Self.outageEverywhere(status: status)))
        let lasts = status == "none" ? timeout : 50
        let n = Self.attemptsAllowed(maxRetries: maxRetries, lasts: lasts, deadline: deadline) { k in
            switch backoff {
            case "constant": return base
            case "exponential": return min(cap, base << k)
            default: return min(cap, base << k)   // full jitter: the longest wait, which fits anyway here
            }
        }
        let s = run.summary
        #expect(s.calls > 2500)
        #expect(s.unfinished == 0 && s.succeeded == 0 && s.failed == s.calls)
        #expect(s.attempts == n * s.calls, "expected \(n) attempts per call")
        #expect(s.retries == (n - 1) * s.calls)
        #expect(s.failedBy.budget == 0 && s.failedBy.notRetryable == 0)
        #expect((endsBy == "deadline" ? s.failedBy.deadline : s.failedBy.retriesUsed) == s.calls)
        #expect(s.timeToTicketMs == .init(p50: nil, p95: nil, p99: nil))
    }

    @Test func aStatusThatIsNotRetriedFailsAtTheFirstAttempt() throws {
        let policy = try Self.policy(retryOn: "[network, 429, 503]")
        let run = try Self.run(policy, Self.scenario(Self.outageEverywhere(status: "500")))
        #expect(run.summary.attempts == run.summary.calls)
        #expect(run.summary.failedBy.notRetryable == run.summary.calls)
        #expect(run.series.reduce(0) { $0 + $1.busy } == run.summary.attempts)
    }

    @Test func retryAfterIsHonoredWithItsJitter() throws {
        // Retry-After 3 s plus up to 1 s: the second attempt comes 3.05 to 4.05 s after the first,
        // after the 3 s outage, so every call gets its ticket.
        let run = try Self.run(Self.policy(maxRetries: 1, ratio: "100%", floor: Language.maxMinPerMinute), Self.scenario("""
            version: 1
            scenario: later
            duration: 60s
            fleet: {clients: 1000, callsPerMinute: 6}
            server: {capacity: 100000, mode: shed, latency: 50ms}
            faults:
              - {kind: outage, from: 0s, to: 3s, status: 503, retryAfter: 3s}
            """))
        // Calls of the outage retry in seconds 3 to 7; none in seconds 0 to 2.
        #expect(run.series[0..<3].allSatisfy { $0.retries == 0 })
        #expect(run.series[3..<8].reduce(0) { $0 + $1.retries } > 0)
        let s = run.summary
        #expect(s.failed == 0 && s.retries > 0)
        // The calls of the outage (5 % of all) are the slowest: 3.1 to 4.1 s.
        #expect(s.timeToTicketMs.p99.map { $0 >= 3100 && $0 <= 4100 } == true, "\(s.timeToTicketMs)")
    }

    // MARK: the retry budget (Google SRE book, "Handling Overload")

    static func longOutage(_ clients: Int, _ perMinute: String) -> String {
        """
        version: 1
        scenario: long-outage
        duration: 200s
        fleet: {clients: \(clients), callsPerMinute: \(perMinute)}
        server: {capacity: 100000, mode: shed, latency: 50ms}
        faults:
          - {kind: outage, from: 60s, to: 180s, status: 503}
        """
    }

    /// Few busy clients (600 calls a minute each): a 10 % budget holds the load in an outage near
    /// 1.1× (retries R = 0.1·(calls + R), so 1/0.9 = 1.111); three attempts alone give 3×.
    /// Tolerance ±0.03 around 1.111: each client's minute starts with the floor's 10 retries
    /// before the ratio governs (10 of ~660 requests, +0.015 at most); Poisson counts over
    /// 90 s × 200 calls/s move the ratio by under 0.01.
    @Test func aTenPercentBudgetHoldsBusyClientsNearOnePointOne() throws {
        let scenario = try Self.scenario(Self.longOutage(20, "600"))
        let budgeted = try Self.run(Self.policy(maxRetries: 3, ratio: "10%", floor: 10), scenario)
        let load = Self.ratios(budgeted, 90..<180).load
        #expect(abs(load - 1.111) < 0.03, "outage load with a 10% budget: \(load)")
        #expect(budgeted.summary.failedBy.budget > budgeted.summary.failedBy.retriesUsed)

        // Without a budget that binds, three attempts make the load 3× (just under, at the edges).
        let unbudgeted = try Self.run(Self.policy(maxRetries: 2, ratio: "100%", floor: Language.maxMinPerMinute), scenario)
        let three = Self.ratios(unbudgeted, 90..<180).load
        #expect(three > 2.95 && three < 3.01, "outage load with three attempts and no budget: \(three)")
        #expect(unbudgeted.summary.failedBy.budget == 0)
    }

    /// Many quiet clients (one call in ~8 minutes each): the floor of 10 a minute governs, and
    /// the budget does not cap amplification: the load is the same 4× as with no budget at all.
    @Test func withManyQuietClientsTheFloorGovernsAndTheBudgetDoesNotCap() throws {
        let scenario = try Self.scenario(Self.longOutage(100_000, "0.12"))
        let budgeted = try Self.run(Self.policy(maxRetries: 3, ratio: "10%", floor: 10), scenario)
        let unbudgeted = try Self.run(Self.policy(maxRetries: 3, ratio: "100%", floor: Language.maxMinPerMinute), scenario)
        let (a, b) = (Self.ratios(budgeted, 90..<180).load, Self.ratios(unbudgeted, 90..<180).load)
        #expect(a > 3.95 && a < 4.02, "quiet clients, 10% budget: \(a)")
        #expect(abs(a - b) < 0.01, "budget \(a) vs none \(b)")
        // A client would need more than 10 retries in a minute: a few unlucky ones at most.
        #expect(budgeted.summary.failedBy.budget * 1000 < budgeted.summary.calls)
    }

    // MARK: metastability (Bronson et al., HotOS 2021)

    static func queued(_ perMinute: String) -> String {
        """
        version: 1
        scenario: queued
        duration: 120s
        fleet: {clients: 100000, callsPerMinute: \(perMinute)}
        server: {capacity: 200, mode: queue, latency: 10ms}
        faults:
          - {kind: outage, from: 30s, to: 35s, status: 503, retryAfter: 2s}
        """
    }

    /// Queue mode, demand at 90 % of capacity, a 1 s timeout and one retry: the clients sent away
    /// by a 5 s outage come back together (Retry-After 2 s plus up to 1 s), the queue's wait passes
    /// the timeout, every attempt then times out and is retried, and the load (1.8× capacity)
    /// keeps the wait there: stuck at twice the demand with no success, long after the trigger.
    /// At half the demand the same burst drains and the system recovers.
    @Test func aBriefOutageLeavesAQueueStuckNearDemandJustUnderCapacity() throws {
        let policy = try Self.policy(maxRetries: 1, base: "100ms", cap: "1s", timeout: "1s", deadline: "5s")
        let stuck = try Self.run(policy, Self.scenario(Self.queued("0.108")))   // 180 calls/s
        let late = Self.ratios(stuck, 60..<120)
        #expect(late.load > 1.9 && late.load < 2.05, "load after the outage: \(late.load)")
        #expect(late.success < 0.02, "successes after the outage: \(late.success)")
        #expect(stuck.summary.recoverySeconds == nil)
        #expect(stuck.summary.wastedAttempts > stuck.summary.calls / 2)
        // Before the outage all was well.
        #expect(Self.ratios(stuck, 5..<30).success > 0.98)

        let fine = try Self.run(policy, Self.scenario(Self.queued("0.054")))     // 90 calls/s
        let after = Self.ratios(fine, 60..<120)
        #expect(after.load < 1.01 && after.success > 0.98, "half demand after the outage: \(after)")
        #expect(fine.summary.recoverySeconds.map { $0 <= 15 } == true, "\(String(describing: fine.summary.recoverySeconds))")
    }

    // MARK: the generated code's semantics, against the reference vectors

    /// Every `budget` and `backoff` vector of shared/vectors/retry-reference.tsv, replayed on the
    /// simulation's own budget (a client of a run, its clock starting at T0) and backoff.
    @Test func theClientsFollowTheReferenceVectors() throws {
        let policy = try GenSupport.canonical
        let lines = try String(contentsOf: GenSupport.vectors, encoding: .utf8).split(separator: "\n").map {
            $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        }
        var budgets = 0, backoffs = 0
        for f in lines where f.first == "budget" {
            let t0 = try #require(Int64(f[1]))
            let scenario = Scenario(name: "vectors", durationMs: Scenario.Bounds.maxDurationMs, clients: 1,
                                    callsPerMinute: 0, capacity: 1)
            let profile = try #require(policy.profiles.first)
            var engine = Engine(rules: ClientRules(policy: policy, profile: profile), scenario: scenario, seed: 1)
            // The vectors' client begins its minute at T0: the run's start here, not a random phase.
            engine.budgets[0] = Budget()
            var got = ""
            for op in f[2].split(separator: ",") {
                let t = try #require(Int64(op.dropLast()))
                let now = (t - t0) * 1_000_000
                if op.last == "r" { engine.noteRequest(0, now) } else { got += engine.tryRetry(0, now) ? "1" : "0" }
            }
            #expect(got == (f[3] == "-" ? "" : f[3]), "budget vector from \(t0): \(f[2].prefix(80))…")
            budgets += 1
        }
        for f in lines where f.first == "backoff" {
            let profile = try #require(policy.profiles.first { $0.name == f[1] })
            let rules = ClientRules(policy: policy, profile: profile)
            let retryAfterMs = f[3] == "-" ? 0 : try #require(Double(f[3])) * 1000
            let got = rules.backoffMs(attempt: try #require(Int(f[2])), retryAfterMs: retryAfterMs, unit: try #require(Double(f[4])))
            #expect(got == Double(f[5]), "\(f)")
            backoffs += 1
        }
        #expect(budgets == 60 && backoffs > 0)
    }

    /// Calls take their clients from a stream of their own: the clients, in call order, are that
    /// stream's uniform draws, whatever else the run draws.
    @Test func callsTakeTheirClientsInTheOrderOfTheirOwnStream() throws {
        let policy = try GenSupport.canonical
        let profile = try #require(policy.profiles.first)
        for clients in [1, 7, 1_000] {
            let scenario = Scenario(name: "clients", durationMs: 60_000, clients: clients, callsPerMinute: 1, capacity: 1)
            var engine = Engine(rules: ClientRules(policy: policy, profile: profile), scenario: scenario, seed: 5)
            var reference = RandomStream(seed: 5, purpose: .clients)
            let got = (0..<101).map { _ in engine.drawClient() }
            #expect(got == got.indices.map { _ in reference.below(clients) })
            #expect(got.allSatisfy { $0 >= 0 && $0 < clients })
            if clients > 1 { #expect(Set(got).count > 1) }
        }
    }

    // MARK: absurd values end in figures, never in a crash

    @Test func absurdValuesStillGiveFigures() throws {
        // A capacity of one request in 1000 s, in both modes.
        for mode in ["shed", "queue"] {
            let run = try Self.run(Self.policy(), Self.scenario("""
                version: 1
                scenario: trickle
                duration: 20s
                fleet: {clients: 10, callsPerMinute: 60}
                server: {capacity: 0.001, mode: \(mode), latency: 0ms}
                """))
            #expect(run.summary.calls > 100 && run.summary.succeeded <= 1, "\(mode)")
        }
        // A deadline of 0: no attempt starts, every call fails at once.
        let none = try Self.run(Self.policy(deadline: "0ms"), Self.scenario(Self.outageEverywhere(status: "503")))
        #expect(none.summary.attempts == 0 && none.summary.failedBy.deadline == none.summary.calls)
        // The most retries a policy may hold, 1 ms apart with 1 ms timeouts, against servers that
        // never answer.
        let storm = try Self.run(
            Self.policy(maxRetries: Language.maxRetries, base: "1ms", cap: "1ms", timeout: "1ms", deadline: "1h", backoff: "constant",
                        ratio: "100%", floor: Language.maxMinPerMinute),
            Self.scenario("""
                version: 1
                scenario: storm
                duration: 5s
                fleet: {clients: 10, callsPerMinute: 6}
                server: {capacity: 100, mode: shed, latency: 1ms}
                faults:
                  - {kind: outage, from: 0s, to: 5s, status: none}
                """))
        #expect(storm.summary.failedBy.retriesUsed + storm.summary.unfinished == storm.summary.calls)
        #expect(storm.summary.attempts > 100 * storm.summary.failedBy.retriesUsed)
    }

    // MARK: determinism

    @Test func theSameInputsGiveTheSameBytesWhateverTheThreads() throws {
        let policy = try Self.policy()
        let scenario = Scenario.builtin("brownout")!
        let once = SimulationReport([try Self.run(policy, scenario)]).json.rendered()
        // Four copies at once on all cores, then one alone again.
        var parallel = [String](repeating: "", count: 4)
        parallel.withUnsafeMutableBufferPointer { buffer in
            nonisolated(unsafe) let slots = buffer
            DispatchQueue.concurrentPerform(iterations: 4) { i in
                slots[i] = (try? Self.run(policy, scenario)).map { SimulationReport([$0]).json.rendered() } ?? ""
            }
        }
        #expect(parallel.allSatisfy { $0 == once })
        #expect(SimulationReport([try Self.run(policy, scenario)]).json.rendered() == once)
        let other = SimulationReport([try Self.run(policy, scenario, seed: 2)]).json.rendered()
        #expect(other != once)
        #expect(other.contains("\"seed\": 2"))
    }

    @Test func exactLogAgreesWithTheSystemsToTheLastBits() {
        var rng = Rng(state: 7)
        for _ in 0..<20_000 {
            let x = Double(rng.next() | 1) / Double(UInt64(1) << 31) * (rng.below(2) == 0 ? 1e-12 : 1)
            let ours = Exact.log(x), theirs = log(x)
            #expect(abs(ours - theirs) <= 2 * theirs.ulp, "log(\(x)): \(ours) vs \(theirs)")
        }
        #expect(Exact.log(1) == 0)
        #expect(Exact.log(0x1.0p-53) == -53 * Exact.ln2Hi - 53 * Exact.ln2Lo)
    }

    @Test func randomStreamsAreSeededAndSeparate() {
        var a = RandomStream(seed: 1, purpose: .arrivals), b = RandomStream(seed: 1, purpose: .arrivals)
        var c = RandomStream(seed: 1, purpose: .jitter), d = RandomStream(seed: 2, purpose: .arrivals)
        var e = RandomStream(seed: 1, purpose: .clients)
        let xs = (0..<100).map { _ in a.next() }
        #expect(xs == (0..<100).map { _ in b.next() })
        #expect(xs != (0..<100).map { _ in c.next() })
        #expect(xs != (0..<100).map { _ in e.next() })
        #expect(xs != (0..<100).map { _ in d.next() })
        // Uniform draws stay in [0, 1) with the right mean; exponential draws have mean 1.
        var sum = 0.0, expSum = 0.0
        for _ in 0..<100_000 {
            let u = a.unit()
            #expect(u >= 0 && u < 1)
            sum += u
            expSum += a.exponential()
        }
        #expect(abs(sum / 100_000 - 0.5) < 0.01)
        #expect(abs(expSum / 100_000 - 1) < 0.02)
        for n in [1, 2, 7, 1000] { #expect((0..<1000).allSatisfy { _ in (0..<n).contains(a.below(n)) }) }
    }

    @Test func ticketPercentilesAreNearestRankOverExactBuckets() {
        var h = TicketHistogram()
        for ms in 1...100 { h.add(ms) }
        #expect(h.percentile(50) == 50 && h.percentile(95) == 95 && h.percentile(99) == 99)
        // Past 4096 ms a bucket is under 0.05 % wide, and holds its lower bound.
        for v in [4095, 4096, 4097, 10_000, 123_456, 86_400_000] {
            let b = TicketHistogram.bucket(v), low = TicketHistogram.lowerBound(b)
            #expect(low <= v && Double(v - low) <= Double(v) / 2048, "\(v) → bucket \(b) from \(low)")
            #expect(TicketHistogram.bucket(low) == b)
        }
        #expect(TicketHistogram().percentile(50) == nil)
    }

    /// Percentiles over every call: the calls without a ticket sit above every time, so a p95
    /// only exists when at least 95 % of the calls got one.
    @Test func ticketPercentilesCountTheCallsWithoutATicket() {
        var h = TicketHistogram()
        for ms in 1...90 { h.add(ms) }
        #expect(h.percentile(50, of: 100) == 50)
        #expect(h.percentile(90, of: 100) == 90)
        #expect(h.percentile(91, of: 100) == nil)
        #expect(h.percentile(95, of: 100) == nil)
        #expect(h.percentile(95, of: 94) == 90)
        #expect(h.percentile(95) == 86)
    }

    @Test func profileChoiceDefaultsToTheFirstInteractiveOne() throws {
        let policy = try Self.policy()
        #expect(try Simulator.profile(nil, of: policy).get().name == "interactive")
        #expect(try Simulator.profile("background", of: policy).get().name == "background")
        guard case .failure(let f) = Simulator.profile("fast", of: policy) else { Issue.record("no failure"); return }
        #expect(f.message == "policy 'playback' has no profile 'fast'; its profiles are 'interactive' and 'background'")
    }
}

/// The first-in first-out queue under the server's queue and the answers under way: values come out in the order
/// they went in, across the drops of its taken front.
@Suite struct FifoTests {
    @Test func firstInFirstOutAcrossItsCompactions() {
        var fifo = Fifo<Int>()
        var reference: [Int] = []
        var rng = Rng(state: 71)
        var next = 0, most = 0
        for step in 0..<20_000 {
            // Mostly appends, then mostly removals: the taken front is dropped again and again.
            let appendShare = step < 10_000 ? 2 : 1
            if rng.below(3) < appendShare || reference.isEmpty {
                fifo.append(next)
                reference.append(next)
                next += 1
            } else {
                #expect(fifo.removeFirst() == reference.removeFirst())
            }
            #expect(fifo.count == reference.count)
            #expect(fifo.isEmpty == reference.isEmpty)
            if !reference.isEmpty {
                #expect(fifo[0] == reference[0])
                #expect(fifo[reference.count - 1] == reference[reference.count - 1])
            }
            most = max(most, reference.count)
        }
        #expect(most > 2_000 && reference.count < most / 2)  // grew past thousands, then drained
    }

    /// The event heap (4-ary) gives its events in key
    /// order, each exactly once, growing past several levels and with equal keys among them.
    @Test func theEventHeapGivesEventsInKeyOrder() {
        var heap = EventHeap()
        var reference: [UInt64] = []  // the keys in the heap, sorted
        var rng = Rng(state: 73)
        var now: Int64 = 0
        var popped = 0
        for step in 0..<24_000 {
            // Mostly pushes at first (to thousands of events: seven levels), then mostly pops.
            if reference.isEmpty || rng.below(100) < (step < 12_000 ? 70 : 30) {
                let event = Event(time: now + Int64(rng.below(1_000)), kind: .retry, slot: UInt32(step), token: 0)
                heap.push(event)
                var low = 0, high = reference.count
                while low < high {
                    let mid = (low + high) / 2
                    if reference[mid] <= event.key { low = mid + 1 } else { high = mid }
                }
                reference.insert(event.key, at: low)
            } else {
                let top = heap.top
                heap.removeTop()
                #expect(top.key == reference.removeFirst())
                now = top.time
                popped += 1
            }
            #expect(heap.count == reference.count)
        }
        #expect(popped > 8_000)
    }
}

/// The parts of the model that make breaking a rule cost something: refusals that take capacity,
/// groups of clients with their own profiles, and resets that fail many attempts at one instant.
@Suite struct SimulationLoadModelTests {
    typealias M = SimulationModelTests

    static func flood(_ rejectCost: String?) -> String {
        """
        version: 1
        scenario: flood
        duration: 60s
        fleet: {clients: 100000, callsPerMinute: 1.2}
        server: {capacity: 1000, mode: shed, latency: 50ms\(rejectCost.map { ", rejectCost: \($0)" } ?? "")}
        """
    }

    /// Twice the capacity in calls, no retries: each refusal takes a quarter of a request's work,
    /// so in steady overload served S and refused R obey S + R = 2000 and S + R/4 = 1000:
    /// S = 1000·(1 − 0.5)/(1 − 0.25) = 667 a second. Without rejectCost, refusals are free: 1000.
    @Test func refusalsTakeTheirShareOfTheCapacity() throws {
        let policy = try M.policy(maxRetries: 0)
        let costly = try M.run(policy, M.scenario(Self.flood("0.25")))
        let served = Double(costly.series[10..<60].reduce(0) { $0 + $1.succeeded }) / 50
        #expect(abs(served - 666.7) < 15, "served a second with rejectCost 0.25: \(served)")
        let free = try M.run(policy, M.scenario(Self.flood(nil)))
        let all = Double(free.series[10..<60].reduce(0) { $0 + $1.succeeded }) / 50
        #expect(abs(all - 1000) < 15, "served a second without rejectCost: \(all)")
        #expect(try M.scenario(Self.flood(nil)).rejectCost == 0)
    }

    /// Two groups, each with its own profile, through an outage answering 503 without Retry-After
    /// for the whole run: every call makes the attempts its profile allows (4 interactive, 6
    /// background), and calls split in proportion to each group's rate.
    @Test func eachGroupFollowsItsOwnProfile() throws {
        let scenario = try M.scenario("""
            version: 1
            scenario: groups
            duration: 10m
            fleet:
              groups:
                - {name: viewers, clients: 10000, callsPerMinute: 0.6, profile: interactive}
                - {name: sync, clients: 1000, callsPerMinute: 2, profile: background}
            server: {capacity: 100000, mode: shed, latency: 50ms}
            faults:
              - {kind: outage, from: 0s, to: 10m, status: 503}
            """)
        let policy = try M.policy(ratio: "100%", floor: Language.maxMinPerMinute)
        let run = try M.run(policy, scenario)
        #expect(run.groups.map(\.name) == ["viewers", "sync"])
        #expect(run.groups.map(\.profile) == ["interactive", "background"])
        let viewers = run.groups[0], sync = run.groups[1]
        // 100 and 33.3 calls a second: three to one, within Poisson noise over 60 000 calls.
        let share = Double(viewers.calls) / Double(viewers.calls + sync.calls)
        #expect(abs(share - 0.75) < 0.01, "viewers' share of calls: \(share)")
        // Finished calls made exactly their profile's attempts (those still under way at the end
        // fewer): close to 4 and 6.
        #expect(viewers.amplification.map { $0 > 3.95 && $0 <= 4 } == true, "\(String(describing: viewers.amplification))")
        #expect(sync.amplification.map { $0 > 5.5 && $0 <= 6 } == true, "\(String(describing: sync.amplification))")
        #expect(run.profile == "interactive, background")
    }

    static func reset(_ backoff: String) throws -> SimulationRun {
        let scenario = try M.scenario("""
            version: 1
            scenario: lb-restart
            duration: 90s
            fleet: {clients: 100000, callsPerMinute: 0.6}
            server: {capacity: 100000, mode: shed, latency: 50ms}
            faults:
              - {kind: outage, from: 60s, to: 65s, status: none}
              - {kind: reset, at: 65s}
            """)
        return try M.run(M.policy(backoff: backoff), scenario)
    }

    /// No answers for 5 s, then a reset: every attempt still waiting (the 5 s of calls, ~5 000)
    /// fails at 65 s with a network error. Exponential backoff sends every first retry exactly
    /// 500 ms later, in one 100 ms; full jitter spreads them over 500 ms.
    @Test func aResetFailsEveryAttemptUnderWayAtOnce() throws {
        let exponential = try Self.reset("exponential")
        let second = exponential.series[65]
        #expect(second.timeouts > 4_800 && second.timeouts < 5_200, "failed at the reset: \(second.timeouts)")
        #expect(exponential.summary.peakTenthMs == 65_500)
        // ~5 000 retries and ~100 calls in those 100 ms, against 100 calls in normal times;
        // spread over 500 ms, ~1 000 retries in each 100 ms.
        let wave = try #require(exponential.summary.peakLoad100ms)
        #expect(wave > 48 && wave < 53, "exponential: \(wave)× in 100 ms")
        let jittered = try #require(try Self.reset("full-jitter").summary.peakLoad100ms)
        #expect(jittered > 9 && jittered < 13, "full jitter: \(jittered)× in 100 ms")
        // Per second the two look alike: the waves are a matter of 100 ms.
        #expect(try abs((Self.reset("full-jitter").summary.peakLoad ?? 0) - (exponential.summary.peakLoad ?? 0)) < 2)
    }
}
