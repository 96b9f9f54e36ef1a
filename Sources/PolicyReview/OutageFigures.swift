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

extension DiffReport {
    /// Runs the standard outage on both sides of every changed policy whose retry behaviour
    /// changed (a change under `retry.`), when both sides can be simulated, and adds a comparison
    /// per profile present on both sides. Each such profile whose retry values differ also runs
    /// every built-in scenario on both sides; the figures that moved past `thresholds` become
    /// `scenarioVerdict`. `old` and `new` are the inputs the report was made from.
    public mutating func addOutageFigures(old: [ReviewInput], new: [ReviewInput], thresholds: ReviewThresholds = ReviewThresholds()) {
        func policy(_ inputs: [ReviewInput], named name: String) -> Policy? {
            inputs.first { $0.file.doc?.policy?.value == name }?.file.simulatable
        }
        var pairs: [(review: Int, old: Policy, new: Policy)] = []
        for (i, review) in policies.enumerated() where review.status == .changed {
            guard let name = review.policy, review.changes.contains(where: { $0.path.hasPrefix("retry.") }),
                  let o = policy(old, named: name), let n = policy(new, named: name) else { continue }
            pairs.append((i, o, n))
        }
        guard !pairs.isEmpty else { return }
        // Every job: the standard outage for each profile of each side, then the built-in
        // scenarios for each profile on both sides whose retry values changed.
        var jobs: [(Policy, Policy.Profile, Scenario)] = []
        for pair in pairs {
            for side in [pair.old, pair.new] { jobs += side.profiles.map { (side, $0, Scenario.standard) } }
        }
        let standardCount = jobs.count
        let builtins = Scenario.builtinNames.compactMap(Scenario.builtin)
        var compared: [(review: Int, policy: String, profile: Policy.Profile)] = []
        for pair in pairs {
            for profile in pair.new.profiles {
                guard let before = pair.old.profiles.first(where: { $0.name == profile.name }),
                      RetryValues(pair.old, before) != RetryValues(pair.new, profile) else { continue }
                compared.append((pair.review, pair.new.name, profile))
                for scenario in builtins { jobs += [(pair.old, before, scenario), (pair.new, profile, scenario)] }
            }
        }
        let runs = OutageReview.simulate(jobs)
        var j = 0
        for pair in pairs {
            var sides: [[String: OutageFigures]] = []
            for side in [pair.old, pair.new] {
                var figures: [String: OutageFigures] = [:]
                for profile in side.profiles {
                    if let run = runs[j] { figures[profile.name] = OutageFigures(run, profile: profile) }
                    j += 1
                }
                sides.append(figures)
            }
            policies[pair.review].outage = pair.new.profiles.compactMap { profile in
                guard let b = sides[0][profile.name], let a = sides[1][profile.name] else { return nil }
                return OutageComparison(profile: profile.name, before: b, after: a)
            }
        }
        j = standardCount
        var changes: [FigureChange] = []
        for c in compared {
            for _ in builtins {
                if let b = runs[j], let h = runs[j + 1] {
                    let found = WorseReview.compare(policy: c.policy, base: ScenarioFigures(b, profile: c.profile),
                                                    head: ScenarioFigures(h, profile: c.profile), thresholds: thresholds)
                    policies[c.review].scenarioChanges += found
                    changes += found
                }
                j += 2
            }
        }
        if !compared.isEmpty { scenarioVerdict = ScenarioVerdict(thresholds: thresholds, changes: changes) }
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
