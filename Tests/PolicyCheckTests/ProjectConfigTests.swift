import Foundation
import Testing
@testable import PolicySource
@testable import PolicyCheck
@testable import TestSupport

/// The project file as PolicyKit reads it: bytes in, the typed file and findings out.
@Suite struct ProjectConfigTests {
    static func load(_ text: String) -> (config: ProjectConfig, diagnostics: [Diagnostic]) {
        ProjectConfig.load(Array(text.utf8), path: "policyc.yaml")
    }

    @Test func everyKey() throws {
        let loaded = Self.load("""
            version: 1
            policies: [Policies, more/extra.yaml]
            out: build/generated
            targets: [kotlin, swift]
            kotlinPackage: com.example.player
            """)
        #expect(loaded.diagnostics.isEmpty, "\(loaded.diagnostics.map(\.headline))")
        #expect(loaded.config.policies?.map(\.value) == ["Policies", "more/extra.yaml"])
        #expect(loaded.config.policies?.last?.span.start == Mark(line: 2, column: 22))
        #expect(loaded.config.out?.value == "build/generated")
        #expect(loaded.config.targets?.value == [.kotlin, .swift])
        #expect(loaded.config.kotlinPackage?.value == "com.example.player")
    }

    @Test func verifyEndpoint() {
        let loaded = Self.load("version: 1\nverify: {endpoint: \"/v1/tickets\"}\n")
        #expect(loaded.diagnostics.isEmpty && loaded.config.verifyEndpoint?.value == "/v1/tickets")
        let empty = Self.load("version: 1\nverify:\n  endpoint: \"\"\n")
        #expect(empty.diagnostics.map(\.rule) == [.typeMismatch] && empty.config.verifyEndpoint == nil)
        #expect(Self.load("version: 1\nverify: {endpiont: /v1}\n").diagnostics.map(\.rule) == [.unknownKey])
    }

    /// What `init --project` writes reads back clean, whatever the folder's name.
    @Test(arguments: ["Policies", "my policies", "yes", "a: b", "#x", "[x]", "Policies/tv.yaml"])
    func theStarterProjectFileReadsBack(_ folder: String) {
        let loaded = Self.load(ProjectConfig.starter(policies: folder))
        #expect(loaded.diagnostics.isEmpty, "\(loaded.diagnostics.map(\.headline))")
        #expect(loaded.config.policies?.map(\.value) == [folder])
        #expect(loaded.config.out?.value == "Generated")
        #expect(loaded.config.guide?.value == Guide.newest.name)
        #expect(loaded.config.targets?.value == CodeTarget.allCases)
    }

    @Test func onlyTheVersionIsRequired() {
        let loaded = Self.load("version: 1\n# nothing else\n")
        #expect(loaded.diagnostics.isEmpty)
        #expect(loaded.config == ProjectConfig())
    }

