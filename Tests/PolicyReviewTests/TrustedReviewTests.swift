import Testing
@testable import PolicySource
@testable import PolicyCheck
@testable import PolicyReport
@testable import PolicySimulation
@testable import PolicyReview

/// A review to trust (issue 46): the project file of each side, the guide as yardstick, bursts,
/// widened waivers, what a change fixes, and the json a program acts on.
struct TrustedReviewTests {
    static func project(_ yaml: String, baseline: Int? = nil) -> ReviewProject {
        ReviewProject(file: "policyc.yaml", config: ProjectConfig.load(Array(yaml.utf8), path: "policyc.yaml").config,
                      baselineEntries: baseline)
    }

    @Test func aLimitGoneOrRaisedAndAThresholdRaisedAreLoosened() {
        let base = Self.project("version: 1\nlimits:\n  backgroundMaxRetries: 6\n  timeoutMin: 8s\nreview:\n  peakLoad: 20%\n")
        let head = Self.project("version: 1\nlimits:\n  timeoutMin: 6s\nreview:\n  peakLoad: 100%\n  recovery: 5s\n")
        let changes = ProjectFileReview.compare(base: base, head: head)
        #expect(changes.map(\.line) == [
            "limits.backgroundMaxRetries 6 → none (loosened)",
            "limits.timeoutMin 8s → 6s (loosened)",          // a least value lowered
            "review.peakLoad 20% → 100% (loosened)",
            "review.recovery 10 s → 5 s (tightened)",
        ])
        var report = review(Canonical.text, Canonical.text)
        report.projectFile = changes
        #expect(report.exitCode() == 1)
        #expect(report.exitCode(Allowances(loosen: true)) == 0)
        #expect(report.verdict().text.hasPrefix(
            "fails: the project file judges less strictly (3 limits or thresholds loosened) (--allow-loosen accepts it)"))
        // Tightening alone passes, and the same file on both sides says nothing.
        #expect(ProjectFileReview.compare(base: head, head: base).filter(\.loosened).map(\.key) == ["review.recovery"])
        #expect(ProjectFileReview.compare(base: base, head: base).isEmpty)
    }

    @Test func aBaselineThatHoldsMoreAndTargetsAndEditionAreListed() {
        let base = Self.project("version: 1\nbaseline: b.json\n", baseline: 1)
        let head = Self.project("version: 1\nbaseline: b.json\ntargets: [swift]\n", baseline: 3)
        let changes = ProjectFileReview.compare(base: base, head: head)
        #expect(changes.map(\.line) == ["baseline b.json (1 finding) → b.json (3 findings) (loosened)", "targets swift, kotlin, schema → swift"])
    }

    @Test func aWaiverThatLosesAtOrAllowOrExpiresLaterIsWidened() {
        let base = WaiverReviewTests.policy()
        let lostAtAndAllow = base.replacingOccurrences(of: "    at: retry.profiles.interactive.maxRetries\n    allow: 4\n", with: "")
        #expect(lostAtAndAllow != base)
        var r = review(base, lostAtAndAllow)
        #expect(r.waivers.map(\.kind) == [.changed], "one waiver edited, not one added and one removed")
        #expect(r.waivers.first?.widenings.count == 2)
        #expect(r.widened && r.exitCode() == 1)
        #expect(r.exitCode(Allowances(widen: true)) == 0)
        #expect(r.verdict().text.hasPrefix("fails: 1 waiver widened (--allow-widen accepts it)"))
        #expect(r.text().contains("  changed in playback (widened): interactive-retries-max: "))
        #expect(r.markdown().contains("| changed (❌ widened) |"))

        r = review(base, base.replacingOccurrences(of: "expires: 2027-03-31", with: "expires: 2027-04-30"))
        #expect(r.waivers.first?.widenings == ["expires 2027-03-31 → 2027-04-30: later"])
        r = review(base, base.replacingOccurrences(of: "allow: 4", with: "allow: 5"))
        #expect(r.widened)
        r = review(base, base.replacingOccurrences(of: "until PAY-311 ships", with: "until PAY-400 ships"))
        #expect(!r.widened && r.waivers.first?.what == [
            "reason 'Payment confirmation needs a fourth try until PAY-311 ships' → 'Payment confirmation needs a fourth try until PAY-400 ships'"])
        // Narrowing is no widening: an earlier expiry, a lower allow.
        r = review(base, base.replacingOccurrences(of: "expires: 2027-03-31", with: "expires: 2027-02-28"))
        #expect(!r.widened && r.waivers.count == 1)
    }

    @Test func whatAChangeFixesIsListedAndAWaivedFindingIsNotFixed() {
        let broken = variant([("ratio: 10%", "ratio: 20%")])
        var r = review(broken, Canonical.text)
        #expect(r.fixed.map(\.rule) == [.retryBudgetMax])
        #expect(r.text().contains("  fixed:\n    Policies/playback.yaml:"))
        #expect(compact(r.json).contains(#""fixed":[{"#))
        r = review(WaiverReviewTests.policy(waivers: ""), WaiverReviewTests.policy())
        #expect(r.fixed.isEmpty, "a waived finding is still there")
    }

    static func figures(_ scenario: String = "reset", peak: Double = 10, tenth: Double = 20, failed: Double = 10,
                        recovery: Int? = 10) -> ScenarioFigures {
        var f = ScenarioFigures(scenario: scenario, profile: "interactive", interactive: true, peakLoad: peak,
                                failedPercent: failed, p95Ms: 2000, recoverySeconds: recovery)
        f.peakLoad100ms = tenth
        return f
    }

    @Test func worseThanTheBaseButNotThanTheGuideIsListedNotFailed() {
        let t = ReviewThresholds()
        // Recovery 6 s → 17 s, where the guide's policy takes 17 s: a move toward the guide.
        let toward = DiffReport.judge(policy: "p", head: Self.figures(recovery: 17), base: Self.figures(recovery: 6),
                                      isNew: false, guide: Self.figures(recovery: 17), thresholds: t)
        #expect(toward.map(\.figure) == [.recovery] && toward[0].worse && toward[0].withinGuide)
        #expect(toward[0].line == "interactive in scenario reset: recovery 6 s → 17 s (+11 s; within the guide's own policy: 17 s)")
        // Worse than both: fails, and says the guide's figure.
        let worse = DiffReport.judge(policy: "p", head: Self.figures(recovery: 40), base: Self.figures(recovery: 6),
                                     isNew: false, guide: Self.figures(recovery: 17), thresholds: t)
        #expect(worse.count == 1 && worse[0].worse && !worse[0].withinGuide)
        let verdict = ScenarioVerdict(thresholds: t, changes: toward + worse)
        #expect(verdict.worse.count == 1 && verdict.withinGuide.count == 1)
    }

    @Test func burstsInATenthOfASecondAreInTheVerdict() {
        // The figure that tells exponential from full jitter: a second smooths it out.
        let changes = DiffReport.judge(policy: "p", head: Self.figures(tenth: 96.4), base: Self.figures(tenth: 20.5),
                                       isNew: false, guide: Self.figures(tenth: 20.5), thresholds: ReviewThresholds())
        #expect(changes.map(\.figure) == [.peakLoad100ms])
        #expect(changes.first.map { $0.worse && !$0.withinGuide } == true)
    }

    @Test func aNewPolicyIsComparedWithTheGuideAlone() {
        let changes = DiffReport.judge(policy: "downloads", head: Self.figures("outage", peak: 14.7), base: nil, isNew: true,
                                       guide: Self.figures("outage", peak: 6.6), thresholds: ReviewThresholds())
        #expect(changes.map(\.figure) == [.peakLoad])
        #expect(changes[0].line == "interactive in scenario outage: peak load 14.7× where the guide's policy has 6.60× (+122.7 %)")
        #expect(changes[0].json["change"] == .double(122.73) && changes[0].json["guide"] == .double(6.6))
        // As good as the guide's: nothing to say.
        #expect(DiffReport.judge(policy: "d", head: Self.figures(), base: nil, isNew: true, guide: Self.figures(),
                                 thresholds: ReviewThresholds()).isEmpty)
    }

    @Test func jsonCarriesTheVerdictAProgramActsOn() {
        let r = review(Canonical.text, variant([("ratio: 10%", "ratio: 20%")]))
        let json = r.json(.none)
        #expect(json["verdict"] == .string("fail") && json["exit"] == .int(1))
        guard case .array(let reasons)? = json["reasons"] else { Issue.record("no reasons"); return }
        #expect(reasons == [.string("1 error in the new policies (1 new)")])
        #expect(json["mergeBase"] == .null && json["projectFile"] != nil && json["fixed"] == .array([]))
        #expect(review(Canonical.text, Canonical.text).json(.none)["verdict"] == .string("pass"))
    }
}
