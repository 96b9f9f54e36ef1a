import PolicySource
import PolicyCheck
import PolicyReport
import PolicySimulation

/// Which built-in scenario shows a profile's weakest point. Measured against
/// the guide's own policy (`Canonical`), so that the answer names what this policy does worse
/// than the guide: a policy that ignores Retry-After is weakest in the spike, one without jitter
/// after the reset. Where no scenario shows it worse than the guide's policy, its weakest point
/// is the scenario hardest on it: no recovery within the run first, then the most calls that
/// fail, then the highest peak load (for every policy that is a scenario past what any retry
/// rule can save).
public struct WeakestPoint: Sendable, Hashable {
    public var scenario: String
    /// The scenario's description, its first clause: "three times the calls for 60 s at peak time".
    public var scenarioWords: String
    public var figures: ScenarioFigures
    /// The figures worse than the guide's policy there, past the review's thresholds; empty when
    /// the policy is nowhere worse than the guide's.
    public var worseThanGuide: [FigureChange]

    /// The scenario where `head` compares worst against the guide's `guide` figures, else the one
    /// hardest on `head`; both are per built-in scenario, in one order.
    public static func pick(policy: String, head: [(Scenario, ScenarioFigures)], guide: [ScenarioFigures?],
                            thresholds: ReviewThresholds) -> WeakestPoint? {
        guard !head.isEmpty else { return nil }
        var best: (index: Int, score: Double, worse: [FigureChange])? = nil
        for (i, (_, figures)) in head.enumerated() {
            guard i < guide.count, let base = guide[i] else { continue }
            let worse = WorseReview.compare(policy: policy, base: base, head: figures, thresholds: thresholds).filter(\.worse)
            guard let score = worse.map(Self.score).max() else { continue }
            if best == nil || score > best!.score { best = (i, score, worse) }
        }
        let index = best?.index ?? head.indices.max { Self.hardness(head[$0].1).lexicographicallyPrecedes(Self.hardness(head[$1].1)) }!
        let (scenario, figures) = head[index]
        return WeakestPoint(scenario: scenario.name, scenarioWords: Self.words(scenario), figures: figures,
                            worseThanGuide: best?.worse ?? [])
    }

    /// How far a worse figure moved, as a fraction of the guide's: no ticket or no recovery where
    /// the guide's policy had one outranks any finite move.
    static func score(_ c: FigureChange) -> Double {
        guard let b = c.base, let h = c.head else { return .infinity }
        switch c.figure {
        case .peakLoad, .peakLoad100ms, .p95: return (h - b) / max(b, 0.001)
        case .sawRetry: return (h - b) / max(b, 1)
        case .recovery: return (h - b) / max(b, 10)
        }
    }

    /// Larger is harder: (no recovery, calls that fail, peak load).
    static func hardness(_ f: ScenarioFigures) -> [Double] {
        [f.recoverySeconds == nil ? 1 : 0, f.failedPercent ?? 0, f.peakLoad ?? 0]
    }

    /// "three times the calls for 60 s at peak time (a new episode is out)": the description up to
    /// its first ';', starting lower case; the name without one.
    static func words(_ s: Scenario) -> String {
        guard let d = s.description, let first = d.split(separator: ";").first, let c = first.first else { return s.name }
        var out = String(first)
        if out.hasSuffix(".") { out.removeLast() }
        // "A 30 s outage" reads "a 30 s outage" mid-sentence; an acronym ("TLS …") stays.
        let second = out.dropFirst().first
        return c.isUppercase && second?.isUppercase != true ? c.lowercased() + out.dropFirst() : out
    }

    /// "Weakest point of the built-in scenarios: spike (five times the calls for 5 s …): peak load
    /// 20.3× of normal where the guide's policy has 6.9×, … (policyc simulate --scenario spike)."
    public var sentence: String {
        let f = figures
        var out = "Weakest point of the built-in scenarios: \(scenario) (\(scenarioWords)): "
        if worseThanGuide.isEmpty {
            out += "\(OutageReview.failedWords(f.interactive)) \(Wording.percent(f.failedPercent)), "
                + "peak load \(OutageReview.load(f.peakLoad)) of normal, recovery \(OutageReview.recovery(f.recoverySeconds)); "
                + "no built-in scenario shows it worse than the guide's own policy"
        } else {
            out += worseThanGuide.map(Self.comparedWithTheGuide).joined(separator: ", ")
        }
        return out + " (policyc simulate --scenario \(scenario))."
    }

