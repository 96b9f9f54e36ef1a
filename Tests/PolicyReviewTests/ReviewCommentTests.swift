import Testing
@testable import PolicySource
@testable import PolicyCheck
@testable import PolicyReport
@testable import PolicySimulation
@testable import PolicyReview
@testable import TestSupport

/// Issue 46, item 8: a markdown review GitHub will post.
struct ReviewCommentTests {
    /// `n` copies of the canonical policy named app01 … on each side; `change(i, text)` gives the
    /// new side of copy i.
    static func fleet(_ n: Int, change: (Int, String) -> String) -> DiffReport {
        var old: [(path: String, text: String)] = [], new: [(path: String, text: String)] = []
        for i in 1...n {
            let name = i < 10 ? "app0\(i)" : "app\(i)"
            let text = variant([("policy: playback", "policy: \(name)")])
            old.append(("Policies/\(name).yaml", text))
            new.append(("Policies/\(name).yaml", change(i, text)))
        }
        return DiffReport(old: reviewSide(old), new: reviewSide(new))
    }

    @Test func thirtyPoliciesWithTheSameChangesAreOneBlock() throws {
        let r = Self.fleet(30) { _, text in
            variant([("maxRetries: 5", "maxRetries: 4"), ("ratio: 10%", "ratio: 5%"), ("ahead: 2", "ahead: 1")], of: text)
        }
        let md = r.markdown()
        #expect(md.utf16.count <= DiffReport.commentLimit)
        #expect(md.hasPrefix("✅ **policyc diff passes**: 90 changes in 30 policies"))
        // The summary table comes right after the verdict, a row per policy.
        #expect(md.contains("\n\n| Policy | Status | Changes | Verdict |\n|---|---|---|---|\n| `app01` | changed | 3 | ✅ ok |\n"))
        #expect(md.components("| changed | 3 | ✅ ok |") == 30)
        // The changes once, for all 30.
        #expect(md.contains("<details><summary><b>The same 3 changes in 30 policies</b>: `app01`, `app02`"), "\(md)")
        #expect(md.components("| `retry.budget.ratio` |") == 1)
        #expect(md.components("<details") == 1)
        #expect(md.contains("`Policies/app30.yaml`"))
        #expect(!md.contains("Not shown"))
    }

    @Test func aReviewPastTheBudgetIsCutWithTheCommandThatPrintsItAll() throws {
        // Each policy its own values: 30 blocks that cannot be merged, each with findings.
        let r = Self.fleet(30) { i, text in
            variant([("maxRetries: 3 ", "maxRetries: \(4 + i % 7) "), ("base: 500ms", "base: \(100 + 10 * i)ms"),
                     ("deadline: 120s", "deadline: \(100 + i)s"), ("cap: 30s", "cap: \(30 + i)s"),
                     ("timeout: 15s", "timeout: \(15 + i)s"), ("honor: true", "honor: false"),
                     ("description: Ticket requests made by the iOS and Android players.",
                      "description: " + String(repeating: "A longer description of policy \(i). ", count: 20))], of: text)
        }
        let whole = r.markdown(limit: Int.max)
        #expect(whole.utf16.count > DiffReport.commentLimit, "the fixture must need cutting: \(whole.utf16.count)")
        let md = r.markdown(command: "policyc diff --base main")
        #expect(md.utf16.count <= DiffReport.commentLimit)
        #expect(md.hasPrefix("❌ **policyc diff fails**"))
        #expect(md.components("| changed | ") == 30, "every policy is in the summary, even those cut")
        let cut = try #require(md.split(separator: "\n").last)
        #expect(cut.hasPrefix("✂️ Not shown: "))
        #expect(cut.hasSuffix("a pull-request comment holds at most 60,000 characters here. `policyc diff --base main` prints the whole review."))
        // Whole blocks only: every <details> that opens closes.
        #expect(md.components("<details") == md.components("</details>"))
        #expect(md.components("<details") < 30)
        // A failing policy's block is open.
        #expect(md.contains("<details open><summary><b>`app01`</b> — changed"))
    }

    @Test func aSmallLimitStillKeepsTheVerdictAndCountsTheRest() {
        let r = Self.fleet(12) { i, text in variant([("ahead: 2", "ahead: \(i % 2)")], of: text) }
        let md = r.markdown(limit: 1200)
        #expect(md.utf16.count <= 1200)
        #expect(md.hasPrefix("✅ **policyc diff passes**: 12 changes in 12 policies"))
        #expect(md.contains("| … | "), "the summary's rows past its share are counted: \(md)")
        #expect(md.contains("✂️ Not shown: "))
    }

    @Test func mentionsAreCodeSpans() {
        #expect(Wording.markdown("owner @team and @org/platform-team.") == "owner `@team` and `@org/platform-team`.")
        #expect(Wording.markdown("ops@example.com") == "ops@example.com")
        #expect(Wording.markdown("(@a_b)") == "(`@a_b`)")
        #expect(Wording.markdown("@ alone") == "@ alone")
        // In a review: a description naming a team notifies nobody.
        let new = variant([("description: Ticket requests made by the iOS and Android players.",
                            "description: Owned by @player-team, ask @org/sre")])
        let md = review(Canonical.text, new).markdown()
        #expect(md.contains("Owned by `@player-team`, ask `@org/sre`"), "\(md)")
        #expect(!md.replacing("`@player-team`", with: "").replacing("`@org/sre`", with: "").contains("@"))
    }
}

extension String {
    /// How many times `part` occurs, not overlapping.
    func components(_ part: String) -> Int { split(separator: part, omittingEmptySubsequences: false).count - 1 }
}
