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
}