    /// "peak load 20.3× where the guide's policy has 7.0×"; a figure the head lacks is said in
    /// words ("over 5 % of calls get no ticket where the guide's policy gives 95 % one within 6.22 s").
    static func comparedWithTheGuide(_ c: FigureChange) -> String {
        switch (c.figure, c.head, c.base) {
        case (.p95, nil, let b?):
            return "over 5 % of calls get no ticket where the guide's policy gives 95 % one within \(c.value(b))"
        case (.recovery, nil, let b?):
            return "no recovery within the run where the guide's policy recovers "
                + (b == 0 ? "as soon as the faults end" : "in \(c.value(b))")
        default:
            return "\(c.figureWords) \(c.value(c.head)) where the guide's policy has \(c.value(c.base))"
        }
    }

    public var json: JSON {
        .object([
            "scenario": .string(scenario),
            "peakLoad": figures.peakLoad.map { .double(SimulationReport.rounded($0, 2)) } ?? .null,
            "failedPercent": figures.failedPercent.map { .double(SimulationReport.rounded($0, 1)) } ?? .null,
            "p95Ms": figures.p95Ms.map(JSON.int) ?? .null,
            "recoverySeconds": figures.recoverySeconds.map(JSON.int) ?? .null,
            "worseThanGuide": .array(worseThanGuide.map(\.json)),
        ])
    }
}

extension Explanation {
    /// Runs every built-in scenario for every profile, and for the guide's own policy's profile of
    /// the same kind (all at once, on every core, each distinct set of values once): the standard
    /// outage's figures and the weakest point of each profile.
    public mutating func addSimulatedFigures(thresholds: ReviewThresholds = ReviewThresholds()) {
        let builtins = Scenario.builtinNames.compactMap(Scenario.builtin)
        guard !policies.isEmpty, !builtins.isEmpty else { return }
        let guide = Policy.canonical
        var jobs: [(Policy, Policy.Profile, Scenario)] = []
        for p in policies {
            for e in p.profiles {
                jobs += builtins.map { (p.policy, e.profile, $0) }
                if let guide, let twin = guide.profiles.first(where: { $0.kind == e.profile.kind }) {
                    jobs += builtins.map { (guide, twin, $0) }
                }
            }
        }
        let runs = OutageReview.simulate(jobs)
        var j = 0
        for p in policies.indices {
            for e in policies[p].profiles.indices {
                let profile = policies[p].profiles[e].profile
                let own = runs[j..<(j + builtins.count)]
                j += builtins.count
                var theirs = [SimulationRun?](repeating: nil, count: builtins.count)
                if let guide, guide.profiles.contains(where: { $0.kind == profile.kind }) {
                    theirs = Array(runs[j..<(j + builtins.count)])
                    j += builtins.count
                }
                if let outage = builtins.firstIndex(where: { $0.name == Scenario.standard.name }),
                   let run = own[own.startIndex + outage] {
                    policies[p].profiles[e].outage = OutageFigures(run, profile: profile)
                }
                var head: [(Scenario, ScenarioFigures)] = []
                var base: [ScenarioFigures?] = []
                for (k, scenario) in builtins.enumerated() {
                    guard let run = own[own.startIndex + k] else { continue }
                    head.append((scenario, ScenarioFigures(run, profile: profile)))
                    base.append(theirs[k].map { ScenarioFigures($0, profile: profile) })
                }
                policies[p].profiles[e].weakest = WeakestPoint.pick(policy: policies[p].policy.name, head: head, guide: base,
                                                                    thresholds: thresholds)
            }
        }
        addRetryAfterFigures()
    }
}
