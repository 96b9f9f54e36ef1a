import Testing
@testable import PolicySource
@testable import PolicyCheck
@testable import PolicyReport
@testable import PolicySimulation
@testable import PolicyReview
@testable import TestSupport

/// Explain figures against hand-computed values (the working is in each comment).
struct ExplainFigureTests {
    func figures(_ r: Int, _ b: Int, _ c: Int, _ t: Int, _ d: Int) -> ProfileFigures {
        ProfileFigures(maxRetries: r, baseMs: b, capMs: c, timeoutMs: t, deadlineMs: d)
    }

    @Test func canonicalInteractive() {
        // steps 500, 1000, 2000 → 3500; starts 0, 8000+500, 16000+1500=17500 ≥ 15000.
        let f = figures(3, 500, 8000, 8000, 15000)
        #expect(f.attemptsMax == 4)
        #expect(f.maxBackoffTotalMs == 3500)
        #expect(f.worstCaseAttempts == 2)
        #expect(f.worstCaseWaitMs == 15000)   // min(15000, 8500 + 8000)
    }

    @Test func canonicalBackground() {
        // steps 1, 2, 4, 8, 16 s (all under the 30 s cap) → 31 s; starts 0, 16, 33, 52, 75, 106 s,
        // all before 120 s; the last ends at 121 s, cut to the deadline.
        let f = figures(5, 1000, 30000, 15000, 120_000)
        #expect(f.attemptsMax == 6)
        #expect(f.maxBackoffTotalMs == 31000)
        #expect(f.worstCaseAttempts == 6)
        #expect(f.worstCaseWaitMs == 120_000)
    }

    @Test func stepsReachTheCap() {
        // steps 100, 200, 400, 800, then 1000 six times → 1500 + 6000; starts 5000k + B(k):
        // 0, 5100, 10300, 15700, 21500, 27500, ..., 57500 (k = 10) — all 11 before 60 s.
        let f = figures(10, 100, 1000, 5000, 60000)
        #expect(f.maxBackoffTotalMs == 7500)
        #expect(f.worstCaseAttempts == 11)
        #expect(f.worstCaseWaitMs == 60000)
        // deadline 27500: k = 5 starts exactly at it, which does not count ("strictly before").
        let g = figures(10, 100, 1000, 5000, 27500)
        #expect(g.worstCaseAttempts == 5)
        #expect(g.worstCaseWaitMs == 26500)   // 21500 + 5000
    }

    @Test func startAtTheDeadlineDoesNotCount() {
        let f = figures(3, 500, 8000, 8000, 8500)   // attempt 1 would start at 8500
        #expect(f.worstCaseAttempts == 1)
        #expect(f.worstCaseWaitMs == 8000)
    }

    @Test func baseAboveCapAndZeroes() {
        // base > cap: every step is the cap.
        #expect(figures(4, 10_000, 1000, 5000, 100_000).maxBackoffTotalMs == 4000)
        // base 0: no wait at all; timeout 0 too: every attempt starts at 0.
        let z = figures(7, 0, 1000, 0, 1)
        #expect(z.maxBackoffTotalMs == 0)
        #expect(z.worstCaseAttempts == 8)
        #expect(z.worstCaseWaitMs == 0)
        // deadline 0: nothing starts before it.
        let d = figures(3, 500, 8000, 8000, 0)
        #expect(d.worstCaseAttempts == 0)
        #expect(d.worstCaseWaitMs == 0)
        // no retries: one attempt, no backoff.
        let one = figures(0, 500, 8000, 8000, 15000)
        #expect(one.attemptsMax == 1)
        #expect(one.maxBackoffTotalMs == 0)
        #expect(one.worstCaseAttempts == 1)
        #expect(one.worstCaseWaitMs == 8000)
    }

    @Test func theLargestProfileIsExact() {
        let day = Values.maxDurationMs
        // 100 retries: 500 + 1000 + 2000 + 4000 + 96 · 8000 = 775500.
        let f = figures(Language.maxRetries, 500, 8000, 8000, 15000)
        #expect(f.attemptsMax == 101)
        #expect(f.maxBackoffTotalMs == 775_500)
        #expect(f.worstCaseAttempts == 2)
        #expect(f.worstCaseWaitMs == 15000)
        // every value at the top: 100 waits of a day.
        let top = figures(Language.maxRetries, day, day, day, day)
        #expect(top.maxBackoffTotalMs == 100 * day)
        #expect(top.worstCaseAttempts == 1)
        #expect(top.worstCaseWaitMs == day)
        // timeout 0, 1 ms steps: attempt k starts at k, so all 101 start before a day.
        let dense = figures(Language.maxRetries, 1, 1, 0, day)
        #expect(dense.worstCaseAttempts == 101)
        #expect(dense.worstCaseWaitMs == 100)
        #expect(dense.maxBackoffTotalMs == 100)
        // steps 1, 2, 4, ... 2^19 (all under the cap) → 2^20 − 1; start(20) = 20 + 2^20 − 1.
        let long = figures(20, 1, day, 1, day)
        #expect(long.maxBackoffTotalMs == (1 << 20) - 1)
        #expect(long.worstCaseAttempts == 21)
        #expect(long.worstCaseWaitMs == 20 + (1 << 20) - 1 + 1)
        // Past the language's ranges (no policy holds them), the figures of the largest values.
        #expect(figures(1 << 40, 500, 8000, 8000, 15000) == f)
    }

