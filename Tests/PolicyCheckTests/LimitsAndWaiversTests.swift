import Testing
@testable import PolicySource
@testable import PolicyCheck
@testable import TestSupport

/// The guide's limits as data (editions, a project's tighter limits) and a policy's waivers.
@Suite struct LimitsAndWaiversTests {
    static func project(_ text: String) -> (config: ProjectConfig, diagnostics: [Diagnostic]) {
        ProjectConfig.load(Array(text.utf8), path: "policyc.yaml")
    }

    static func check(_ text: String, _ options: CheckOptions) -> CheckedFile {
        Checker.check(Array(text.utf8), path: "p.yaml", options: options)
    }

    static let today = Day(year: 2027, month: 1, day: 15)

    static func withWaivers(_ section: String, edits: [(String, String)] = [("maxRetries: 3", "maxRetries: 4")]) -> String {
        var text = Canonical.text
        for (old, new) in edits { text = text.replacingFirst(old, with: new) }
        return text + "\nwaivers:\n" + section
    }

    static func waiver(rule: String = "interactive-retries-max", at: String? = nil, allow: String? = nil,
                       expires: String = "2027-03-31") -> String {
        "  - rule: \(rule)\n" + (at.map { "    at: \($0)\n" } ?? "") + (allow.map { "    allow: \($0)\n" } ?? "")
            + "    reason: Payment confirmation needs a fourth try until PAY-311 ships\n"
            + "    owner: \"@payments-platform\"\n    expires: \(expires)\n"
    }

    // MARK: limits

    @Test func anEditionIsData() {
        // A later edition that allows two interactive retries: adding it is adding a value.
        var values = Guide.edition2026_11.values
        values[.interactiveMaxRetries] = .count(2)
        let later = GuideEdition(name: "2027-05", values: values)
        let editions = Guide.editions + [later]
        var config = ProjectConfig()
        config.guide = Located("2027-05", Span(.start))
        let limits = config.effectiveLimits(file: "policyc.yaml", editions: editions)
        #expect(limits.edition.name == "2027-05")
        let file = Self.check(Canonical.text, CheckOptions(limits: limits))
        #expect(file.diagnostics.map(\.rule) == ["interactive-retries-max"])
        #expect(file.diagnostics.first?.message == "interactive profile 'interactive' allows 3 retries; at most 2 are allowed")
        // The guide's own edition finds nothing in the canonical policy.
        #expect(Self.check(Canonical.text, CheckOptions()).diagnostics.isEmpty)
    }

    @Test func aTightenedLimitNamesTheProjectFilesLine() throws {
        let loaded = Self.project("version: 1\nguide: 2026-11\nlimits:\n  interactiveMaxRetries: 2\n  budgetRatioMax: 5%\n  timeoutMin: 8s\n")
        #expect(loaded.diagnostics.isEmpty, "\(loaded.diagnostics.map(\.headline))")
        let limits = loaded.config.effectiveLimits(file: "policyc.yaml")
        let file = Self.check(Canonical.text, CheckOptions(limits: limits))
        #expect(file.diagnostics.map(\.rule) == ["interactive-retries-max", "retry-budget-max"])
        let retries = try #require(file.diagnostics.first)
        #expect(retries.message == "interactive profile 'interactive' allows 3 retries; at most 2 are allowed (policyc.yaml:4: tightens the guide's 3)")
        #expect(retries.related.map(\.file) == ["policyc.yaml"])
        #expect(retries.related.first?.span.start == Mark(line: 4, column: 26))
        #expect(retries.related.first?.message == "tightens the guide's 3")
        #expect(retries.fix?.edits.first?.text == "2")
    }

    @Test func aLooserLimitAndAnUnknownEditionAreErrorsOfTheProjectFile() throws {
        let loose = Self.project("version: 1\nlimits:\n  interactiveMaxRetries: 4\n  ticketReuseMarginMin: 1m\n")
        #expect(loose.diagnostics.map(\.line) == [3, 4])
        #expect(loose.diagnostics.allSatisfy { $0.severity == .error && $0.help?.contains("waiver") == true })
        #expect(loose.diagnostics.first?.message == "limits.interactiveMaxRetries is 4, looser than the guide 2026-11's 3; the project's limits may only tighten the guide's")
        let unknown = Self.project("version: 1\nguide: 2025-01\n")
        #expect(unknown.diagnostics.count == 1)
        #expect(unknown.diagnostics.first?.message.contains("2026-11") == true)
        let days = Self.project("version: 1\nwaiverMaxDays: 400\n")
        #expect(days.diagnostics.map(\.rule) == ["type-mismatch"])
    }

