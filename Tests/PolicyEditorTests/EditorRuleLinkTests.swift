import Testing
@testable import PolicySource
@testable import PolicyCheck
@testable import PolicyEditor
@testable import PolicyWorkspace
@testable import TestSupport

/// A finding in the editor links to its rule's page (`codeDescription.href`): the rule book of the
/// document's workspace folder (its project file's `rulesUrl`), else the default.
@Suite struct EditorRuleLinkTests {
    static func server(root: String?) -> LanguageServer {
        var server = LanguageServer()
        _ = server.receive(EditorServerTests.request(1, "initialize", .object([
            "capabilities": .object([:]), "rootUri": root.map(JSON.string) ?? .null,
        ])))
        _ = server.receive(EditorServerTests.notification("initialized"))
        return server
    }

    static let broken = Canonical.text.replacingFirst("maxRetries: 3", with: "maxRetries: 4")

    @Test func findingsLinkToTheDefaultRuleBook() throws {
        var server = Self.server(root: nil)
        let published = EditorServerTests.open(&server, Self.broken)
        let diagnostics = try #require(published.first?["params"]?["diagnostics"]?.arrayValue)
        let finding = try #require(diagnostics.first { $0["code"] == .string("interactive-retries-max") })
        #expect(finding["codeDescription"] == .object(["href": .string(RulePages.defaultBase + "interactive-retries-max.md")]))
    }

    @Test func theProjectFilesRulesUrlWins() throws {
        var server = Self.server(root: "file:///work")
        let project = "version: 1\nrulesUrl: https://docs.example.com/policyc/{rule}.html\n"
        server.diskFilesRead(sets: ["/work": PolicySet.of(folder: "/work", projectFile: ("policyc.yaml", Array(project.utf8)),
                                                          hasPoliciesFolder: true)], changed: [], removed: [])
        let published = EditorServerTests.open(&server, Self.broken, uri: "file:///work/Policies/a.yaml")
        let diagnostics = try #require(published.first?["params"]?["diagnostics"]?.arrayValue)
        #expect(!diagnostics.isEmpty)
        for d in diagnostics {
            let code = try #require(d["code"]?.stringValue)
            #expect(d["codeDescription"]?["href"] == .string("https://docs.example.com/policyc/\(code).html"))
        }
    }
}
