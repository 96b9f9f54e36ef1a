import Foundation
import Testing
@testable import PolicySource
@testable import PolicyCheck
@testable import PolicyReport
@testable import TestSupport
#if canImport(FoundationXML)
import FoundationXML
#endif

/// A waived finding in every format: a note that never fails the check.
@Suite struct WaivedReportTests {
    static let text = Canonical.text.replacingFirst("maxRetries: 3", with: "maxRetries: 4")
        + "\nwaivers:\n  - rule: interactive-retries-max\n    allow: 4\n"
        + "    reason: Payment confirmation needs a fourth try until PAY-311 ships\n"
        + "    owner: \"@payments-platform\"\n    expires: 2027-03-31\n"

    static let files = [Checker.check(Array(text.utf8), path: "Policies/pay.yaml",
                                      options: CheckOptions(today: Day(year: 2027, month: 1, day: 15)))]

    @Test func everyFormat() throws {
        let summary = ReportSummary(Self.files)
        #expect(summary.errors == 0 && summary.warnings == 0 && summary.accepted == 1 && !summary.failed(strict: true))
        #expect(summary.line(strict: false) == "0 errors, 0 warnings in 1 file (1 accepted finding not counted: waived or in the baseline)")

        let json = try #require(try JSONSerialization.jsonObject(with: Data(Reporters.json(Self.files).utf8)) as? [String: Any])
        let d = try #require((json["diagnostics"] as? [[String: Any]])?.first)
        #expect(d["severity"] as? String == "note" && d["rule"] as? String == "interactive-retries-max")
        let waived = try #require(d["waived"] as? [String: Any])
        #expect(waived["owner"] as? String == "@payments-platform" && waived["expires"] as? String == "2027-03-31")
        #expect(waived["line"] as? Int == 44 && waived["column"] as? Int == 5)
        #expect((waived["reason"] as? String)?.hasPrefix("Payment confirmation") == true)

        let sarif = Reporters.sarif(Self.files)
        let root = try #require(try JSONSerialization.jsonObject(with: Data(sarif.utf8)) as? [String: Any])
        let result = try #require(((root["runs"] as? [[String: Any]])?.first?["results"] as? [[String: Any]])?.first)
        #expect(result["level"] as? String == "note")
        let suppression = try #require((result["suppressions"] as? [[String: Any]])?.first)
        #expect(suppression["kind"] as? String == "inSource" && suppression["status"] as? String == "accepted")
        #expect((suppression["justification"] as? String)?.hasPrefix("Payment confirmation") == true)
        #expect((suppression["properties"] as? [String: String])?["owner"] == "@payments-platform")
        if SARIFValidator.isAvailable { try SARIFValidator.validate(sarif) }

        let github = Reporters.github(Self.files)
        #expect(github.hasPrefix("::notice file=Policies/pay.yaml,line=9,col=19,"))
        #expect(github.contains("%0Awaived until 2027-03-31 by @payments-platform (Policies/pay.yaml:44:5): Payment confirmation"))

        let junit = try XMLTree(Reporters.junit(Self.files, strict: true))
        #expect(junit.count("failure") == 0 && junit.count("testcase") == 1)

        let text = Reporters.text(Self.files)
        #expect(text.hasPrefix("Policies/pay.yaml:9:19: note: interactive profile 'interactive' allows 4 retries; at most 3 are allowed [interactive-retries-max]\n"))
        #expect(text.contains("\n  waived until 2027-03-31 by @payments-platform (Policies/pay.yaml:44:5): Payment confirmation needs a fourth try until PAY-311 ships\n"))
        #expect(!text.contains("fix:"))
    }

    /// The other waiver findings keep SARIF valid too (expired, unused with its fix, not allowed).
    @Test(.enabled(if: SARIFValidator.isAvailable, "python3 with jsonschema is missing"))
    func waiverFindingsValidate() throws {
        let expired = Self.text.replacingFirst("expires: 2027-03-31", with: "expires: 2027-01-01")
            + "  - rule: retry-budget-max\n    reason: r\n    owner: o\n    expires: 2027-02-01\n"
            + "  - rule: unknown-key\n    reason: r\n    owner: o\n    expires: 2027-02-01\n"
        let file = Checker.check(Array(expired.utf8), path: "Policies/pay.yaml", options: CheckOptions(today: Day(year: 2027, month: 1, day: 15)))
        #expect(Set(file.diagnostics.map(\.rule)) == ["interactive-retries-max", "waiver-expired", "waiver-unused", "waiver-not-allowed"])
        try SARIFValidator.validate(Reporters.sarif([file] + Self.files))
    }
}