    /// Issue 39, item 2: `constant` waits `base` before every retry, whatever the cap.
    @Test func constantBackoffWaitsTheBaseEveryTime() {
        func constant(_ r: Int, _ b: Int, _ c: Int, _ t: Int, _ d: Int) -> ProfileFigures {
            ProfileFigures(maxRetries: r, baseMs: b, capMs: c, timeoutMs: t, deadlineMs: d, growth: .constant)
        }
        // 3 × 500 ms; starts 0, 8500, 17000 ≥ 15000.
        let i = constant(3, 500, 8000, 8000, 15000)
        #expect(i.maxBackoffTotalMs == 1500)
        #expect(i.worstCaseAttempts == 2)
        #expect(i.worstCaseWaitMs == 15000)
        // 5 × 1 s; starts 0, 16, 32, 48, 64, 80 s: all 6 before 120 s, the last ends at 95 s.
        let b = constant(5, 1000, 30000, 15000, 120_000)
        #expect(b.maxBackoffTotalMs == 5000)
        #expect(b.worstCaseAttempts == 6)
        #expect(b.worstCaseWaitMs == 95000)
        // 10 retries of 1 s (doubling would be 1+2+4+8+16 + 5·30 = 181 s).
        #expect(constant(10, 1000, 30000, 15000, 120_000).maxBackoffTotalMs == 10000)
        #expect(figures(10, 1000, 30000, 15000, 120_000).maxBackoffTotalMs == 181_000)
        // base above the cap: constant still waits the base.
        #expect(constant(4, 10_000, 1000, 5000, 100_000).maxBackoffTotalMs == 40000)
        // 100 retries of 500 ms.
        #expect(constant(Language.maxRetries, 500, 8000, 8000, 15000).maxBackoffTotalMs == 50_000)
        // the strategies that double share one bound.
        for strategy: Backoff in [.exponential, .equalJitter, .fullJitter] {
            #expect(WaitGrowth(backoff: strategy) == .doubling)
        }
        #expect(WaitGrowth(backoff: nil) == .doubling)
        #expect(WaitGrowth(backoff: .constant) == .constant)
    }

    @Test(arguments: [("10", 10, "100"), ("3", 10, "334"), ("2.5", 10, "400"), ("0.3", 1, "334"),
                      ("100", 0, "0"), ("100", 7, "7"), ("0.001", 1000, "100000000")])
    func budgetFloorThreshold(ratio: String, floor: Int, threshold: String) {
        let b = BudgetFigures(ratio: Percent(canonical: ratio), minPerMinute: floor)
        #expect(b.floorBelowRequestsPerMinute.description == threshold)
    }
}

struct ExplainReportTests {
    func policy(_ text: String = Canonical.text) -> Policy? {
        Checker.check(Array(text.utf8), path: "Policies/playback.yaml").policy
    }

    @Test func jsonOfTheCanonicalPolicy() throws {
        let p = try #require(policy())
        let json = Explanation([p]).json.rendered(pretty: false)
        #expect(json.contains(#""interactive":{"attemptsMax":4,"base":500,"cap":8000,"deadline":15000,"kind":"interactive","maxBackoffTotalMs":3500,"maxRetries":3,"timeout":8000,"worstCaseAttempts":2,"worstCaseWaitMs":15000}"#))
        #expect(json.contains(#""background":{"attemptsMax":6,"base":1000,"cap":30000,"deadline":120000,"kind":"background","maxBackoffTotalMs":31000,"maxRetries":5,"timeout":15000,"worstCaseAttempts":6,"worstCaseWaitMs":120000}"#))
        #expect(json.contains(#""budget":{"floorBelowRequestsPerMinute":100,"minPerMinute":10,"ratio":10}"#))
        #expect(json.hasPrefix(#"{"notExplained":[],"policies":{"playback":{"budget""#))
        #expect(json.contains(#""diagnostics":[]"#))
        #expect(json.contains(#""file":"Policies/playback.yaml""#))
    }

