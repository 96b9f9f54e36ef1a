import Foundation
import Testing
@testable import PolicySource
@testable import PolicyCheck
@testable import TestSupport

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
        let file = Checker.check(Array(marked.source.utf8), path: "playback.yaml", options: example.options)

        let ofRule = file.diagnostics.filter { $0.rule == c.rule.id }
        let others = file.diagnostics.filter { d in
            d.rule != c.rule.id && !example.alsoFinds.contains { $0 == d.rule }
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
            for r in d.related { #expect(["playback.yaml", "policyc.yaml", "policyc-baseline.json"].contains(r.file)) }
        }
    }

    /// Each example's fixes, as `lint --fix` and `lint --fix --unsafe-fixes` make them: the text the
    /// example gives (or the example itself, byte for byte, when it gives none), a text that
    /// parses, and a fixed point (fixing again changes nothing). The same with CRLF line breaks
    /// and with a BOM: a fix keeps the file's line breaks and positions count after the BOM.
    @Test(arguments: ExampleCase.all)
    func exampleFixes(_ c: ExampleCase) throws {
        let example = c.example
        if !example.triggers && example.alsoFinds.isEmpty {
            #expect(example.fixed == nil && example.unsafeFixed == nil, "a clean example has nothing to fix")
        }
        let prefix = c.multibyte ? ExampleCase.prefix : ""
        let variants: [(String, (String) -> String)] = [
            ("LF", { $0 }),
            ("CRLF", { $0.replacingOccurrences(of: "\n", with: "\r\n") }),
            ("BOM", { "\u{FEFF}" + $0 }),
        ]
        // Line breaks and the BOM once per example; the multibyte run checks columns.
        for (name, variant) in variants where name == "LF" || (!c.multibyte && (name != "CRLF" || example.source.contains("\n"))) {
            let source = Array(variant(prefix + example.source).utf8)
            for unsafe in [false, true] {
                let expected = variant(prefix + (unsafe ? example.expectedUnsafe : example.expectedSafe))
                let outcome = Fixer.fix(source, path: "playback.yaml", unsafe: unsafe, options: example.options)
                let got = String(decoding: outcome.bytes, as: UTF8.self)
                #expect(got == expected, "\(name), \(unsafe ? "unsafe" : "safe") fixes gave:\n\(got)")
                #expect(outcome.changed == (outcome.bytes != source))
                guard outcome.changed else { continue }
                #expect(Loader.load(outcome.bytes).decodable, "\(name): the fixed text parses")
                let again = Fixer.fix(outcome.bytes, path: "playback.yaml", unsafe: unsafe, options: example.options)
                #expect(again.bytes == outcome.bytes && again.applied.isEmpty, "\(name): fixing twice changes nothing more")
            }
        }
        // The rule's findings carry only the kinds of fix it declares.
        let file = Checker.check(Array((prefix + example.source).utf8), path: "playback.yaml", options: example.options)
        for d in file.diagnostics where d.rule == c.rule.id {
            if let fix = d.fix { #expect(c.rule.fixes.contains(fix.safety), "\(d.headline): a \(fix.safety) fix") }
        }
    }

    /// A rule that says it can fix shows each kind of fix in an example.
    @Test(arguments: Catalog.rules.map(\.id))
    func declaredFixesAreShown(_ id: RuleID) throws {
        let rule = try #require(Catalog.rule(id))
        var shown: Set<Fix.Safety> = []
        for example in rule.examples {
            let file = Checker.check(Array(example.source.utf8), path: "playback.yaml", options: example.options)
            for d in file.diagnostics where d.rule == id { if let fix = d.fix { shown.insert(fix.safety) } }
        }
        #expect(shown == Set(rule.fixes))
    }

    @Test func catalogHoldsEveryRuleOnce() {
        let ids = Catalog.rules.map(\.id)
        #expect(Set(ids).count == ids.count, "an id is listed twice: \(ids)")
        for id in ids {
            #expect(id.rawValue.split(separator: "-").allSatisfy { !$0.isEmpty && $0.allSatisfy { $0.isLowercase && $0.isLetter } }, "\(id)")
            #expect(Catalog.rule(id)?.id == id)
            #expect(Catalog.rule(named: id.rawValue)?.id == id)
        }
        #expect(Catalog.rule(named: "no-such-rule") == nil)
    }

    static let structural: Set<RuleID> = [
        .yamlSyntax, .yamlUnsupported, .yamlDuplicateKey, .inputLimit, .unknownKey, .missingKey, .typeMismatch,
        .extendsParent,
    ]
    /// Found by the pass over waivers after the rules, not by a rule's check.
    static let waivers: Set<RuleID> = [.waiverExpired, .waiverExpiring, .waiverTooLong, .waiverUnused, .waiverNotAllowed, .baselineStale]
    static let language: Set<RuleID> = structural.union([.unsupportedVersion, .badName, .nameCollision]).union(waivers)

    @Test(arguments: Catalog.rules.map(\.id))
    func ruleIsDescribed(_ id: RuleID) throws {
        let rule = try #require(Catalog.rule(id))
        #expect(rule.examples.contains { $0.triggers })
        #expect(rule.examples.contains { !$0.triggers })
        #expect(!rule.summary.isEmpty && !rule.summary.contains("\n"))
        #expect(rule.examples.allSatisfy { !$0.note.isEmpty })
        // The loader and decoder find the structural rules; every other rule has a check.
        #expect((rule.check == nil) == (Self.structural.contains(id) || Self.waivers.contains(id)))
        // Rules of the language itself have no reference in the guide; the others quote it.
        if Self.language.contains(id) {
            #expect(rule.reference == nil)
        } else {
            let reference = try #require(rule.reference)
            #expect(!reference.section.isEmpty)
            #expect(reference.quote?.isEmpty == false)
        }
        #expect(rule.severity == ([.interactiveDeadline, .waiverExpiring, .waiverUnused, .baselineStale].contains(id) ? .warning : .error))
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
