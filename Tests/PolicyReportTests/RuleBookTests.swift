import Foundation
import Testing
@testable import PolicySource
@testable import PolicyCheck
@testable import PolicyReport
@testable import TestSupport

/// The rule book: `policyc rules RULE`, the pages of `Docs/rules`, and the links SARIF gives
/// each rule.
@Suite struct RuleBookTests {
    static func rule(_ id: RuleID) throws -> Rule { try #require(Catalog.rule(id)) }

    /// Limits as a project file tightens them, from the file's line.
    static func projectLimits(_ text: String) -> Limits {
        ProjectConfig.load(Array(text.utf8), path: "policyc.yaml").config.effectiveLimits(file: "policyc.yaml")
    }

    @Test func rulesAreFoundByIdWithADidYouMean() throws {
        let found = try RuleBook.rules(named: ["timeout-min", "full-jitter"], in: Catalog.rules).get()
        #expect(found.map(\.id) == ["timeout-min", "full-jitter"])
        #expect(try RuleBook.rules(named: [], in: Catalog.rules).get().isEmpty)
        func problem(_ ids: [String]) -> String? {
            if case .failure(let p) = RuleBook.rules(named: ids, in: Catalog.rules) { return p.message }
            return nil
        }
        #expect(problem(["full-jitter", "timout-min"]) == "unknown rule 'timout-min'; did you mean 'timeout-min'?")
        #expect(problem(["zzzzzzzzzzzz"]) == "unknown rule 'zzzzzzzzzzzz'; 'policyc rules' lists them all")
        // Only the list given is searched: a rule added to it is found, one left out is not.
        let extra = Rule("traffic-example", .error, summary: "a test rule", reference: nil, examples: [])
        #expect(try RuleBook.rules(named: ["traffic-example"], in: Catalog.rules + [extra]).get().map(\.id) == ["traffic-example"])
        #expect(throws: RuleBook.UsageProblem.self) { try RuleBook.rules(named: ["full-jitter"], in: [extra]).get() }
    }

    /// `policyc rules RULE`: the catalog's text of the rule, with the limit in effect and its page.
    @Test func oneRuleInText() throws {
        let text = RuleBook.render(.text, [try Self.rule("interactive-retries-max")], limits: .guide, pages: .standard)
        let lines = text.split(separator: "\n").map(String.init)
        #expect(Array(lines.prefix(6)) == [
            "interactive-retries-max (error)",
            "  fires when an interactive profile's maxRetries is over 3",
            "  guide: \"At most 3 retries per interactive request\" (Checklist)",
            "  fixes: unsafe (lint --unsafe-fixes)",
            "  limit in effect: interactiveMaxRetries 3 (guide 2026-11)",
            "  page: \(RulePages.defaultBase)interactive-retries-max.md",
        ])
        #expect(text.contains("  triggers: four retries while a viewer waits"))
        // A project's tighter limit, with its line; a limit the guide leaves unset.
        let tightened = RuleBook.render(.text, [try Self.rule("interactive-retries-max"), try Self.rule("background-retries-max")],
                                        limits: Self.projectLimits("version: 1\nlimits:\n  interactiveMaxRetries: 2\n"),
                                        pages: try #require(RulePages("https://example.com/rules/{rule}")))
        #expect(tightened.contains("  limit in effect: interactiveMaxRetries 2 (policyc.yaml:3 (tightens the guide's 3))\n  page: https://example.com/rules/interactive-retries-max\n"))
        #expect(tightened.contains("  limit in effect: backgroundMaxRetries not set (guide 2026-11 sets none; policyc.yaml limits: may set it)\n"))
    }

    @Test func oneRuleInJSON() throws {
        let json = RuleBook.render(.json, [try Self.rule("retry-budget-max")], limits: .guide, pages: .standard)
        let root = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let rules = try #require(root["rules"] as? [[String: Any]])
        #expect(rules.count == 1 && rules[0]["id"] as? String == "retry-budget-max")
        #expect(rules[0]["page"] as? String == RulePages.defaultBase + "retry-budget-max.md")
        #expect((rules[0]["examples"] as? [Any])?.isEmpty == false)
        let limits = try #require((root["limits"] as? [String: Any])?["values"] as? [[String: Any]])
        #expect(limits.map { $0["key"] as? String } == ["budgetRatioMax"])
        // A rule of the language has no limit.
        let plain = RuleBook.render(.json, [try Self.rule("yaml-syntax")], limits: .guide, pages: .standard)
        #expect(plain.contains("\"values\": []") || plain.contains("\"values\":[]"))
    }

