import Foundation
import Testing
@testable import PolicyKit

/// One case per example of every rule, once as written and once with multibyte text in front.
struct ExampleCase: Sendable, CustomTestStringConvertible {
    let rule: Rule
    let index: Int
    let multibyte: Bool

    var example: Example { rule.examples[index] }
    var testDescription: String {
        "\(rule.id.rawValue) #\(index + 1) \(example.triggers ? "triggers" : "passes")\(multibyte ? " (multibyte)" : ""): \(example.note)"
    }

    /// A line of text whose characters take 1 to 4 UTF-8 bytes: the lines below shift by one, and a
    /// column counted in bytes or UTF-16 units anywhere would show.
    static let prefix = "# 日本語 🎬 ü\n"

    static let all: [ExampleCase] = Catalog.rules.flatMap { rule in
        rule.examples.indices.flatMap { i -> [ExampleCase] in
            // An empty file has nothing to shift; with a comment it is still reported at 1:1.
            let hasContent = !rule.examples[i].source.allSatisfy(\.isWhitespace)
            return [ExampleCase(rule: rule, index: i, multibyte: false)]
                + (hasContent ? [ExampleCase(rule: rule, index: i, multibyte: true)] : [])
        }
    }
}

@Suite struct RuleExampleTests {
    @Test(arguments: ExampleCase.all)
    func example(_ c: ExampleCase) {
        let example = c.example
        #expect(example.authoringError == nil)
        let text = c.multibyte ? ExampleCase.prefix + example.text : example.text
        let marked = Example(text, triggers: example.triggers, note: example.note)
        let expected = marked.markedPositions
        let file = Checker.check(Array(marked.source.utf8), path: "example.yaml")

        let ofRule = file.diagnostics.filter { $0.rule == c.rule.id.rawValue }
        let others = file.diagnostics.filter { d in
            d.rule != c.rule.id.rawValue && !example.alsoFinds.contains { $0.rawValue == d.rule }
        }
        #expect(others.isEmpty, "unexpected findings: \(others.map(\.headline))")
        if example.triggers {
            #expect(!expected.isEmpty, "a triggering example marks where the finding points")
            #expect(ofRule.map(\.span.start).sorted() == expected.sorted(),
                    "findings: \(ofRule.map(\.headline))")
            for d in ofRule {
                #expect(d.severity == c.rule.severity)
                #expect(!d.message.isEmpty && !d.message.contains("\n"))
            }
        } else {
            #expect(expected.isEmpty, "a passing example has no markers")
            #expect(ofRule.isEmpty, "findings: \(ofRule.map(\.headline))")
        }
        // Findings come sorted by position, and the related positions are in the same file.
        #expect(file.diagnostics.map(\.span.start) == file.diagnostics.map(\.span.start).sorted())
        for d in file.diagnostics {
            for r in d.related { #expect(r.file == "example.yaml") }
        }
    }

    @Test func catalogHoldsEveryRuleOnceInOrder() {
        #expect(Catalog.rules.map(\.id) == RuleID.allCases)
        for id in RuleID.allCases {
            #expect(Catalog.rule(id)?.id == id)
            #expect(Catalog.rule(named: id.rawValue)?.id == id)
        }
        #expect(Catalog.rule(named: "no-such-rule") == nil)
    }

    static let structural: Set<RuleID> = [
        .yamlSyntax, .yamlUnsupported, .yamlDuplicateKey, .inputLimit, .unknownKey, .missingKey, .typeMismatch,
    ]
    static let language: Set<RuleID> = structural.union([.unsupportedVersion, .badName, .nameCollision])

    @Test(arguments: Catalog.rules.map(\.id))
    func ruleIsDescribed(_ id: RuleID) throws {
        let rule = try #require(Catalog.rule(id))
        #expect(rule.examples.contains { $0.triggers })
        #expect(rule.examples.contains { !$0.triggers })
        #expect(!rule.summary.isEmpty && !rule.summary.contains("\n"))
        #expect(rule.examples.allSatisfy { !$0.note.isEmpty })
        // The loader and decoder find the structural rules; every other rule has a check.
        #expect((rule.check == nil) == Self.structural.contains(id))
        // Rules of the language itself have no reference in the guide; the others quote it.
        if Self.language.contains(id) {
            #expect(rule.reference == nil)
        } else {
            let reference = try #require(rule.reference)
            #expect(!reference.section.isEmpty)
            #expect(reference.quote?.isEmpty == false)
        }
        #expect(rule.severity == (id == .interactiveDeadline ? .warning : .error))
    }

    @Test func canonicalPolicyIsClean() throws {
        let file = Checker.check(Array(Canonical.text.utf8), path: "Policies/playback.yaml")
        #expect(file.diagnostics.isEmpty, "\(file.diagnostics.map(\.headline))")
        let policy = try #require(file.policy)
        #expect(policy.name == "playback")
        #expect(policy.profiles.map(\.name) == ["interactive", "background"])
    }

    @Test func repositoryPolicyIsTheCanonicalOne() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let text = try String(contentsOf: root.appendingPathComponent("Policies/playback.yaml"), encoding: .utf8)
        // `policyc init` adds comment lines for editors (the schema) at the end; the policy is the canonical one.
        #expect(text.hasPrefix(Canonical.text))
        #expect(text.dropFirst(Canonical.text.count)
                == "# yaml-language-server: $schema=../Generated/policy.schema.json\n# $schema: ../Generated/policy.schema.json\n")
        #expect(Checker.check(Array(text.utf8), path: "Policies/playback.yaml").diagnostics.isEmpty)
    }

    @Test func specExampleMessageIsKept() throws {
        let text = Canonical.text.replacingFirst("maxRetries: 3", with: "maxRetries: 4")
        let file = Checker.check(Array(text.utf8), path: "Policies/playback.yaml")
        let d = try #require(file.diagnostics.first)
        #expect(file.diagnostics.count == 1)
        #expect(d.headline == "Policies/playback.yaml:9:19: error: interactive profile 'interactive' allows 4 retries; at most 3 are allowed [interactive-retries-max]")
    }
}
