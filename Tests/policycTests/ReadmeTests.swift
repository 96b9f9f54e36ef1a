import Foundation
import Testing

@testable import PolicyKit
@testable import TestSupport
/// The README is documentation a newcomer follows: what it shows must be what policyc does.
@Suite struct ReadmeTests {
    static let readme = (try? String(contentsOf: CLITests.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)) ?? ""

    @Test func ruleTableIsTheCatalog() throws {
        let table = try CLITests.policyc(["rules", "--format", "markdown"])
        #expect(table.status == 0)
        #expect(!table.out.isEmpty && Self.readme.contains(table.out),
                "README's rule table differs from `policyc rules --format markdown`; paste the new table")
    }

    @Test func canonicalPolicyIsTheRepositorysPolicy() throws {
        let dir = try CLITests.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let initialised = try CLITests.policyc(["init", "Policies"], in: dir)
        #expect(initialised.status == 0, "\(initialised)")
        let written = try String(contentsOf: dir.appendingPathComponent("Policies/playback.yaml"), encoding: .utf8)
        let ours = try String(contentsOf: CLITests.packageRoot.appendingPathComponent("Policies/playback.yaml"), encoding: .utf8)
        #expect(written == ours, "Policies/playback.yaml is what `policyc init` writes")
    }

    /// Every YAML example in Docs/ that is a scenario or a policy lints clean: a reader copies them.
    @Test func yamlExamplesInTheDocsLintClean() throws {
        let docs = CLITests.packageRoot.appendingPathComponent("Docs")
        let dir = try CLITests.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        var checked = 0
        for name in try FileManager.default.contentsOfDirectory(atPath: docs.path).sorted() where name.hasSuffix(".md") {
            let text = try String(contentsOf: docs.appendingPathComponent(name), encoding: .utf8)
            for (i, block) in text.components(separatedBy: "```yaml\n").dropFirst().enumerated() {
                guard let body = block.components(separatedBy: "```").first,
                      body.hasPrefix("version: 1\n") else { continue }
                let file = "\(name)-\(i).yaml"
                try CLITests.write(body, to: file, in: dir)
                let run = try CLITests.policyc(["lint", file], in: dir)
                #expect(run.status == 0, "Docs/\(name), YAML example \(i + 1):\n\(run)")
                checked += 1
            }
        }
        #expect(checked >= 1, "no YAML example found in Docs/")
    }

    /// The README's project file example reads as a project file, every key known: a reader
    /// copies it (a merge once glued two of its lines together, `timeoutMin: 8sreview:`).
    @Test func theProjectFileExampleReads() throws {
        let block = try #require(Self.readme.components(separatedBy: "```yaml\n").dropFirst()
            .compactMap { $0.components(separatedBy: "```").first }
            .first { $0.contains("\nlimits:") && $0.contains("\nreview:") })
        let loaded = ProjectConfig.load(Array(block.utf8), path: "policyc.yaml")
        #expect(loaded.diagnostics.isEmpty, "\(loaded.diagnostics.map(\.headline))")
        #expect(loaded.config.guide != nil && !loaded.config.limits.isEmpty)
    }
}