    /// A page: the rule's words, the guide's sentence, its limit, every example with what the
    /// fixes make of it, and a link back to the index.
    @Test func aPageHasEverythingTheRuleSays() throws {
        let rule = try Self.rule("retry-after-jitter")
        let page = RuleBook.page(rule, limits: .guide)
        #expect(page.hasPrefix("# `retry-after-jitter`\n\n**error** (fails `policyc lint`) · fixes: unsafe (`policyc lint --fix --unsafe-fixes`)\n"))
        #expect(page.contains("Fires when retryAfter.maxJitter is 0 or over 1 s.\n"))
        #expect(page.contains("\n> Retry-After (+ up to 1 s jitter)\n"))
        #expect(page.contains("| `retryAfterMaxJitter` | 1s | `retry-after-jitter` | guide 2026-11 |"))
        for example in rule.examples {
            #expect(page.contains("**\(example.triggers ? "Triggers" : "Passes")**: \(CatalogReport.cell(example.note))\n"))
        }
        #expect(page.contains("```text\n") && page.hasSuffix("[Every rule](README.md) · in a terminal: `policyc rules retry-after-jitter`\n"))
        // A warning fails only --strict; a rule of the language names no guide and no waiver.
        #expect(RuleBook.page(try Self.rule("interactive-deadline"), limits: .guide).contains("**warning** (fails `policyc lint --strict`)"))
        let language = RuleBook.page(try Self.rule("unknown-key"), limits: .guide)
        #expect(!language.contains("waiver") && !language.contains("## Limit"))
        #expect(RuleBook.page(try Self.rule("background-retries-max"), limits: .guide)
            .contains("| `backgroundMaxRetries` | not set | `background-retries-max` | guide 2026-11 sets none |"))
    }

    /// A fence no line of an example can close.
    @Test func fencesOutgrowBackticksInTheText() {
        #expect(RuleBook.fenced("a\n") == "```text\na\n```\n")
        #expect(RuleBook.fenced("x: ```\n") == "````text\nx: ```\n````\n")
    }

    /// The book: a page per rule of the list given, and the index linking each.
    @Test func theBooksFiles() throws {
        let files = RuleBook.files(Catalog.rules)
        #expect(files.map(\.name) == Catalog.rules.map { $0.id.rawValue + ".md" } + ["README.md"])
        #expect(files.allSatisfy { RuleBook.isPage(Array($0.text.utf8)) })
        #expect(!RuleBook.isPage(Array("# My notes\n".utf8)))
        let index = try #require(files.last?.text)
        for rule in Catalog.rules {
            #expect(index.contains("| [`\(rule.id.rawValue)`](\(rule.id.rawValue).md) | \(rule.severity.rawValue) |"))
        }
        #expect(index.contains("## Limits of the guide 2026-11"))
        let extra = Rule("traffic-example", .warning, summary: "a test rule", reference: nil, examples: [])
        #expect(RuleBook.files(Catalog.rules + [extra]).map(\.name).contains("traffic-example.md"))
    }

    /// SARIF links every rule of the catalog to its page, as a valid absolute URI.
    @Test func sarifHelpUriIsEachRulesPage() throws {
        let checked = [Checker.check(Array(Canonical.text.replacingFirst("maxRetries: 3", with: "maxRetries: 4").utf8), path: "p.yaml")]
        for pages in [RulePages.standard, try #require(RulePages("https://docs.example.com/policyc/{rule}.html"))] {
            let sarif = Reporters.sarif(checked, pages: pages)
            let root = try #require(try JSONSerialization.jsonObject(with: Data(sarif.utf8)) as? [String: Any])
            let driver = try #require((((root["runs"] as? [[String: Any]])?.first?["tool"] as? [String: Any])?["driver"] as? [String: Any]))
            let rules = try #require(driver["rules"] as? [[String: Any]])
            #expect(rules.count == Catalog.rules.count)
            for descriptor in rules {
                let id = try #require(descriptor["id"] as? String)
                let uri = try #require(descriptor["helpUri"] as? String)
                #expect(uri == pages.url(for: RuleID(rawValue: id)))
                let url = try #require(URL(string: uri))
                #expect(url.scheme == "https" && url.host != nil)
            }
        }
        // Through the options lint passes.
        let custom = try #require(RulePages("https://example.org/book/"))
        #expect(Reporters.render(.sarif, checked, options: ReportOptions(rulePages: custom)).contains("\"https://example.org/book/interactive-retries-max.md\""))
    }
}