    @Test(arguments: [
        ("version: 1\nout: gen\nkotlinPakage: x\n", "policyc.yaml:3:1: error: unknown key 'kotlinPakage' in the project file [unknown-key]", "did you mean 'kotlinPackage'?"),
        ("version: 1\ntargets: [swift, swfit]\n", "policyc.yaml:2:18: error: an item of 'targets' is 'swfit', which is not one of swift, kotlin, typescript or schema [type-mismatch]", "did you mean 'swift'?"),
        ("version: 1\ntargets: [swift, swift]\n", "policyc.yaml:2:18: error: 'swift' is listed twice in 'targets'; the first is at line 2, column 11 [type-mismatch]", "remove the repeated item"),
        ("version: 01\n", "policyc.yaml:1:10: error: 'version' must be an integer", nil),
        ("version: 3\nout: x\n", "policyc.yaml:1:10: error: the project file is version 3; this policyc reads version 1 [unsupported-version]", "upgrade policyc to read this file"),
        ("out: gen\n", "policyc.yaml:1:1: error: the project file lacks the required key 'version' (project file version) [missing-key]", "add 'version: 1'"),
        ("version: 1\nout: ''\n", "policyc.yaml:2:6: error: 'out' is empty; it must name a folder [type-mismatch]", "leave 'out' out for the default, Generated"),
        ("version: 1\npolicies: [a, '']\n", "policyc.yaml:2:15: error: an item of 'policies' is empty; it must name a file or folder [type-mismatch]", nil),
        ("version: 1\nkotlinPackage: com.example.when\n", "policyc.yaml:2:16: error: 'kotlinPackage' is 'com.example.when', which is not a Kotlin package name (dot-separated identifiers, no keywords) [type-mismatch]", "write a package such as wandura.policies"),
        ("version: 1\nout: &a x\n", "policyc.yaml:2:6: error: ", nil),
        ("version: [1\n", "policyc.yaml:", nil),
    ] as [(String, String, String?)])
    func findings(text: String, headline: String, help: String?) throws {
        let loaded = Self.load(text)
        let first = try #require(loaded.diagnostics.first, "no finding for \(text)")
        #expect(first.headline.hasPrefix(headline), "\(loaded.diagnostics.map(\.headline))")
        if let help { #expect(first.help == help) }
        #expect(loaded.diagnostics.allSatisfy { $0.file == "policyc.yaml" })
    }

    /// A list whose every item is wrong is not also empty: one finding per item, no third.
    @Test func aListOfWrongItemsIsNotAlsoEmpty() {
        let targets = Self.load("version: 1\ntargets: [typscript, Kotlin]\n")
        #expect(targets.diagnostics.map(\.headline) == [
            "policyc.yaml:2:11: error: an item of 'targets' is 'typscript', which is not one of swift, kotlin, typescript or schema [type-mismatch]",
            "policyc.yaml:2:22: error: an item of 'targets' is 'Kotlin', which is not one of swift, kotlin, typescript or schema [type-mismatch]",
        ])
        #expect(targets.config.targets == nil)
        let policies = Self.load("version: 1\npolicies: [{a: 1}]\n")
        #expect(policies.diagnostics.count == 1 && !policies.diagnostics.contains { $0.message.contains("is empty") },
                "\(policies.diagnostics.map(\.headline))")
        #expect(Self.load("version: 1\ntargets: []\n").diagnostics.map(\.message).first?.hasPrefix("'targets' is empty") == true)
    }

    @Test func aFileWithErrorsSetsNothingItCouldNotRead() {
        let loaded = Self.load("version: 1\nout: gen\ntargets: [swift, nope]\n")
        #expect(loaded.diagnostics.count == 1)
        #expect(loaded.config.targets == nil)
        #expect(loaded.config.out?.value == "gen")
    }

    @Test func hostileBytesAreFindingsNotCrashes() {
        for bytes: [UInt8] in [[0xFF, 0xFE], Array(repeating: 0x5B, count: 100), Array("a: *x\n".utf8), []] {
            let loaded = ProjectConfig.load(bytes, path: "p.yaml")
            #expect(!loaded.diagnostics.isEmpty)
        }
    }

    // MARK: rulesUrl

    /// The rule book's address: a folder that `<rule>.md` is appended to, or a pattern with `{rule}`.
    @Test func rulesUrlMovesTheRuleBook() throws {
        #expect(Self.load("version: 1\n").config.rulePages == .standard)
        #expect(RulePages.standard.url(for: .yamlSyntax) == RulePages.defaultBase + "yaml-syntax.md")
        let folder = Self.load("version: 1\nrulesUrl: https://git.example.com/team/policyc/src/main/Docs/rules\n")
        #expect(folder.diagnostics.isEmpty, "\(folder.diagnostics.map(\.headline))")
        #expect(folder.config.rulesUrl?.span.start == Mark(line: 2, column: 11))
        #expect(folder.config.rulePages.url(for: "timeout-min") == "https://git.example.com/team/policyc/src/main/Docs/rules/timeout-min.md")
        let pattern = Self.load("version: 1\nrulesUrl: 'HTTP://docs.example.com/rules/{rule}.html?v=2#top'\n")
        #expect(pattern.diagnostics.isEmpty, "\(pattern.diagnostics.map(\.headline))")
        #expect(pattern.config.rulePages.url(for: "full-jitter") == "HTTP://docs.example.com/rules/full-jitter.html?v=2#top")
    }

    @Test(arguments: [
        ("Docs/rules", "it is not an absolute http or https URL"),
        ("file:///srv/rules/", "it is not an absolute http or https URL"),
        ("https://", "it names no host"),
        ("https:///rules", "it names no host"),
        ("https://example.com/my rules/", "it holds a space, which a URL cannot hold unencoded"),
        ("https://example.com/ré/", "it holds 'é', which a URL cannot hold unencoded"),
        ("https://example.com/rules?page=", "the page's name would follow its query or fragment; write {rule} where the rule's id goes"),
    ])
    func rulesUrlMustBeAnAbsoluteWebAddress(url: String, problem: String) throws {
        let loaded = Self.load("version: 1\nrulesUrl: '\(url)'\n")
        let finding = try #require(loaded.diagnostics.first)
        #expect(loaded.diagnostics.count == 1)
        #expect(finding.headline == "policyc.yaml:2:11: error: 'rulesUrl' is '\(url)', which cannot be the rule book's address: \(problem) [type-mismatch]")
        #expect(finding.help?.hasPrefix("write an absolute http or https URL, such as https://") == true)
        #expect(loaded.config.rulesUrl == nil && loaded.config.rulePages == .standard)
    }

    @Test func rulesUrlIsAString() throws {
        let loaded = Self.load("version: 1\nrulesUrl: [https://example.com]\n")
        #expect(loaded.diagnostics.first?.rule == .typeMismatch && loaded.diagnostics.first?.span.start == Mark(line: 2, column: 11))
        let typo = Self.load("version: 1\nruleUrl: https://example.com/\n")
        #expect(typo.diagnostics.first?.help == "did you mean 'rulesUrl'?")
    }
}
