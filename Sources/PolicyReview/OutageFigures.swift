import Dispatch
import PolicySource
import PolicyCheck
import PolicyReport
import PolicySimulation

/// What a profile does in the standard outage (`Scenario.standard`, `simulate --scenario outage`):
/// the figures `diff` shows before and after a change of retry behaviour, and `explain` for one side.
public struct OutageFigures: Sendable, Hashable {
    public var profile: String
    public var interactive: Bool
    /// Largest attempts in a second ÷ normal calls per second.
    public var peakLoad: Double?
    /// Calls that failed, in percent: for an interactive profile, viewers who see Retry.
    public var failedPercent: Double?
    /// Seconds from the outage's end until calls succeed again (nil: not within the run).
    public var recoverySeconds: Int?

    /// The figures of `run`, named for `profile` when given (a run made once for several profiles
    /// with equal values carries the first one's name).
    public init(_ run: SimulationRun, profile: Policy.Profile? = nil) {
        self.profile = profile?.name ?? run.profile
        interactive = profile?.isInteractive ?? run.interactive
        peakLoad = run.summary.peakLoad
        failedPercent = run.summary.failedPercent
        recoverySeconds = run.summary.recoverySeconds
    }

    public var json: JSON {
        .object([
            "peakLoad": peakLoad.map { .double(SimulationReport.rounded($0, 2)) } ?? .null,
            "failedPercent": failedPercent.map { .double(SimulationReport.rounded($0, 1)) } ?? .null,
            "recoverySeconds": recoverySeconds.map(JSON.int) ?? .null,
        ])
    }
}

/// One profile's figures on both sides of a change, and the line that says it.
public struct OutageComparison: Sendable, Hashable {
    public var profile: String
    public var before: OutageFigures
    public var after: OutageFigures

    /// "in a 30 s outage: peak load 1.1× → 2.4× of normal; viewers who see Retry 3 % → 1 %;
    /// recovery 4 s → 38 s".
    public var line: String {
        func pair(_ a: String, _ b: String, _ unit: String = "") -> String {
            a == b ? "\(a)\(unit) (unchanged)" : "\(a) → \(b)\(unit)"
        }
        return "\(OutageReview.scenarioWords): peak load \(pair(OutageReview.load(before.peakLoad), OutageReview.load(after.peakLoad), " of normal")); "
            + "\(OutageReview.failedWords(after.interactive)) \(pair(Wording.percent(before.failedPercent), Wording.percent(after.failedPercent))); "
            + "recovery \(pair(OutageReview.recovery(before.recoverySeconds), OutageReview.recovery(after.recoverySeconds)))"
    }

    public var json: JSON {
        .object([
            "profile": .string(profile),
            "scenario": .string(Scenario.standard.name),
            "before": before.json,
            "after": after.json,
            "effect": .string(line),
        ])
    }
}

/// The standard outage in review: which policies it runs for, the runs (in parallel, each
/// distinct set of retry values once), and the words.
public enum OutageReview {
    /// "in a 30 s outage".
    public static var scenarioWords: String {
        let outage = Scenario.standard.faults.first { $0.kind == .outage }
        return "in " + (outage?.words ?? "the \(Scenario.standard.name) scenario")
    }

    /// Where the figures come from, for a note under them.
    public static var source: String {
        let s = Scenario.standard
        return "simulated with 'policyc simulate --scenario \(s.name)': \(s.clients) devices, "
            + "\(Int(s.normalCallsPerSecond.rounded())) calls a second at peak time, capacity \(JSON.number(s.capacity)) a second"
    }

    /// Each job's run (nil when it could not run), in the jobs' order: all at once on every core,
    /// and runs with the same retry values under the same scenario made once, so the same jobs
    /// give the same runs whatever the threads.
    static func simulate(_ jobs: [(Policy, Policy.Profile, Scenario)]) -> [SimulationRun?] {
        struct Key: Hashable {
            var values: RetryValues
            var scenario: String
        }
        var unique: [Key: Int] = [:]
        var distinct: [(Policy, Policy.Profile, Scenario)] = []
        let index = jobs.map { job -> Int in
            let key = Key(values: RetryValues(job.0, job.1), scenario: job.2.name)
            if let i = unique[key] { return i }
            unique[key] = distinct.count
            distinct.append(job)
            return distinct.count - 1
        }
        let runs = distinct
        let results = parallelMap(runs.count) { i -> SimulationRun? in
            let (policy, profile, scenario) = runs[i]
            return try? Simulator.run(policy: policy, profile: profile, scenario: scenario, seed: WorseReview.seed).get()
        }
        return index.map { results[$0] }
    }

    /// "in a 30 s outage: peak load 2.4× of normal; viewers who see Retry 1 %; recovery 38 s".
    public static func line(_ f: OutageFigures) -> String {
        "\(scenarioWords): peak load \(load(f.peakLoad)) of normal; \(failedWords(f.interactive)) \(Wording.percent(f.failedPercent)); "
            + "recovery \(recovery(f.recoverySeconds))"
    }

    static func load(_ x: Double?) -> String { Wording.times(x) }


    static func recovery(_ s: Int?) -> String { s.map { "\($0) s" } ?? "none within the run" }

    static func failedWords(_ interactive: Bool) -> String { interactive ? "viewers who see Retry" : "calls that fail" }

    /// The lines `diff` prints under a policy, indented for its text report.
    public static func text(_ comparisons: [OutageComparison]) -> String {
        guard !comparisons.isEmpty else { return "" }
        var out = "  outage (\(source)):\n"
        for c in comparisons { out += "    \(printable(c.profile)): \(c.line)\n" }
        return out
    }

    /// The same for a pull-request comment.
    public static func markdown(_ comparisons: [OutageComparison]) -> String {
        guard !comparisons.isEmpty else { return "" }
        var out = "\nOutage (\(Wording.markdown(source))):\n\n"
        for c in comparisons { out += "- \(Wording.code(c.profile)): \(Wording.markdown(c.line))\n" }
        return out
    }
}

/// Everything of a policy and a profile that a simulation reads: two runs with equal values give
/// equal figures.
struct RetryValues: Hashable {
    var profile: [Int]
    var kind: ProfileKind
    var retryOnNetwork: Bool
    var statuses: Set<Int>
    var backoff: Backoff
    var honor: Bool
    var jitter: Int
    var ratio: String
    var floor: Int

    init(_ policy: Policy, _ profile: Policy.Profile) {
        self.profile = [profile.maxRetries, profile.baseMs, profile.capMs, profile.timeoutMs, profile.deadlineMs]
        kind = profile.kind
        retryOnNetwork = policy.retryOnNetwork
        statuses = Set(policy.retryStatuses)
        backoff = policy.backoff
        honor = policy.retryAfterHonor
        jitter = policy.retryAfterMaxJitterMs
        ratio = policy.budgetRatio.canonical
        floor = policy.budgetMinPerMinute
    }
}

extension Explanation {
    /// "Simulated, in a 30 s outage: …", the line `explain` adds under a profile.
    static func outageSentence(_ f: OutageFigures) -> String {
        let line = OutageReview.line(f)
        return "Simulated " + line + " (policyc simulate --scenario \(Scenario.standard.name))."
    }

    /// The standard outage's sentence and the weakest point's, when simulated.
    static func simulatedSentences(_ e: ExplainedProfile) -> [String] {
        (e.outage.map { [outageSentence($0)] } ?? []) + (e.weakest.map { [$0.sentence] } ?? [])
    }
}