    @Test func backgroundRetriesAreCheckedOnlyWhenTheProjectSetsALimit() throws {
        #expect(Self.check(Canonical.text, CheckOptions()).diagnostics.isEmpty)
        let loaded = Self.project("version: 1\nlimits:\n  backgroundMaxRetries: 4\n")
        #expect(loaded.diagnostics.isEmpty)
        let file = Self.check(Canonical.text, CheckOptions(limits: loaded.config.effectiveLimits(file: "policyc.yaml")))
        let d = try #require(file.diagnostics.first)
        #expect(file.diagnostics.count == 1 && d.rule == "background-retries-max" && d.line == 16)
        #expect(d.message.hasSuffix("at most 4 are allowed (policyc.yaml:3: a limit of the project; the guide 2026-11 sets none)"))
    }

    // MARK: waivers

    @Test func anActiveWaiverMakesTheFindingANote() throws {
        let file = Self.check(Self.withWaivers(Self.waiver(at: "retry.profiles.interactive.maxRetries", allow: "4")),
                              CheckOptions(today: Self.today))
        let d = try #require(file.diagnostics.first)
        #expect(file.diagnostics.count == 1 && d.severity == .note && d.rule == "interactive-retries-max")
        #expect(d.waived?.owner == "@payments-platform" && d.waived?.expires == "2027-03-31")
        #expect(d.waived?.span.start == Mark(line: 44, column: 5))
        #expect(file.errorCount == 0 && file.policy != nil)
    }

    @Test func anotherValueThanAllowIsNotWaived() throws {
        let file = Self.check(Self.withWaivers(Self.waiver(allow: "4"), edits: [("maxRetries: 3", "maxRetries: 5")]), CheckOptions(today: Self.today))
        let d = try #require(file.diagnostics.first)
        #expect(file.diagnostics.count == 1 && d.severity == .error && d.waived == nil)
        #expect(d.related.first?.message == "the waiver here allows 4, not 5: the finding is not waived")
    }

    @Test func datesDecideExpiredExpiringAndTooLong() {
        func rules(_ expires: String, maxDays: Int = 180) -> [String] {
            Self.check(Self.withWaivers(Self.waiver(expires: expires)), CheckOptions(today: Self.today, waiverMaxDays: maxDays))
                .diagnostics.map { "\($0.rule):\($0.severity)" }
        }
        #expect(rules("2027-01-14") == ["interactive-retries-max:error", "waiver-expired:error"])
        #expect(rules("2027-01-29") == ["interactive-retries-max:note", "waiver-expiring:warning"])
        #expect(rules("2027-01-30") == ["interactive-retries-max:note"])
        #expect(rules("2027-07-15") == ["interactive-retries-max:note", "waiver-too-long:error"])
        #expect(rules("2027-04-16", maxDays: 90) == ["interactive-retries-max:note", "waiver-too-long:error"])
        #expect(rules("2027-02-30") == ["interactive-retries-max:error", "type-mismatch:error"])
    }

    @Test func unusableAndUnusedWaivers() throws {
        let language = Self.check(Self.withWaivers(Self.waiver(rule: "unknown-key"), edits: []), CheckOptions(today: Self.today))
        #expect(language.diagnostics.map(\.rule) == ["waiver-not-allowed"])
        let typo = Self.check(Self.withWaivers(Self.waiver(rule: "interactive-retries-mx"), edits: []), CheckOptions(today: Self.today))
        #expect(typo.diagnostics.map(\.rule) == ["type-mismatch"])
        #expect(typo.diagnostics.first?.help == "did you mean 'interactive-retries-max'?")
        let ownerless = Self.check(Self.withWaivers(
            "  - rule: interactive-retries-max\n    reason: x\n    expires: 2027-03-31\n"), CheckOptions(today: Self.today))
        #expect(ownerless.diagnostics.map(\.rule) == ["interactive-retries-max", "missing-key"])
        let path = Self.check(Self.withWaivers(Self.waiver(at: "retry.profiles.interactve.maxRetries")), CheckOptions(today: Self.today))
        let unused = try #require(path.diagnostics.first { $0.rule == "waiver-unused" })
        #expect(unused.help == "did you mean 'retry.profiles.interactive.maxRetries'?")
        #expect(unused.fix?.safety == .safe)
        let fixed = Fixer.fix(Array(Self.withWaivers(Self.waiver(), edits: []).utf8), path: "p.yaml", unsafe: false,
                              options: CheckOptions(today: Self.today))
        #expect(String(decoding: fixed.bytes, as: UTF8.self) == Canonical.text)
    }

    @Test func fiveThousandWaiversAndAHugeReasonAreFindingsNotACrash() {
        let many = Self.withWaivers(String(repeating: Self.waiver(), count: 5_000), edits: [])
        let file = Self.check(many, CheckOptions(today: Self.today))
        #expect(file.diagnostics.count <= Loader.maxFindings + 1)
        #expect(file.diagnostics.contains { $0.rule == "waiver-unused" })
        let huge = Self.withWaivers("  - rule: interactive-retries-max\n    reason: " + String(repeating: "r", count: 1_000_000)
                                    + "\n    owner: x\n    expires: 2027-03-31\n")
        let big = Self.check(huge, CheckOptions(today: Self.today))
        #expect(big.diagnostics.count >= 1)
    }
}
