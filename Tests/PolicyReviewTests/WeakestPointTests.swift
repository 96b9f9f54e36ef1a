import Testing
@testable import PolicySource
@testable import PolicyCheck
@testable import PolicyReport
@testable import PolicySimulation
@testable import PolicyReview

/// explain's weakest point: the built-in scenario where a profile is furthest behind the guide's
/// own policy, else the one hardest on it.
struct WeakestPointTests {
    static func figures(_ scenario: String, peak: Double, failed: Double, recovery: Int?) -> ScenarioFigures {
        ScenarioFigures(scenario: scenario, profile: "interactive", interactive: true, peakLoad: peak,
                        failedPercent: failed, p95Ms: nil, recoverySeconds: recovery)
    }

    static let scenarios = ["outage", "spike", "reset"].compactMap(Scenario.builtin)

    /// The weakest point of `head` (outage, spike, reset) against the guide's `guide`.
    static func pick(_ head: [ScenarioFigures], guide: [ScenarioFigures]) throws -> WeakestPoint {
        try #require(WeakestPoint.pick(policy: "p", head: Array(zip(scenarios, head)), guide: guide,
                                       thresholds: ReviewThresholds()))
    }

    @Test func theScenarioFurthestBehindTheGuideWins() throws {
        let guide = [Self.figures("outage", peak: 4, failed: 16, recovery: 0),
                     Self.figures("spike", peak: 7, failed: 10, recovery: 5),
                     Self.figures("reset", peak: 3, failed: 5, recovery: 0)]
        // outage +25 % peak, spike +190 % peak: the spike.
        let head = [Self.figures("outage", peak: 5, failed: 16, recovery: 0),
                    Self.figures("spike", peak: 20.3, failed: 10, recovery: 5),
                    Self.figures("reset", peak: 3, failed: 5, recovery: 0)]
        let w = try Self.pick(head, guide: guide)
        #expect(w.scenario == "spike")
        #expect(w.worseThanGuide.map(\.figure) == [.peakLoad])
        #expect(w.sentence.hasPrefix("Weakest point of the built-in scenarios: spike (five times the calls for 5 s (a push notification)): peak load 20.3× where the guide's policy has 7.00×"))
        #expect(w.sentence.hasSuffix(" (policyc simulate --scenario spike)."))
        // No recovery where the guide's policy recovers outranks any finite move.
        var never = head
        never[2].recoverySeconds = nil
        let n = try Self.pick(never, guide: guide)
        #expect(n.scenario == "reset")
        #expect(n.sentence.contains("): no recovery within the run where the guide's policy recovers as soon as the faults end"), "\(n.sentence)")
        var later = guide
        later[2].recoverySeconds = 17
        let l = try Self.pick(never, guide: later)
        #expect(l.sentence.contains("no recovery within the run where the guide's policy recovers in 17 s"), "\(l.sentence)")
        // Over 5 % without a ticket is said so, not as a time.
        var guideP95 = guide, noTicket = head
        guideP95[0].p95Ms = 6_220
        noTicket[0] = ScenarioFigures(scenario: "outage", profile: "interactive", interactive: true, peakLoad: 4,
                                      failedPercent: 16, p95Ms: nil, recoverySeconds: 0)
        let t = try Self.pick(noTicket, guide: guideP95)
        #expect(t.scenario == "outage")
        #expect(t.sentence.contains("): over 5 % of calls get no ticket where the guide's policy gives 95 % one within 6.22 s"), "\(t.sentence)")
    }

    @Test func withoutAnythingWorseTheHardestScenarioWins() throws {
        let same = [Self.figures("outage", peak: 4, failed: 16, recovery: 0),
                    Self.figures("spike", peak: 7, failed: 30, recovery: 5),
                    Self.figures("reset", peak: 3, failed: 5, recovery: 0)]
        let w = try Self.pick(same, guide: same)
        #expect(w.scenario == "spike" && w.worseThanGuide.isEmpty)
        #expect(w.sentence.contains("viewers who see Retry 30 %, peak load 7.00× of normal, recovery 5 s; no built-in scenario shows it worse than the guide's own policy"))
        // No recovery within the run is harder than any share of failed calls.
        var stuck = same
        stuck[2].recoverySeconds = nil
        let s = try Self.pick(stuck, guide: same)
        #expect(s.scenario == "reset")
    }

    static func explained(_ replacements: [(String, String)]) throws -> Explanation {
        var text = Canonical.text
        for (from, to) in replacements {
            #expect(text.contains(from), "the canonical policy has no '\(from)'")
            text = text.replacingFirst(from, with: to)
        }
        let policy = try #require(Checker.check(Array(text.utf8), path: "p.yaml").simulatable)
        var e = Explanation([policy])
        e.addSimulatedFigures()
        return e
    }

    /// Simulated: each rule of the guide broken alone shows in the scenario made for it.
    @Test(arguments: [
        ("honor: true", "honor: false", "interactive", "spike"),
        ("backoff: full-jitter", "backoff: exponential", "interactive", "reset"),
        ("maxRetries: 3 ", "maxRetries: 5 ", "interactive", "outage"),
    ])
    func eachBrokenRuleNamesItsScenario(from: String, to: String, profile: String, scenario: String) throws {
        let e = try Self.explained([(from, to)])
        let w = try #require(e.policies.first?.profiles.first { $0.profile.name == profile }?.weakest)
        #expect(w.scenario == scenario, "\(w.sentence)")
        #expect(!w.worseThanGuide.isEmpty)
        #expect(e.text.contains("    Weakest point of the built-in scenarios: \(scenario) ("))
    }

    @Test func theGuidesOwnPolicyIsNowhereWorseThanItself() throws {
        let e = try Self.explained([])
        for p in e.policies.flatMap(\.profiles) {
            let w = try #require(p.weakest)
            #expect(w.worseThanGuide.isEmpty)
            #expect(Scenario.builtinNames.contains(w.scenario))
        }
        #expect(e.text.contains("no built-in scenario shows it worse than the guide's own policy"))
        #expect(e.text.contains("  Retry-After: honoured, with at most 1 s of random wait added: clients wait as long as the servers ask. "
            + "Simulated both ways; interactive: in the spike peak load "))
        #expect(e.markdown.contains("- **Retry-After**: honoured"))
        let json = e.json.rendered(pretty: false)
        #expect(json.contains(#""weakestPoint":{"#))
    }
}
