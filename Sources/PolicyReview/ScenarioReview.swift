import PolicySource
import PolicyCheck
import PolicySimulation

extension Policy {
    /// The guide's own policy (`Canonical`), simulated beside a policy's profiles of each kind:
    /// read once, by explain and diff alike.
    static let canonical: Policy? = Checker.check(Array(Canonical.text.utf8), path: "canonical.yaml").simulatable
}

/// The simulations of a review and the verdict they give. The guide's own policy is the
/// yardstick: a figure is worse only when the head is worse than the base past the thresholds
/// and worse than the guide's policy of the same kind past them too, so that a change toward
/// the guide never fails; a new policy is compared with the guide's policy alone.
extension DiffReport {
    /// One profile compared under every built-in scenario: `base` nil for a new policy.
    struct Compared {
        var review: Int
        var policy: String
        var profile: Policy.Profile
        var base: (Policy, Policy.Profile)?
        var head: Policy
    }

    /// Runs the standard outage on both sides of every changed policy whose retry behaviour
    /// changed (a change under `retry.`) and adds a comparison per profile present on both
    /// sides. Each such profile whose retry values differ, and each profile of a new policy,
    /// runs every built-in scenario (and the guide's policy of its kind does); the figures that
    /// moved past `thresholds` become `scenarioVerdict`. `old` and `new` are the inputs the
    /// report was made from; every distinct set of values runs once.
    public mutating func addOutageFigures(old: [ReviewInput], new: [ReviewInput], thresholds: ReviewThresholds = ReviewThresholds()) {
        let pairs = retryPairs(old: old, new: new)
        var compared: [Compared] = []
        for pair in pairs {
            for profile in pair.new.profiles {
                guard let before = pair.old.profiles.first(where: { $0.name == profile.name }),
                      RetryValues(pair.old, before) != RetryValues(pair.new, profile) else { continue }
                compared.append(Compared(review: pair.review, policy: pair.new.name, profile: profile,
                                         base: (pair.old, before), head: pair.new))
            }
        }
        for (i, review) in policies.enumerated() where review.status == .added && review.likelyRename == nil {
            guard let input = new.first(where: { $0.file.path == review.file }), let policy = input.file.simulatable else { continue }
            compared += policy.profiles.map { Compared(review: i, policy: policy.name, profile: $0, base: nil, head: policy) }
        }
        guard !pairs.isEmpty || !compared.isEmpty else { return }

        let guide = Policy.canonical
        let builtins = Scenario.builtinNames.compactMap(Scenario.builtin)
        var jobs: [(Policy, Policy.Profile, Scenario)] = []
        for pair in pairs {
            for side in [pair.old, pair.new] { jobs += side.profiles.map { (side, $0, Scenario.standard) } }
        }
        let standardCount = jobs.count
        for c in compared {
            let yardstick = guide.flatMap { g in g.profiles.first { $0.kind == c.profile.kind }.map { (g, $0) } }
            for scenario in builtins {
                jobs.append((c.head, c.profile, scenario))
                if let (p, f) = c.base { jobs.append((p, f, scenario)) }
                if let (p, f) = yardstick { jobs.append((p, f, scenario)) }
            }
        }
        let runs = OutageReview.simulate(jobs)
        addStandardOutage(pairs, runs: Array(runs[..<standardCount]))

        var j = standardCount
        var changes: [FigureChange] = []
        for c in compared {
            let hasGuide = guide?.profiles.contains { $0.kind == c.profile.kind } ?? false
            for _ in builtins {
                let head = runs[j].map { ScenarioFigures($0, profile: c.profile) }
                j += 1
                var base: ScenarioFigures?
                if c.base != nil {
                    base = runs[j].map { ScenarioFigures($0, profile: c.profile) }
                    j += 1
                }
                var yardstick: ScenarioFigures?
                if hasGuide {
                    yardstick = runs[j].map { ScenarioFigures($0, profile: c.profile) }
                    j += 1
                }
                guard let head else { continue }
                let found = Self.judge(policy: c.policy, head: head, base: base, isNew: c.base == nil, guide: yardstick,
                                       thresholds: thresholds)
                policies[c.review].scenarioChanges += found
                changes += found
            }
        }
        if !compared.isEmpty { scenarioVerdict = ScenarioVerdict(thresholds: thresholds, changes: changes) }
    }

    /// The figures of one scenario that a reviewer reads: against the base, each worse one
    /// checked against the guide's policy; for a new policy, the ones worse than the guide's.
    static func judge(policy: String, head: ScenarioFigures, base: ScenarioFigures?, isNew: Bool, guide: ScenarioFigures?,
                      thresholds: ReviewThresholds) -> [FigureChange] {
        let againstGuide = guide.map { WorseReview.compare(policy: policy, base: $0, head: head, thresholds: thresholds) } ?? []
        func guideValue(_ figure: FigureChange.Figure) -> Double? { guide.flatMap { FigureChange.value(figure, of: $0) } }
        if isNew {
            return againstGuide.filter(\.worse).map { c in
                var c = c
                c.guide = c.base
                c.base = nil
                c.newPolicy = true
                return c
            }
        }
        guard let base else { return [] }
        return WorseReview.compare(policy: policy, base: base, head: head, thresholds: thresholds).map { c in
            var c = c
            c.guide = guideValue(c.figure)
            // Without the guide's figures (no profile of this kind there), the base alone judges.
            if c.worse, guide != nil { c.withinGuide = !againstGuide.contains { $0.worse && $0.figure == c.figure } }
            return c
        }
    }

    /// The changed policies whose retry values changed, both sides simulatable.
    func retryPairs(old: [ReviewInput], new: [ReviewInput]) -> [(review: Int, old: Policy, new: Policy)] {
        func policy(_ inputs: [ReviewInput], named name: String) -> Policy? {
            inputs.first { $0.file.doc?.policy?.value == name }?.file.simulatable
        }
        var pairs: [(review: Int, old: Policy, new: Policy)] = []
        for (i, review) in policies.enumerated() where review.status == .changed {
            guard let name = review.policy, review.changes.contains(where: { $0.path.hasPrefix("retry.") }),
                  let o = policy(old, named: name), let n = policy(new, named: name) else { continue }
            pairs.append((i, o, n))
        }
        return pairs
    }

    /// The standard outage's line per profile present on both sides; `runs` are each pair's
    /// old profiles' then new profiles'.
    mutating func addStandardOutage(_ pairs: [(review: Int, old: Policy, new: Policy)], runs: [SimulationRun?]) {
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
    }
}
