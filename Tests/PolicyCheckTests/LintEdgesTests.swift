import Testing
@testable import PolicySource
@testable import PolicyCheck
@testable import TestSupport

/// Issue 48 item 5: lint's edges that needed a second run.
@Suite struct LintEdgesTests {
    func check(_ text: String) -> CheckedFile { Checker.check(Array(text.utf8), path: "p.yaml") }

    /// A syntax error in a second document is reported beside the second document itself, and the
    /// file is then not read further (as with a syntax error in the first).
    @Test func aSyntaxErrorInASecondDocumentIsReported() {
        let broken = check(Canonical.text.replacingFirst("maxRetries: 3", with: "maxRetries: 4") + "---\nversion: [1\n")
        let lines = Canonical.text.split(separator: "\n", omittingEmptySubsequences: false).count
        #expect(broken.diagnostics.map(\.rule) == [.yamlUnsupported, .yamlSyntax], "\(broken.diagnostics.map(\.headline))")
        #expect(broken.diagnostics.first?.span.start.line == lines)
        #expect((broken.diagnostics.last?.span.start.line ?? 0) > lines)
        #expect(broken.doc == nil)
        // A second document without an error: only that, and the first is still checked.
        let second = check(Canonical.text.replacingFirst("maxRetries: 3", with: "maxRetries: 4") + "---\nversion: 1\n")
        #expect(second.diagnostics.map(\.rule) == [.interactiveRetriesMax, .yamlUnsupported])
        // A third document, or an error after it: still one finding for the documents.
        let third = check("version: 1\n---\na: 1\n---\nb: [\n")
        #expect(third.diagnostics.map(\.rule) == [.yamlUnsupported, .yamlSyntax])
    }

    func fixed(_ text: String) -> String {
        String(decoding: Fixer.fix(Array(text.utf8), path: "p.yaml", unsafe: false).bytes, as: UTF8.self)
    }

    static let withoutBudget = Canonical.text.replacingFirst("  budget:\n    ratio: 10%\n    minPerMinute: 10\n", with: "")

    /// `budget:` at the top level: one finding that says where it belongs, and a safe fix that
    /// moves the block with its values and comments (deleting it instead would make 8 % 10 %).
    @Test func aMisplacedSectionIsOneFindingAndMoves() throws {
        let text = Self.withoutBudget.replacingFirst("prefetch:\n", with: "budget:\n  ratio: 8%        # ours\n  minPerMinute: 5\n\nprefetch:\n")
        let found = check(text)
        #expect(found.diagnostics.map(\.headline) == ["p.yaml:30:1: error: key 'budget' belongs in 'retry', not in the policy [unknown-key]"])
        let fix = try #require(found.diagnostics.first?.fix)
        #expect(fix.safety == .safe && fix.description == "move 'budget' into 'retry'")
        let moved = fixed(text)
        #expect(moved == Canonical.text.replacingFirst("    ratio: 10%\n    minPerMinute: 10\n", with: "    ratio: 8%        # ours\n    minPerMinute: 5\n"))
        #expect(check(moved).diagnostics.isEmpty)
        // Right after the section it belongs in, without a blank line: one edit.
        let adjacent = Self.withoutBudget.replacingFirst("    maxJitter: 1s\n", with: "    maxJitter: 1s\nbudget: {ratio: 8%, minPerMinute: 5}\n")
        #expect(fixed(adjacent) == Self.withoutBudget.replacingFirst("    maxJitter: 1s\n", with: "    maxJitter: 1s\n  budget: {ratio: 8%, minPerMinute: 5}\n"))
        // A key of one mapping only, at the top level: one finding, moved into it.
        let ratio = Canonical.text.replacingFirst("    ratio: 10%\n", with: "").replacingFirst("prefetch:\n", with: "ratio: 8%\n\nprefetch:\n")
        #expect(check(ratio).diagnostics.map(\.rule) == [.unknownKey])
        // Placed in the language's order, before minPerMinute.
        #expect(fixed(ratio) == Canonical.text.replacingFirst("    ratio: 10%\n", with: "    ratio: 8%\n"))
    }

    /// Where a move could be wrong, there is none: the home has the key already.
    @Test func anAmbiguousMoveIsNoFix() {
        let twice = Canonical.text.replacingFirst("prefetch:\n", with: "budget:\n  ratio: 8%\n  minPerMinute: 10\n\nprefetch:\n")
        let found = check(twice)
        #expect(found.diagnostics.map(\.rule) == [.unknownKey] && found.diagnostics.first?.fix == nil)
        #expect(fixed(twice) == twice)
    }

    /// A line of blanks and a tab: said so, and the safe fix deletes them; together with a line a
    /// tab indents, one fix does both.
    @Test func aTabOnABlankLineIsDeleted() throws {
        let text = Canonical.text.replacingFirst("prefetch:\n", with: "prefetch:\n  \t\n")
        let found = check(text)
        let finding = try #require(found.diagnostics.first)
        #expect(found.diagnostics.count == 1 && finding.rule == .yamlSyntax)
        #expect(finding.message == "a tab stands on this blank line; YAML indents with spaces only")
        #expect(finding.help == "delete the tab: the line holds nothing else")
        #expect(finding.fix?.safety == .safe && finding.fix?.description == "delete the tab of the blank line")
        #expect(fixed(text) == Canonical.text.replacingFirst("prefetch:\n", with: "prefetch:\n\n"))
        let both = Canonical.text.replacingFirst("prefetch:\n", with: "prefetch:\n\t\n").replacingFirst("  ahead: 2", with: "\tahead: 2")
        let fix = try #require(check(both).diagnostics.first?.fix)
        #expect(fix.description == "indent the 1 line a tab indents with spaces, each as its siblings, and clear 1 blank line")
        #expect(fixed(both) == Canonical.text.replacingFirst("prefetch:\n", with: "prefetch:\n\n"))
    }

    /// A key at a column between two mappings: help that names both columns.
    @Test func aKeyBetweenTwoColumnsGetsBoth() throws {
        let found = check(Canonical.text.replacingFirst("      base: 500ms ", with: "     base: 500ms  "))
        let finding = try #require(found.diagnostics.first)
        #expect(finding.rule == .yamlSyntax && finding.span.start == Mark(line: 10, column: 6))
        #expect(finding.help == "'base' starts at column 6, between two mappings: start it at column 7 (as 'maxRetries', line 9) "
                + "to stay in the mapping above it, or at column 5 (as 'interactive', line 7) for the mapping around that one")
        let top = check(Canonical.text.replacingFirst("  onlyUnlocked: true", with: " onlyUnlocked: true"))
        #expect(top.diagnostics.first?.help?.hasPrefix("'onlyUnlocked' starts at column 2, between two mappings: start it at column 3 (as 'ahead', line 34)") == true,
                "\(top.diagnostics.map(\.headline))")
    }
}
