import Foundation
import Testing

@testable import PolicyKit
@testable import TestSupport

/// `policyc rules RULE`, the rule book in Docs/rules, and the links lint's SARIF gives each rule.
@Suite struct RuleBookCLITests {
    /// Docs/rules is what the catalog makes, as Generated/ is what the policies make (CI runs the
    /// same check in Scripts/test).
    @Test func theCommittedRuleBookIsCurrent() throws {
        let docs = CLITests.packageRoot.appendingPathComponent("Docs/rules").path
        let run = try CLITests.policyc(["rules", "--docs", docs, "--check"])
        #expect(run.status == 0, """
            Docs/rules differs from what the rule catalog makes; refresh it with:
              swift run policyc rules --docs Docs/rules
            \(run)
            """)
    }

    @Test func oneRule() throws {
        let run = try CLITests.policyc(["rules", "timeout-min"])
        #expect(run.status == 0, "\(run)")
        #expect(run.out.hasPrefix("timeout-min (error)\n  fires when a profile's timeout is under 5 s\n"))
        #expect(run.out.contains("\n  limit in effect: timeoutMin 5s (guide 2026-11)\n  page: \(RulePages.defaultBase)timeout-min.md\n"))
        #expect(!run.out.contains("full-jitter (error)"))
        // Two, in the order asked; markdown is the page.
        let two = try CLITests.policyc(["rules", "full-jitter", "timeout-min", "--format", "markdown"])
        #expect(two.status == 0 && two.out.hasPrefix("# `full-jitter`\n") && two.out.contains("\n# `timeout-min`\n"), "\(two)")
    }

    /// The project file's limits and rulesUrl, in `rules RULE` and in lint's SARIF.
    @Test func theProjectFileSetsTheLimitAndTheAddress() throws {
        let dir = try CLITests.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        try CLITests.write("version: 1\nrulesUrl: https://docs.example.com/rules/\nlimits:\n  timeoutMin: 10s\n", to: "policyc.yaml", in: dir)
        try CLITests.write(CLITests.canonical, to: "Policies/playback.yaml", in: dir)
        let run = try CLITests.policyc(["rules", "timeout-min", "--format", "json"], in: dir)
        #expect(run.status == 0, "\(run)")
        let root = try CLITests.json(run.out)
        let rule = try #require((root["rules"] as? [[String: Any]])?.first)
        #expect(rule["page"] as? String == "https://docs.example.com/rules/timeout-min.md")
        let limit = try #require(((root["limits"] as? [String: Any])?["values"] as? [[String: Any]])?.first)
        #expect(limit["value"] as? String == "10s" && limit["line"] as? Int == 4)
        let sarif = try CLITests.policyc(["lint", "--format", "sarif"], in: dir)
        #expect(sarif.status == 1 && sarif.out.contains("\"helpUri\": \"https://docs.example.com/rules/timeout-min.md\""), "\(sarif)")
        // A bad address is the project file's finding, with its position: nothing runs.
        try CLITests.write("version: 1\nrulesUrl: docs/rules\n", to: "policyc.yaml", in: dir)
        let bad = try CLITests.policyc(["rules", "timeout-min"], in: dir)
        #expect(bad.status == 2 && bad.out.isEmpty)
        #expect(bad.err.contains("policyc.yaml:2:11: error: 'rulesUrl' is 'docs/rules', which cannot be the rule book's address: it is not an absolute http or https URL [type-mismatch]"), "\(bad)")
    }

    /// `--docs DIR`: written once, then up to date; `--check` names what would change and how to
    /// refresh it; a page of a rule that is gone goes, a file without the book's header stays.
    @Test func writingTheBook() throws {
        let dir = try CLITests.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let missing = try CLITests.policyc(["rules", "--docs", "book", "--check"], in: dir)
        #expect(missing.status == 1 && missing.out.contains("would create book/timeout-min.md\n"), "\(missing)")
        #expect(missing.err.contains("run 'policyc rules --docs book' to update"))
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("book").path))
        let wrote = try CLITests.policyc(["rules", "--docs", "book/"], in: dir)
        // A page per rule `policyc rules` lists (the traffic rules of verify too), and the index.
        let pages = try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("book").path)
        #expect(wrote.status == 0 && wrote.err.contains("wrote \(pages.count) files"), "\(wrote)")
        #expect(pages.contains("traffic-backoff.md") && pages.contains("timeout-min.md") && pages.contains("README.md"))
        let index = try String(contentsOf: dir.appendingPathComponent("book/README.md"), encoding: .utf8)
        #expect(index.hasPrefix(RuleBook.header) && index.contains("[`timeout-min`](timeout-min.md)"))
        #expect(try CLITests.policyc(["rules", "--docs", "book", "--check"], in: dir).status == 0)

        try CLITests.write(RuleBook.header + "# `old-rule`\n", to: "book/old-rule.md", in: dir)
        try CLITests.write("# notes kept by hand\n", to: "book/notes.md", in: dir)
        try CLITests.write(RuleBook.header + "# edited\n", to: "book/full-jitter.md", in: dir)
        let stale = try CLITests.policyc(["rules", "--docs", "book", "--check"], in: dir)
        #expect(stale.status == 1, "\(stale)")
        #expect(stale.out.contains("would remove book/old-rule.md (its rule is gone)\n"))
        #expect(stale.out.contains("would change book/full-jitter.md\n") && !stale.out.contains("notes.md"))
        #expect(try CLITests.policyc(["rules", "--docs", "book"], in: dir).status == 0)
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("book/old-rule.md").path))
        #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("book/notes.md").path))

        // A page's place taken by a file someone wrote: refused, nothing written.
        try CLITests.write("# my own index\n", to: "book/README.md", in: dir)
        let foreign = try CLITests.policyc(["rules", "--docs", "book"], in: dir)
        #expect(foreign.status == 2 && foreign.err.contains("has no rule book header") && foreign.err.contains("nothing written"), "\(foreign)")
        #expect(try String(contentsOf: dir.appendingPathComponent("book/README.md"), encoding: .utf8) == "# my own index\n")
    }
}
