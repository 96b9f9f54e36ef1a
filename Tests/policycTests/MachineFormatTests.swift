import Foundation
import Testing

@testable import PolicyKit
@testable import TestSupport
/// What the machine formats give beyond SPEC's minimum: `json` carries what SARIF carries (ends,
/// the guide's words, related places), and `github` names files by their path in the repository.
@Suite struct MachineFormatTests {
    @Test func jsonDiagnosticsCarryEndsReferencesAndRelatedPlaces() throws {
        let dir = try CLITests.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        try CLITests.write(CLITests.broken, to: "bad.yaml", in: dir)
        try CLITests.write("version: 1\nversion: 1\n", to: "dup.yaml", in: dir)
        let outcome = try CLITests.policyc(["lint", "--format", "json", "bad.yaml", "dup.yaml"], in: dir)
        #expect(outcome.status == 1)
        let diagnostics = try #require(try CLITests.json(outcome.out)["diagnostics"] as? [[String: Any]])
        for d in diagnostics {
            // SPEC's members, unchanged, and the new ones.
            for key in ["file", "line", "column", "severity", "rule", "message", "help", "endLine", "endColumn", "reference", "related"] {
                #expect(d[key] != nil, "\(key) missing in \(d)")
            }
        }
        let retries = try #require(diagnostics.first { $0["rule"] as? String == "interactive-retries-max" })
        #expect(retries["line"] as? Int == 9 && retries["column"] as? Int == 19)
        #expect(retries["endLine"] as? Int == 9 && retries["endColumn"] as? Int == 20)  // `4`: the column after it
        #expect(retries["reference"] as? [String: String] == ["section": "Checklist", "quote": "At most 3 retries per interactive request"])
        #expect((retries["related"] as? [Any])?.isEmpty == true)

        let unknown = try #require(diagnostics.first { $0["rule"] as? String == "unknown-key" })
        #expect(unknown["reference"] is NSNull, "a rule of the language has no guide reference")
        #expect(unknown["endColumn"] as? Int == 9)  // `budgte` spans columns 3 to 8

        let duplicate = try #require(diagnostics.first { $0["rule"] as? String == "yaml-duplicate-key" })
        let related = try #require(duplicate["related"] as? [[String: Any]])
        #expect(related.count == 1)
        #expect(related[0]["file"] as? String == "dup.yaml")
        #expect(related[0]["line"] as? Int == 1 && related[0]["column"] as? Int == 1)
        #expect(related[0]["endLine"] as? Int == 1 && related[0]["endColumn"] as? Int == 8)
        #expect((related[0]["message"] as? String)?.isEmpty == false)
    }

    @Test func githubPathsAreRelativeToTheRepositoryRoot() throws {
        let dir = try CLITests.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("repo/.git"), withIntermediateDirectories: true)
        try CLITests.write(CLITests.broken, to: "repo/apps/player/Policies/bad.yaml", in: dir)
        let app = dir.appendingPathComponent("repo/apps/player")
        let prefix = "::error file=apps/player/Policies/bad.yaml,line=9,col=19,"

        let fromApp = try CLITests.policyc(["lint", "--format", "github"], in: app)
        #expect(fromApp.status == 1)
        #expect(fromApp.out.hasPrefix(prefix), "\(fromApp)")
        let fromPolicies = try CLITests.policyc(["lint", "--format", "github", "bad.yaml", "./../Policies/bad.yaml"],
                                                in: app.appendingPathComponent("Policies"))
        #expect(fromPolicies.out.hasPrefix(prefix), "\(fromPolicies)")
        let fromRoot = try CLITests.policyc(["lint", "--format", "github", "apps/player/Policies"], in: dir.appendingPathComponent("repo"))
        #expect(fromRoot.out.hasPrefix(prefix), "\(fromRoot)")
        let absolute = try CLITests.policyc(["lint", "--format", "github", app.path + "/Policies/bad.yaml"],
                                            in: dir.appendingPathComponent("repo/apps"))
        #expect(absolute.out.hasPrefix(prefix), "\(absolute)")
        // Other formats keep the path as given.
        let text = try CLITests.policyc(["lint"], in: app)
        #expect(text.out.hasPrefix("Policies/bad.yaml:9:19: error: "))

        // Without .git, GITHUB_WORKSPACE says where the repository is; without either, paths stay as given.
        try FileManager.default.removeItem(at: dir.appendingPathComponent("repo/.git"))
        let workspace = try CLITests.policyc(["lint", "--format", "github"], in: app,
                                             environment: ["GITHUB_WORKSPACE": dir.appendingPathComponent("repo").path])
        #expect(workspace.out.hasPrefix(prefix), "\(workspace)")
        let nowhere = try CLITests.policyc(["lint", "--format", "github"], in: app, environment: ["GITHUB_WORKSPACE": ""])
        #expect(nowhere.out.hasPrefix("::error file=Policies/bad.yaml,line=9,col=19,"), "\(nowhere)")
    }
}