    @Test func textAndMarkdownSayTheNumbers() throws {
        let p = try #require(policy())
        let e = Explanation([p])
        #expect(e.text.contains("Up to 4 attempts (the first and 3 retries)"))
        #expect(e.text.contains("2 attempts of 4 start before the 15 s deadline"))
        #expect(e.text.contains("A viewer waits at most 15 s before Retry shows."))
        // Issue 39, item 21: whole words, the unit of each number said.
        // Issue 46, item 6: where the floor governs, and that the ratio then changes nothing.
        #expect(e.text.contains("retry budget: during a full outage retries add at most 10% to the requests of the last minute "
            + "of a client that sends at least 100 requests a minute; below that the floor governs: 10 retries a minute, "
            + "whatever the ratio (the ratio changes nothing there)\n"), "\(e.text)")
        #expect(e.markdown.contains("below that the floor governs: 10 retries a minute, whatever the ratio (the ratio changes nothing there)\n"))
        #expect(e.markdown.contains("| `interactive` | interactive | 4 | 3.5 s | 2 | 15 s |"))
        #expect(e.markdown.contains("| `background` | background | 6 | 31 s | 6 | 2 min |"))
    }

    /// Issue 39, item 2: explain's figures, words and JSON follow the policy's backoff strategy.
    @Test func constantBackoffIsExplainedAsConstant() throws {
        func explained(_ strategy: String) -> Explanation {
            let text = Canonical.text.replacing("backoff: full-jitter", with: "backoff: \(strategy)")
            return Explanation(files: [Checker.check(Array(text.utf8), path: "Policies/playback.yaml")])
        }
        let e = explained("constant")
        #expect(e.policies.count == 1)
        #expect(e.text.contains("the waits between them add up to at most 1.5 s (every wait 500 ms: constant backoff does not grow)."), "\(e.text)")
        #expect(e.text.contains("the waits between them add up to at most 5 s (every wait 1 s: constant backoff does not grow)."))
        #expect(!e.text.contains("doubling"))
        #expect(e.text.contains("The call gives up after at most 95 s."), "\(e.text)")
        #expect(e.markdown.contains("| `interactive` | interactive | 4 | 1.5 s | 2 | 15 s |"), "\(e.markdown)")
        let json = e.json.rendered(pretty: false)
        #expect(json.contains(#""maxBackoffTotalMs":1500"#))
        #expect(json.contains(#""maxBackoffTotalMs":5000"#))
        #expect(json.contains(#""worstCaseWaitMs":95000"#))
        // Every doubling strategy is explained with the canonical figures.
        for strategy in ["exponential", "equal-jitter", "full-jitter"] {
            let d = explained(strategy)
            #expect(d.markdown.contains("| `interactive` | interactive | 4 | 3.5 s | 2 | 15 s |"))
            #expect(d.markdown.contains("| `background` | background | 6 | 31 s | 6 | 2 min |"))
        }
    }

    @Test func descriptionCannotInjectMarkdown() throws {
        let text = Canonical.text.replacing(
            "description: Ticket requests made by the iOS and Android players.",
            with: "description: \"<script>x</script> | [link](http://e) `code` \\u001b[31m\"")
        let p = try #require(policy(text))
        let md = Explanation([p]).markdown
        #expect(!md.contains("<script>"))
        #expect(!md.contains("[link]"))
        #expect(!md.contains("\u{1B}"))
        #expect(md.contains("\\<script\\>"))
    }
}

/// Issue 16, item 13: a policy that breaks limits but has every value is explained as written,
/// with its findings; one whose values are incomplete is not, and says so.
struct ExplainAsWrittenTests {
    static let breaksLimits = Canonical.text.replacing("maxRetries: 3  ", with: "maxRetries: 4  ")
        .replacing("ratio: 10%", with: "ratio: 20%")

    func checked(_ text: String, path: String = "Policies/playback.yaml") -> CheckedFile {
        Checker.check(Array(text.utf8), path: path)
    }

