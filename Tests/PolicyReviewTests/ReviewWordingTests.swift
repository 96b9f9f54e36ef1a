import Testing
@testable import PolicySource
@testable import PolicyCheck
@testable import PolicyReport
@testable import PolicySimulation
@testable import PolicyReview
@testable import TestSupport

/// Issue 46, item 6: sentences a reviewer can rely on.
struct ReviewWordingTests {
    // MARK: the longest wait that can happen

    @Test func theLongestStepIsTheLargestReachable() {
        // 500 ms doubling, 3 retries: 500 ms, 1 s, 2 s whatever the cap above 2 s.
        #expect(ReachableWaits(maxRetries: 3, base: 500, cap: 8000, deadline: 15000, backoff: .fullJitter).longest == 2000)
        #expect(ReachableWaits(maxRetries: 3, base: 500, cap: 30000, deadline: 15000, backoff: .fullJitter).longest == 2000)
        // The cap binds: 500, 1000, 1000.
        #expect(ReachableWaits(maxRetries: 3, base: 500, cap: 1000, deadline: 15000, backoff: .exponential).steps == [500, 1000, 1000])
        // Constant: the base every time, the cap plays no part.
        #expect(ReachableWaits(maxRetries: 4, base: 700, cap: 100, deadline: 15000, backoff: .constant).steps == [700, 700, 700, 700])
        // The deadline: exponential waits 1, 2, 4, 8 s add up to 7 s before the fourth, which
        // would end at 15 s ≥ the 10 s deadline: the longest wait that can happen is 4 s.
        #expect(ReachableWaits(maxRetries: 4, base: 1000, cap: 60000, deadline: 10000, backoff: .exponential).longest == 4000)
        // Full jitter may draw next to nothing before it, so the 8 s step fits the 10 s deadline.
        #expect(ReachableWaits(maxRetries: 4, base: 1000, cap: 60000, deadline: 10000, backoff: .fullJitter).longest == 8000)
        // Equal jitter waits at least half: 0.5 + 1 + 2 = 3.5 s before an 8 s step: 11.5 s ≥ 10 s.
        #expect(ReachableWaits(maxRetries: 4, base: 1000, cap: 60000, deadline: 10000, backoff: .equalJitter).longest == 4000)
        #expect(ReachableWaits(maxRetries: 0, base: 1000, cap: 60000, deadline: 10000, backoff: .exponential).longest == nil)
    }

    @Test func aCapNeverReachedChangesNoWait() throws {
        let r = review(Canonical.text, variant([("cap: 8s  ", "cap: 30s ")]))
        let change = try #require(r.policies.first?.changes.first)
        #expect(change.path == "retry.profiles.interactive.cap")
        #expect(change.effect.hasPrefix("cap 8 s → 30 s changes no wait: the longest wait that can happen is 2 s either way"),
                "\(change.effect)")
        #expect(!change.effect.contains("longest wait between attempts"))
        // A cap that is reached moves the longest wait, and says so with the values that happen.
        let lower = try #require(review(Canonical.text, variant([("cap: 8s  ", "cap: 1s  ")])).policies.first?.changes.first)
        #expect(lower.effect.hasPrefix("longest wait between attempts: 2 s → 1 s;"), "\(lower.effect)")
        let more = try #require(review(Canonical.text, variant([("maxRetries: 3 ", "maxRetries: 2 "), ("cap: 8s  ", "cap: 500ms")]))
            .policies.first?.changes.first { $0.path.hasSuffix(".cap") })
        #expect(more.effect.hasPrefix("longest wait between attempts: 2 s → 500 ms"), "\(more.effect)")
    }

    // MARK: the budget

    @Test func theBudgetSentenceSaysWhereTheFloorGoverns() throws {
        let r = review(Canonical.text, variant([("ratio: 10%", "ratio: 5%")]))
        let change = try #require(r.policies.first?.changes.first)
        // 10 a minute ÷ 10 % = 100; ÷ 5 % = 200.
        #expect(change.effect.contains("for a client that sends at least 200 requests a minute; below 100 requests a minute "
            + "the floor of 10 retries a minute governs either way, and the ratio changes nothing there"), "\(change.effect)")
        #expect(change.effect.contains("(from 100 to 200 requests a minute the floor now governs)"))
        // The standard outage's devices start 0.5 calls a minute, at most 6 attempts each.
        #expect(change.effect.contains("in the standard outage a device sends at most 3 requests a minute"), "\(change.effect)")
        #expect(change.effect.hasSuffix("so the floor governs there"))

        let floor = try #require(review(Canonical.text, variant([("minPerMinute: 10", "minPerMinute: 20")])).policies.first?.changes.first)
        #expect(floor.effect.contains("the floor governs for a client that sends fewer than 200 requests a minute (before: 100), "
            + "and there the ratio (10%) changes nothing"), "\(floor.effect)")
        let none = try #require(review(Canonical.text, variant([("minPerMinute: 10", "minPerMinute: 0"), ("ratio: 10%", "ratio: 5%")]))
            .policies.first?.changes.first { $0.path == "retry.budget.ratio" })
        #expect(none.effect.hasSuffix("retries add up to 5% to the load (no floor)"), "\(none.effect)")
    }

    // MARK: one rounding, one minus sign

    @Test func changesAreSignedAndRoundedOneWay() {
        #expect(Wording.change(4, 4.9) == "+22.5 %")
        #expect(Wording.change(3, 2) == "−33.3 %")
        #expect(Wording.change(2, 1) == "−50 %")
        #expect(Wording.change(1000, 1000.1) == "±0 %")
        #expect(Wording.change(1, 1) == "unchanged")
        #expect(Wording.change(0, 1) == "up")
        #expect(Wording.points(-2) == "−2 points")
        #expect(Wording.points(1.25) == "+1.3 points")
        #expect(Wording.difference(-3, places: 0, unit: "s") == "−3 s")
        // The review's figures and simulate's use the same forms.
        #expect(OutageReview.load(3) == "3.00×")
        #expect(OutageReview.load(20.31) == Wording.times(20.31))
    }

    // MARK: Retry-After in explain

    @Test func explainAlwaysHasItsRetryAfterPart() throws {
        for honor in [true, false] {
            let text = variant([("honor: true", "honor: \(honor)")])
            let file = Checker.check(Array(text.utf8), path: "Policies/playback.yaml")
            var e = Explanation(files: [file])
            try #require(e.policies.count == 1)
            #expect(e.text.contains("  Retry-After: " + (honor ? "honoured" : "ignored")), "\(e.text)")
            e.addRetryAfterFigures()
            let part = e.policies[0].retryAfter
            #expect(part.honor == honor)
            #expect(part.profiles.map(\.profile) == ["interactive", "background"])
            let other = honor ? "ignoring it" : "honouring it"
            #expect(part.sentence.contains("interactive: in the spike peak load "), "\(part.sentence)")
            #expect(part.sentence.contains("(\(other): "))
            // Honouring Retry-After keeps the spike's peak down, whichever side the policy is on.
            let spike = part.profiles[0].spike
            #expect((spike.honoured.peakLoad ?? 0) < (spike.ignored.peakLoad ?? 0))
            let json = compact(e.json)
            #expect(json.contains(#""retryAfter":{"honor":\#(honor),"maxJitterMs":1000,"profiles":{"background":{"spike":{"honoured":{"#),
                    "\(json)")
            #expect(e.markdown.contains("- **Retry-After**: " + (honor ? "honoured" : "ignored")))
        }
    }
}
