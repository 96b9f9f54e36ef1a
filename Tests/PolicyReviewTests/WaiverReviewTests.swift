import Testing
@testable import PolicySource
@testable import PolicyCheck
@testable import PolicyReport
@testable import PolicyReview

/// diff's section of waivers added, removed and changed (issue 38).
struct WaiverReviewTests {
    static let waiver = """
        waivers:
          - rule: interactive-retries-max
            at: retry.profiles.interactive.maxRetries
            allow: 4
            reason: Payment confirmation needs a fourth try until PAY-311 ships
            owner: "@payments-platform"
            expires: 2027-03-31

        """

    static func policy(maxRetries: Int = 4, waivers: String = waiver) -> String {
        variant([("maxRetries: 3 ", "maxRetries: \(maxRetries) ")]) + waivers
    }

    @Test func anAddedWaiverIsListedAtTheTopWithOwnerAndExpiry() {
        let report = review(variant([("maxRetries: 3 ", "maxRetries: 4 ")]), Self.policy())
        #expect(report.waivers.map(\.kind) == [.added])
        let text = report.text()
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count > 3 && lines[2] == "waivers: 1 added", "\(text)")
        #expect(lines[3] == "  added in playback: interactive-retries-max at retry.profiles.interactive.maxRetries, allow 4; "
                + "owner @payments-platform, expires 2027-03-31 (Policies/playback.yaml:43)", "\(text)")
        #expect(lines[4] == "      reason: Payment confirmation needs a fourth try until PAY-311 ships")
        #expect(lines[0] == "policyc diff passes: no change in 1 policy, waivers: 1 added; nothing breaks, no errors", "\(lines[0])")
        let markdown = report.markdown()
        let table = markdown.components(separatedBy: "\n### Waivers: 1 added\n\n")
        #expect(table.count == 2 && (markdown.firstRange(of: "### Waivers")?.lowerBound ?? markdown.endIndex) < (markdown.firstRange(of: "<b>`playback`</b>")?.lowerBound ?? markdown.startIndex), "\(markdown)")
        #expect(markdown.contains("| added | `playback` | `interactive-retries-max` at `retry.profiles.interactive.maxRetries` | allow 4 | `@payments-platform` | 2027-03-31 | Payment confirmation needs a fourth try until PAY-311 ships |"))
        let json = compact(report.json)
        #expect(json.contains(#""waivers":[{"after":{"allow":4,"at":"retry.profiles.interactive.maxRetries","expires":"2027-03-31","line":43,"owner":"@payments-platform","reason":"Payment confirmation needs a fourth try until PAY-311 ships","rule":"interactive-retries-max"},"change":"added","file":"Policies/playback.yaml","policy":"playback"}]"#), "\(json)")
    }

    @Test func anExtendedExpiryAndARaisedAllowAreAChange() {
        let later = Self.policy(maxRetries: 5, waivers: Self.waiver.replacingFirst("expires: 2027-03-31", with: "expires: 2027-05-31")
            .replacingFirst("allow: 4", with: "allow: 5"))
        let report = review(Self.policy(), later)
        let change = report.waivers.first
        #expect(report.waivers.count == 1 && change?.kind == .changed)
        #expect(change?.what == ["expires 2027-03-31 → 2027-05-31 (61 days later: extended)", "allow 4 → 5 (raised)"])
        #expect(report.text().contains(
            "  changed in playback (widened): interactive-retries-max at retry.profiles.interactive.maxRetries: expires 2027-03-31 → 2027-05-31 "
            + "(61 days later: extended); allow 4 → 5 (raised); owner @payments-platform, expires 2027-05-31 (Policies/playback.yaml:43)\n"))
        #expect(compact(report.json).contains(#""what":["expires 2027-03-31 → 2027-05-31 (61 days later: extended)","allow 4 → 5 (raised)"],"widened":true"#))
        // A later expiry and a laxer allow cover more than before: the review fails unless allowed.
        #expect(report.exitCode() == 1 && report.exitCode(Allowances(widen: true)) == 0)
        // A waiver that only moved (a comment above it) is not a change.
        let moved = review(Self.policy(), Self.policy().replacingFirst("waivers:\n", with: "# agreed in PAY-311\nwaivers:\n"))
        #expect(moved.waivers.isEmpty)
        #expect(!moved.text().contains("waivers:"))
    }

    @Test func aRemovedWaiverAndANewOwner() {
        let removed = review(Self.policy(), variant([("maxRetries: 3 ", "maxRetries: 4 ")]))
        #expect(removed.waivers.map(\.kind) == [.removed])
        #expect(removed.text().contains("  removed in playback: interactive-retries-max at retry.profiles.interactive.maxRetries, allow 4; owner @payments-platform, expires 2027-03-31 (Policies/playback.yaml:43)\n"))
        let owner = review(Self.policy(), Self.policy(waivers: Self.waiver.replacingFirst("@payments-platform", with: "@checkout")))
        #expect(owner.waivers.first?.what == ["owner @payments-platform → @checkout"])
        // Two waivers of one rule and path pair in order; a third is added.
        let two = Self.waiver + Self.waiver.replacingFirst("waivers:\n", with: "").replacingFirst("allow: 4", with: "allow: 6")
        let three = two + Self.waiver.replacingFirst("waivers:\n", with: "").replacingFirst("allow: 4", with: "allow: 7")
        #expect(review(Self.policy(waivers: two), Self.policy(waivers: three)).waivers.map(\.kind) == [.added])
    }

    @Test func daysBetweenDates() {
        for (a, b, days) in [("2027-03-31", "2027-05-31", 61), ("2026-12-31", "2027-01-01", 1), ("2028-02-28", "2028-03-01", 2),
                             ("2027-02-28", "2027-03-01", 1), ("2026-01-01", "2027-01-01", 365)] {
            let text = Self.policy(waivers: Self.waiver.replacingFirst("2027-03-31", with: a))
            let later = Self.policy(waivers: Self.waiver.replacingFirst("2027-03-31", with: b))
            #expect(review(text, later).waivers.first?.what.first == "expires \(a) → \(b) (\(days) \(days == 1 ? "day" : "days") later: extended)")
        }
    }
}
