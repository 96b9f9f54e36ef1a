import Foundation
import Testing

@testable import PolicyKit
@testable import TestSupport
/// What the binary says about itself and about programs it needs, as on a machine with nothing
/// but policyc (Scripts/chroot-check runs the release binary in such a machine).
@Suite struct StandaloneTests {
    /// `0.3.0 (1a2b3c4)`: the version, and the commit when the build ran in a git checkout of the
    /// package (Plugins/BuildInfoPlugin), which is then the checkout's HEAD.
    @Test func versionNamesTheCommit() throws {
        let run = try CLITests.policyc(["--version"])
        #expect(run.status == 0 && run.err.isEmpty, "\(run)")
        let line = run.out
        #expect(line.hasPrefix("0.3.0") && line.hasSuffix("\n") && line.filter { $0 == "\n" }.count == 1, "\(line)")
        let root = CLITests.packageRoot
        guard FileManager.default.fileExists(atPath: root.appendingPathComponent(".git").path),
              let head = Self.git(["-C", root.path, "rev-parse", "--short=7", "HEAD"], in: root)
        else {
            #expect(line == "0.3.0\n")
            return
        }
        #expect(line == "0.3.0 (\(head))\n")
    }

    /// `diff --base` without git: one line that names what is missing, exit 2, nothing on stdout.
    @Test func diffBaseWithoutGitSaysSo() throws {
        let dir = try CLITests.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        try CLITests.write(CLITests.canonical, to: "Policies/playback.yaml", in: dir)
        let run = try CLITests.policyc(["diff", "--base", "HEAD"], in: dir,
                                       environment: ["PATH": dir.appendingPathComponent("no-such-folder").path])
        #expect(run.status == 2, "\(run)")
        #expect(run.out.isEmpty)
        #expect(run.err == "error: git was not found on PATH; diff --base needs git\n", "\(run)")
    }

    static func git(_ arguments: [String], in directory: URL) -> String? {
        guard let result = try? Processes.run("git", arguments, in: directory), result.status == 0 else { return nil }
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
