import Testing
@testable import PolicySource
@testable import PolicyCheck
@testable import PolicyReport
@testable import PolicySimulation
@testable import PolicyReview

/// The comparison of base and head figures under the built-in scenarios, with hand-made figures.
struct WorseReviewTests {
    static func figures(peak: Double? = 4, failed: Double? = 10, p95: Int? = 2000, recovery: Int? = 5) -> ScenarioFigures {
        ScenarioFigures(scenario: "surge", profile: "interactive", interactive: true, peakLoad: peak, failedPercent: failed,
                        p95Ms: p95, recoverySeconds: recovery)
    }

    func compare(_ base: ScenarioFigures, _ head: ScenarioFigures, _ t: ReviewThresholds = ReviewThresholds()) -> [FigureChange] {
        WorseReview.compare(policy: "playback", base: base, head: head, thresholds: t)
    }

    @Test func equalFiguresAndSmallMovesSayNothing() {
        #expect(compare(Self.figures(), Self.figures()).isEmpty)
        // Each just within its default threshold.
        #expect(compare(Self.figures(), Self.figures(peak: 4.8, failed: 15, p95: 2500, recovery: 15)).isEmpty)
    }

    @Test func eachFigurePastItsThresholdIsWorse() {
        let changes = compare(Self.figures(), Self.figures(peak: 4.9, failed: 15.1, p95: 2600, recovery: 16))
        #expect(changes.map(\.figure) == [.peakLoad, .sawRetry, .p95, .recovery])
        #expect(changes.allSatisfy { $0.worse })
        #expect(changes[0].line == "interactive in scenario surge: peak load 4.00× → 4.90× (+22.5 %)")
        #expect(changes[1].line == "interactive in scenario surge: viewers who see Retry 10 % → 15.1 % (+5.1 points)")
        #expect(changes[2].change == "+30 %")
        #expect(changes[3].change == "+11 s")
        let verdict = WorseReview.verdict(changes)
        #expect(verdict == "worse in an outage: policy playback, interactive in scenario surge: peak load 4.00× → 4.90× (+22.5 %) (and 3 more)")
        #expect(compact(changes[0].json) == #"{"base":4,"change":22.5,"changeText":"+22.5 %","figure":"peakLoad","guide":null,"head":4.9,"newPolicy":false,"policy":"playback","profile":"interactive","scenario":"surge","withinGuide":false}"#)
    }

    @Test func noRecoveryOrNoTicketIsWorseAndTheReverseBetter() {
        var changes = compare(Self.figures(), Self.figures(p95: nil, recovery: nil))
        #expect(changes.map(\.figure) == [.p95, .recovery])
        #expect(changes.allSatisfy { $0.worse })
        #expect(changes[1].change == "no longer recovers within the run")
        changes = compare(Self.figures(recovery: nil), Self.figures())
        #expect(changes.map(\.figure) == [.recovery])
        #expect(changes.allSatisfy { !$0.worse })
    }

    @Test func improvementsPastTheThresholdsAreBetter() {
        let changes = compare(Self.figures(recovery: 20), Self.figures(peak: 2, failed: 1, p95: 1000, recovery: 0))
        #expect(changes.count == 4)
        #expect(changes.allSatisfy { !$0.worse })
        #expect(changes[0].change == "−50 %")
        #expect(WorseReview.verdict(changes.filter(\.worse)) == nil)
    }

    @Test func thresholdsChangeTheOutcome() {
        var loose = ReviewThresholds()
        loose.peakLoadPercent = 50
        loose.sawRetryPoints = 10
        loose.p95Percent = 50
        loose.recoveryMs = 20_000
        let head = Self.figures(peak: 4.9, failed: 15.1, p95: 2600, recovery: 16)
        #expect(compare(Self.figures(), head, loose).isEmpty)
        var tight = ReviewThresholds()
        tight.peakLoadPercent = 5
        #expect(compare(Self.figures(), Self.figures(peak: 4.3), tight).map(\.figure) == [.peakLoad])
        #expect(compare(Self.figures(), Self.figures(peak: 4.3)).isEmpty)
    }

    @Test func tinyTimesAreNotWorseWhateverTheirPercent() {
        // 0.1 s → 0.3 s is +200 % but under the smallest move that matters.
        #expect(compare(Self.figures(p95: 100), Self.figures(p95: 300)).isEmpty)
    }

    @Test func reviewThresholdsFromTheProjectFile() {
        let (config, findings) = ProjectConfig.load(Array("version: 1\nreview: {peakLoad: 50%, sawRetry: 2.5, p95: 10%, recovery: 30s}\n".utf8),
                                                    path: "policyc.yaml")
        #expect(findings.isEmpty)
        #expect(config.review.peakLoadPercent == 50)
        #expect(config.review.sawRetryPoints == 2.5)
        #expect(config.review.p95Percent == 10)
        #expect(config.review.recoveryMs == 30_000)
        #expect(ProjectConfig.load(Array("version: 1\n".utf8), path: "p").config.review == ReviewThresholds())
        let typo = ProjectConfig.load(Array("version: 1\nreview: {peakLaod: 50%}\n".utf8), path: "policyc.yaml").diagnostics
        #expect(typo.count == 1)
        #expect(typo.first?.message.contains("peakLaod") == true)
        let help = typo.first?.help ?? ""
        #expect(help.contains("peakLoad"))
    }

    @Test func diffRunsTheBuiltInScenariosOnlyForChangedProfiles() {
        let harmful = variant([("maxRetries: 5", "maxRetries: 10"), ("deadline: 120s", "deadline: 300s")])
        var report = review(Canonical.text, harmful)
        report.addOutageFigures(old: reviewSide([("Policies/playback.yaml", Canonical.text)]),
                                new: reviewSide([("Policies/playback.yaml", harmful)]))
        let worse = report.scenarioVerdict?.worse ?? []
        #expect(!worse.isEmpty)
        #expect(worse.allSatisfy { $0.profile == "background" })
        #expect(report.exitCode() == 1)
        #expect(report.exitCode(Allowances(worse: true)) == 0)
        #expect(report.verdict().text.contains("worse in an outage"))
        #expect(report.text().contains("  worse in an outage ("))
        #expect(report.markdown().contains("**Worse in an outage**"))
        let json = compact(report.json)
        #expect(json.contains(#""worse":[{"#))
        #expect(json.contains(#""better":["#))
    }

    /// Fewer background retries: fewer calls fail and more of the slow ones now end in a ticket.
    /// Over the successes alone their p95 rose from 0.05 s to 15.9 s in the spike, and the review
    /// called a harmless change worse; over every call there is no p95 on either side.
    @Test func fewerRetriesAreNotWorseBecauseMoreSlowCallsSucceed() {
        let fewer = variant([("maxRetries: 5", "maxRetries: 4")])
        var report = review(Canonical.text, fewer)
        report.addOutageFigures(old: reviewSide([("Policies/playback.yaml", Canonical.text)]),
                                new: reviewSide([("Policies/playback.yaml", fewer)]))
        let verdict = report.scenarioVerdict
        #expect(verdict != nil)
        #expect(verdict?.worse.isEmpty == true, "\(verdict?.worse.map(\.line) ?? [])")
        #expect(verdict?.better.isEmpty == false)
        #expect(report.exitCode() == 0)
    }
}