    @Test func limitErrorsAreExplainedAsWritten() throws {
        let file = checked(Self.breaksLimits)
        #expect(file.policy == nil, "generate must still refuse it")
        let policy = try #require(file.policyAsWritten)
        #expect(policy.profiles.first?.maxRetries == 4)

        let e = Explanation(files: [file])
        #expect(e.notExplained.isEmpty)
        let p = try #require(e.policies.first)
        #expect(p.errors == 2)
        #expect(p.findings.map(\.rule) == ["interactive-retries-max", "retry-budget-max"])

        #expect(e.text.contains("""
            playback (Policies/playback.yaml)
              Ticket requests made by the iOS and Android players.
              2 errors: the policy breaks limits of the guide, so generate refuses it; explained as written:
                Policies/playback.yaml:9:19: error: interactive profile 'interactive' allows 4 retries; at most 3 are allowed [interactive-retries-max]
                Policies/playback.yaml:30:12: error: budget.ratio is 20%; retries may be at most 10% of the requests of the last minute [retry-budget-max]
              interactive (interactive: a viewer is waiting)
                Up to 5 attempts (the first and 4 retries)
            """), "\(e.text)")
        #expect(e.text.contains("retries add at most 20% to the requests of the last minute"))

        #expect(e.markdown.contains("❌ 2 errors: the policy breaks limits of the guide, so generate refuses it; explained as written:\n\n"
            + "- ❌ error at `Policies/playback.yaml:9:19`: interactive profile 'interactive' allows 4 retries; at most 3 are allowed (`interactive-retries-max`)\n"), "\(e.markdown)")
        #expect(e.markdown.contains("| `interactive` | interactive | 5 | 7.5 s | 2 | 15 s |"))

        let json = e.json.rendered(pretty: false)
        #expect(json.contains(#""interactive":{"attemptsMax":5,"#))
        #expect(json.contains(#""diagnostics":[{"column":19,"endColumn":20,"endLine":9,"file":"Policies/playback.yaml","fix":{"description":"write maxRetries: 3","edits":[{"end":{"column":20,"line":9},"start":{"column":19,"line":9},"text":"3"}],"safety":"unsafe"},"help":null,"line":9,"message":"interactive profile 'interactive' allows 4 retries; at most 3 are allowed","reference":{"quote":"At most 3 retries per interactive request","section":"Checklist"},"related":[],"rule":"interactive-retries-max","severity":"error"},"#), "\(json)")
        #expect(json.hasPrefix(#"{"notExplained":[],"#))
    }

    @Test func oneLimitAndWarningsOnly() throws {
        let one = checked(Canonical.text.replacing("timeout: 8s", with: "timeout: 4s"))
        let heading = Explanation.findingsHeading(try #require(Explanation(files: [one]).policies.first))
        #expect(heading == "1 error: the policy breaks a limit of the guide, so generate refuses it; explained as written")
        let warned = checked(Canonical.text.replacing("deadline: 15s", with: "deadline: 20s"))
        #expect(warned.policy != nil)
        let e = Explanation(files: [warned])
        #expect(e.policies.first?.errors == 0)
        #expect(e.text.contains("  1 warning:\n    Policies/playback.yaml:"))
        #expect(e.markdown.contains("⚠️ 1 warning:\n\n- ⚠️ warning at"))
    }

    @Test(arguments: [
        ("cap: 8s", "cap: eight", "type-mismatch"),
        ("    minPerMinute: 10\n", "", "missing-key"),
        ("    minPerMinute: 10\n", "    minPerMinute: 10\n    floor: 3\n", "unknown-key"),
        ("version: 1", "version: 2", "unsupported-version"),
        ("policy: playback", "policy: Play_Back", "bad-name"),
    ])
    func otherErrorsAreNotExplained(from: String, to: String, rule: String) throws {
        let text = Canonical.text.replacing(from, with: to).replacing("ratio: 10%", with: "ratio: 20%")
        #expect(text != Canonical.text.replacing("ratio: 10%", with: "ratio: 20%"))
        let file = checked(text)
        #expect(file.policyAsWritten == nil)
        let e = Explanation(files: [file])
        #expect(e.policies.isEmpty)
        let f = try #require(e.notExplained.first)
        #expect(f.reason == "its values are incomplete or in doubt (\(rule)); fix that error first")
        #expect(e.markdown.hasPrefix("## `Policies/playback.yaml` — not explained\n\n❌ Not explained: its values are incomplete or in doubt (\(rule)); fix that error first:\n\n"), "\(e.markdown)")
        let json = e.json.rendered(pretty: false)
        #expect(json.hasPrefix(#"{"notExplained":[{"diagnostics":[{"#))
        #expect(json.hasSuffix(#""file":"Policies/playback.yaml"}],"policies":{}}"#))
    }

    @Test func sharedNameIsNotExplained() {
        var files = [checked(Canonical.text, path: "P/a.yaml"), checked(Canonical.text, path: "P/b.yaml")]
        Checker.checkAcrossFiles(&files)
        let e = Explanation(files: files)
        #expect(e.policies.map(\.policy.file) == ["P/a.yaml"])
        #expect(e.notExplained.map(\.file) == ["P/b.yaml"])
        #expect(e.notExplained.first?.reason.contains("name-collision") == true)
    }
}
