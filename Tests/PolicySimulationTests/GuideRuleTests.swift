import Dispatch
import Testing
@testable import PolicySource
@testable import PolicyCheck
@testable import PolicySimulation
@testable import TestSupport

/// Every rule of the guide earns its place in the built-in scenarios: a policy that breaks one
/// rule, and only that one, is clearly worse than the canonical policy on a headline figure of a
/// built-in scenario (by at least 10 % and by a margin that matters for that figure), for seeds
/// 1, 2 and 3 alike. The table "What each rule protects, in numbers" of Docs/simulate.md says the
/// same with the figures.
@Suite struct GuideRuleTests {
    /// A headline figure; larger is worse for each.
    enum Figure: CustomStringConvertible {
        case peakLoad, peakLoad100ms, amplification, failedPercent, p99, wastedAttempts
        /// Seconds to recover, with "never within the run" as the run's length.
        case recovery
        case groupPeakLoad(String), groupAmplification(String)

        func value(_ run: SimulationRun) -> Double {
            let s = run.summary
            switch self {
            case .peakLoad: return s.peakLoad ?? 0
            case .peakLoad100ms: return s.peakLoad100ms ?? 0
            case .amplification: return s.amplification ?? 0
            case .failedPercent: return s.failedPercent ?? 0
            case .p99: return Double(s.timeToTicketMs.p99 ?? 0)
            case .wastedAttempts: return Double(s.wastedAttempts)
            case .recovery: return Double(s.recoverySeconds ?? run.scenario.seconds)
            case .groupPeakLoad(let name): return run.groups.first { $0.name == name }?.peakLoad ?? 0
            case .groupAmplification(let name): return run.groups.first { $0.name == name }?.amplification ?? 0
            }
        }

        /// The smallest rise that matters, beside the 10 %: a tenth of normal load, 1 point of
        /// failed calls, a second, a hundred attempts.
        var margin: Double {
            switch self {
            case .peakLoad, .peakLoad100ms, .amplification, .groupPeakLoad, .groupAmplification: return 0.1
            case .failedPercent: return 1
            case .p99: return 1000
            case .recovery: return 5
            case .wastedAttempts: return 100
            }
        }

        var description: String {
            switch self {
            case .peakLoad: return "peak load"
            case .peakLoad100ms: return "peak load in 100 ms"
            case .amplification: return "attempts per call"
            case .failedPercent: return "failed calls (%)"
            case .p99: return "p99 time to a ticket"
            case .wastedAttempts: return "wasted attempts"
            case .recovery: return "recovery (s)"
            case .groupPeakLoad(let g): return "peak load of \(g)"
            case .groupAmplification(let g): return "attempts per call of \(g)"
            }
        }
    }

    /// (the rule, the change to the canonical policy, the built-in scenario, the figure).
    static let cases: [(rule: String, from: String, to: String, scenario: String, figure: Figure)] = [
        ("interactive retries over 3", "maxRetries: 3 ", "maxRetries: 4 ", "outage", .peakLoad),
        ("interactive timeout under 5 s", "timeout: 8s ", "timeout: 4s ", "backlog", .wastedAttempts),
        ("background timeout under 5 s", "timeout: 15s\n", "timeout: 4s\n", "backlog", .wastedAttempts),
        ("budget ratio over 10 %", "ratio: 10%", "ratio: 20%", "backend", .peakLoad),
        ("budget floor over 10", "minPerMinute: 10", "minPerMinute: 20", "backend", .amplification),
        ("Retry-After not honoured", "honor: true", "honor: false", "spike", .peakLoad),
        ("exponential backoff", "backoff: full-jitter", "backoff: exponential", "reset", .peakLoad100ms),
        ("equal-jitter backoff", "backoff: full-jitter", "backoff: equal-jitter", "reset", .peakLoad100ms),
        ("constant backoff", "backoff: full-jitter", "backoff: constant", "reset", .peakLoad100ms),
    ]

    static let seeds: [UInt64] = [1, 2, 3]

    static func policy(_ from: String, _ to: String) throws -> Policy {
        #expect(Canonical.text.contains(from), "the canonical policy has no '\(from)'")
        let checked = Checker.check(Array(Canonical.text.replacingFirst(from, with: to).utf8), path: "broken.yaml")
        return try #require(checked.simulatable, "\(checked.diagnostics.map(\.headline))")
    }

    static func run(_ policy: Policy, _ scenario: String, _ seed: UInt64) throws -> SimulationRun {
        let s = try #require(Scenario.builtin(scenario))
        switch Simulator.run(policy: policy, scenario: s, seed: seed) {
        case .success(let run): return run
        case .failure(let f): throw f
        }
    }

    /// The canonical policy's runs of every built-in scenario and seed, made once, in parallel.
    static let canonicalRuns: [String: SimulationRun] = {
        let jobs = Scenario.builtinNames.flatMap { name in seeds.map { (name, $0) } }
        nonisolated(unsafe) var runs = [SimulationRun?](repeating: nil, count: jobs.count)
        runs.withUnsafeMutableBufferPointer { buffer in
            nonisolated(unsafe) let slots = buffer
            DispatchQueue.concurrentPerform(iterations: jobs.count) { i in
                let checked = Checker.check(Array(Canonical.text.utf8), path: "canonical.yaml")
                if let policy = checked.simulatable, let s = Scenario.builtin(jobs[i].0),
                   case .success(let run) = Simulator.run(policy: policy, scenario: s, seed: jobs[i].1) {
                    slots[i] = run
                }
            }
        }
        var out: [String: SimulationRun] = [:]
        for (i, job) in jobs.enumerated() { out["\(job.0) \(job.1)"] = runs[i] }
        return out
    }()

    static func canonical(_ scenario: String, _ seed: UInt64) throws -> SimulationRun {
        try #require(canonicalRuns["\(scenario) \(seed)"])
    }

    @Test(arguments: cases.indices)
    func breakingTheRuleIsClearlyWorse(_ index: Int) throws {
        let c = Self.cases[index]
        let broken = try Self.policy(c.from, c.to)
        for seed in Self.seeds {
            let before = c.figure.value(try Self.canonical(c.scenario, seed))
            let after = c.figure.value(try Self.run(broken, c.scenario, seed))
            #expect(after >= before * 1.1 && after - before >= c.figure.margin,
                    "\(c.rule), \(c.scenario), seed \(seed): \(c.figure) \(before) → \(after)")
        }
    }

    @Test(arguments: Scenario.builtinNames)
    func theCanonicalPolicyRecovers(_ name: String) throws {
        for seed in Self.seeds {
            let run = try Self.canonical(name, seed)
            #expect(run.summary.recoverySeconds != nil, "\(name), seed \(seed): no recovery within the run")
        }
    }

    /// Every rule has a scenario, and every scenario the suite names is built in.
    @Test func everyRuleOfTheGuideIsCovered() {
        let rules = Set(Self.cases.map(\.rule))
        for rule in ["interactive retries over 3", "interactive timeout under 5 s", "budget ratio over 10 %",
                     "budget floor over 10", "Retry-After not honoured", "exponential backoff",
                     "equal-jitter backoff", "constant backoff"] {
            #expect(rules.contains(rule), "\(rule)")
        }
        for c in Self.cases { #expect(Scenario.builtinNames.contains(c.scenario)) }
    }
}
