import Foundation
import Testing

import PolicyKit
import TestSupport
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
}
