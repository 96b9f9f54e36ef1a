import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif
@testable import PolicyKit
@testable import TestSupport

/// Inputs that are not what they should be: a folder that cannot be listed, a file that cannot be
/// read, a folder without policies. Each is reported by every command and carried by every
/// machine format, and `generate` changes nothing when it cannot see every input.
@Suite struct InputProblemTests {
    // MARK: running without root's power to read everything

    static let setpriv = "/usr/bin/setpriv"
    static let nobody: UInt32 = 65534

    /// Root reads a folder of mode 000 all the same: as root, the runs below drop to nobody
    /// (setpriv), which a mode of 000 does stop.
    static let canDropPrivileges: Bool = geteuid() != 0 || FileManager.default.isExecutableFile(atPath: setpriv)

    static func run(_ arguments: [String], in dir: URL) throws -> CLITests.Outcome {
        let wrapper = geteuid() == 0 ? [setpriv, "--reuid=\(nobody)", "--regid=\(nobody)", "--clear-groups"] : []
        return try CLITests.policyc(arguments, in: dir, wrapper: wrapper)
    }

    /// The scratch folder, owned by the user the runs are made as (so that generate may write),
    /// with `Policies/sub` (holding `c.yaml`) made unlistable; `restore` undoes it for removal.
    static func projectWithUnreadableFolder() throws -> URL {
        let dir = try CLITests.scratch()
        try CLITests.write(CLITests.canonical, to: "Policies/playback.yaml", in: dir)
        try CLITests.write(CLITests.canonical.replacingOccurrences(of: "policy: playback", with: "policy: c"),
                           to: "Policies/sub/c.yaml", in: dir)
        // Everything generated while the folder was readable: CPolicy's files exist.
        let generated = try CLITests.policyc(["generate"], in: dir)
        try #require(generated.status == 0, "\(generated)")
        if geteuid() == 0 {
            let walker = FileManager.default.enumerator(atPath: dir.path)
            lchown(dir.path, nobody, nobody)
            while let name = walker?.nextObject() as? String { lchown(dir.path + "/" + name, nobody, nobody) }
        }
        chmod(dir.appendingPathComponent("Policies/sub").path, 0)
        return dir
    }

    static func restore(_ dir: URL) {
        chmod(dir.appendingPathComponent("Policies/sub").path, 0o755)
        try? FileManager.default.removeItem(at: dir)
    }

    static func generatedFiles(_ dir: URL) -> [String] {
        (FileManager.default.enumerator(atPath: dir.appendingPathComponent("Generated").path)?.allObjects as? [String] ?? [])
            .filter { $0.contains(".") }.sorted()
    }

    @Test func droppingPrivilegesWorksOnCI() {
        if ProcessInfo.processInfo.environment["CI"] == "true" {
            #expect(Self.canDropPrivileges, "CI=true: running as root, setpriv (util-linux) is needed to test unreadable folders")
        }
    }

    // MARK: a folder that cannot be listed

    @Test(.enabled(if: canDropPrivileges, "running as root without setpriv: a folder of mode 000 cannot be made unreadable"))
    func anUnreadableFolderIsReportedByEveryCommand() throws {
        let dir = try Self.projectWithUnreadableFolder()
        defer { Self.restore(dir) }
        let before = Self.generatedFiles(dir)
        #expect(before.contains("Kotlin/CPolicy.kt") && before.contains("Swift/CPolicy.swift"))

        let lint = try Self.run(["lint"], in: dir)
        #expect(lint.status == 2, "\(lint)")
        #expect(lint.err.contains("error: cannot read 'Policies/sub': Permission denied\n"), "\(lint)")
        #expect(lint.err.hasSuffix("0 errors, 0 warnings in 1 file; 1 path could not be read\n"), "\(lint)")

        // generate removes nothing: the policies under the folder are not gone, only unseen.
        for arguments in [["generate"], ["generate", "--check"]] {
            let generate = try Self.run(arguments, in: dir)
            #expect(generate.status == 2, "\(generate)")
            #expect(generate.err.contains("cannot read 'Policies/sub': Permission denied"), "\(generate)")
            #expect(!generate.err.contains("removed") && !generate.out.contains("would remove"), "\(generate)")
            #expect(Self.generatedFiles(dir) == before)
        }

        let explain = try Self.run(["explain"], in: dir)
        #expect(explain.status == 2, "\(explain)")
        #expect(explain.err.contains("cannot read 'Policies/sub': Permission denied"), "\(explain)")

        let diff = try Self.run(["diff", "Policies", "Policies"], in: dir)
        #expect(diff.status == 2, "\(diff)")
        #expect(diff.err.contains("cannot read 'Policies/sub': Permission denied"), "\(diff)")
    }

    @Test(.enabled(if: canDropPrivileges, "running as root without setpriv: a folder of mode 000 cannot be made unreadable"))
    func machineFormatsCarryAnUnreadableFolder() throws {
        let dir = try Self.projectWithUnreadableFolder()
        defer { Self.restore(dir) }
        let message = "cannot read 'Policies/sub': Permission denied"

        let json = try Self.run(["lint", "--format", "json"], in: dir)
        #expect(json.status == 2, "\(json)")
        let object = try CLITests.json(json.out)
        #expect(object["summary"] as? [String: Int] == ["files": 1, "errors": 0, "warnings": 0])
        #expect(object["notices"] as? [[String: String]]
                == [["kind": "unreadable-input", "path": "Policies/sub", "severity": "error", "message": message]])

        let github = try Self.run(["lint", "--format", "github"], in: dir)
        #expect(github.status == 2)
        #expect(github.out == "::error file=Policies/sub,title=unreadable-input::\(message)\n", "\(github)")

        let junit = try Self.run(["lint", "--format", "junit"], in: dir)
        #expect(junit.status == 2)
        #expect(junit.out.contains("<testsuites name=\"policyc lint\" tests=\"2\" failures=\"0\" errors=\"1\">"), "\(junit)")
        #expect(junit.out.contains("<error message=\"cannot read &apos;Policies/sub&apos;: Permission denied\" type=\"unreadable-input\">"))

        let sarif = try Self.run(["lint", "--format", "sarif"], in: dir)
        #expect(sarif.status == 2)
        let run = try #require((try CLITests.json(sarif.out)["runs"] as? [[String: Any]])?.first)
        let invocation = try #require((run["invocations"] as? [[String: Any]])?.first)
        #expect(invocation["executionSuccessful"] as? Bool == false)
        let notification = try #require((invocation["toolExecutionNotifications"] as? [[String: Any]])?.first)
        #expect((notification["message"] as? [String: String])?["text"] == message)
        #expect(notification["level"] as? String == "error")
        if SARIF.shouldRun { try SARIF.validate(sarif.out) }
    }

    // MARK: a file that cannot be read, in every format (no privileges needed)

    @Test func machineFormatsCarryAMissingFile() throws {
        let dir = try CLITests.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        try CLITests.write(CLITests.canonical, to: "ok.yaml", in: dir)
        let message = "cannot read 'missing.yaml': No such file or directory"

        let junit = try CLITests.policyc(["lint", "--format", "junit", "ok.yaml", "missing.yaml"], in: dir)
        #expect(junit.status == 2)
        #expect(junit.out.contains("errors=\"1\">\n"), "\(junit)")
        #expect(junit.out.contains("<testsuite name=\"missing.yaml\" tests=\"1\" failures=\"0\" errors=\"1\" skipped=\"0\">"))

        let github = try CLITests.policyc(["lint", "--format", "github", "ok.yaml", "missing.yaml"], in: dir)
        #expect(github.status == 2)
        #expect(github.out == "::error file=missing.yaml,title=unreadable-input::\(message)\n")

        let sarif = try CLITests.policyc(["lint", "--format", "sarif", "ok.yaml", "missing.yaml"], in: dir)
        #expect(sarif.status == 2)
        #expect(sarif.out.contains("\"executionSuccessful\": false"))
        #expect(sarif.out.contains(message))
        if SARIF.shouldRun { try SARIF.validate(sarif.out) }

        let clean = try CLITests.policyc(["lint", "--format", "sarif", "ok.yaml"], in: dir)
        #expect(clean.status == 0)
        #expect(clean.out.contains("\"executionSuccessful\": true"))
        #expect(!clean.out.contains("toolExecutionNotifications"))
    }

    // MARK: --strict and folders without policies

    @Test func anEmptyPoliciesFolderFailsUnderStrictAndIsCounted() throws {
        let dir = try CLITests.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("Policies"), withIntermediateDirectories: true)

        let lenient = try CLITests.policyc(["lint"], in: dir)
        #expect(lenient.status == 0, "\(lenient)")
        #expect(lenient.err == "warning: no *.yaml or *.yml file under 'Policies'\n  help: 'policyc init Policies' writes a first policy there\n0 errors, 1 warning in 0 files\n")

        let strict = try CLITests.policyc(["lint", "--strict"], in: dir)
        #expect(strict.status == 1, "\(strict)")
        #expect(strict.err.hasSuffix("0 errors, 1 warning in 0 files; failing because of --strict (warnings fail the check)\n"))

        let junit = try CLITests.policyc(["lint", "--strict", "--format", "junit"], in: dir)
        #expect(junit.status == 1)
        #expect(junit.out.contains("<failure message=\"no *.yaml or *.yml file under &apos;Policies&apos;\" type=\"no-policy-files\">"))
        let github = try CLITests.policyc(["lint", "--format", "github"], in: dir)
        #expect(github.out == "::warning title=no-policy-files::no *.yaml or *.yml file under 'Policies'\n")
        let sarif = try CLITests.policyc(["lint", "--format", "sarif"], in: dir)
        #expect(sarif.out.contains("\"executionSuccessful\": true") && sarif.out.contains("\"level\": \"warning\""))
        if SARIF.shouldRun { try SARIF.validate(sarif.out) }
    }

    // MARK: binary files

    /// Every line a binary file's finding prints stays within 80 characters, escapes included.
    @Test func aBinaryFilesFindingStaysWithin80Characters() throws {
        let dir = try CLITests.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        var rng = SystemRandomNumberGenerator()
        let inputs: [String: [UInt8]] = [
            "nul.yaml": Array("version: 1\n".utf8) + [UInt8](repeating: 0, count: 600),
            "controls.yaml": (0..<700).map { UInt8($0 % 8 + 1) },
            "elf.yaml": [0x7F] + Array("ELF".utf8) + (0..<2000).map { _ in UInt8.random(in: 0...8, using: &rng) },
        ]
        for (name, bytes) in inputs {
            try Data(bytes).write(to: dir.appendingPathComponent(name))
            let run = try CLITests.policyc(["lint", name], in: dir)
            #expect(run.status == 1, "\(name): \(run)")
            let lines = run.out.split(separator: "\n")
            #expect(lines.count >= 3, "\(name): \(run)")
            // The quoted line and its caret; the finding's own line names the file and the rule.
            for line in lines.dropFirst().prefix(2) {
                #expect(line.count <= 80, "\(name): \(line.count) characters: \(line)")
            }
            #expect(lines[1].hasSuffix("…") || lines[1].hasPrefix("…"), "\(name): \(lines[1])")
        }
    }

    // MARK: links in a folder that lead to no file

    @Test func aDanglingOrLoopingLinkInAFolderIsAWarning() throws {
        let dir = try CLITests.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        try CLITests.write(CLITests.canonical, to: "Policies/playback.yaml", in: dir)
        let fm = FileManager.default
        try fm.createSymbolicLink(atPath: dir.appendingPathComponent("Policies/gone.yaml").path, withDestinationPath: "../moved/gone.yaml")
        try fm.createSymbolicLink(atPath: dir.appendingPathComponent("Policies/loop.yaml").path, withDestinationPath: "loop.yaml")
        let gone = "skipped 'Policies/gone.yaml': a symbolic link that leads to no file (its target '../moved/gone.yaml' does not exist)"
        let loop = "skipped 'Policies/loop.yaml': a symbolic link that leads to no file (it loops)"

        let lint = try CLITests.policyc(["lint"], in: dir)
        #expect(lint.status == 0, "\(lint)")
        #expect(lint.err == "warning: \(gone)\nwarning: \(loop)\n0 errors, 2 warnings in 1 file\n", "\(lint)")
        #expect(try CLITests.policyc(["lint", "--strict"], in: dir).status == 1)

        let json = try CLITests.policyc(["lint", "--format", "json"], in: dir)
        let notices = try CLITests.json(json.out)["notices"] as? [[String: String]]
        #expect(notices == [["kind": "broken-link", "path": "Policies/gone.yaml", "severity": "warning", "message": gone],
                            ["kind": "broken-link", "path": "Policies/loop.yaml", "severity": "warning", "message": loop]], "\(json)")
        let sarif = try CLITests.policyc(["lint", "--format", "sarif"], in: dir)
        #expect(sarif.out.contains("\"executionSuccessful\": true") && sarif.out.contains("broken-link"))
        if SARIF.shouldRun { try SARIF.validate(sarif.out) }

        let generate = try CLITests.policyc(["generate"], in: dir)
        #expect(generate.status == 0 && generate.err.hasPrefix("warning: \(gone)\nwarning: \(loop)\n"), "\(generate)")
        let explain = try CLITests.policyc(["explain"], in: dir)
        #expect(explain.status == 0 && explain.err.contains("warning: \(loop)\n"), "\(explain)")
        // A review says so too: a policy behind a broken link must not drop out of it unsaid.
        try CLITests.write(CLITests.canonical, to: "Old/playback.yaml", in: dir)
        let diff = try CLITests.policyc(["diff", "Old", "Policies"], in: dir)
        #expect(diff.status == 0 && diff.err == "warning: \(gone)\nwarning: \(loop)\n", "\(diff)")
    }

    @Test(.enabled(if: CLITests.hasInteractiveDeadline || GenSupport.isCI, "no interactive-deadline rule in this build (required when CI=true)"))
    func strictSaysWhyWarningsAloneFail() throws {
        let dir = try CLITests.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        try CLITests.write(CLITests.canonical.replacingOccurrences(of: "deadline: 15s", with: "deadline: 20s"), to: "slow.yaml", in: dir)
        let lenient = try CLITests.policyc(["lint", "slow.yaml"], in: dir)
        #expect(lenient.err == "0 errors, 1 warning in 1 file\n")
        let strict = try CLITests.policyc(["lint", "--strict", "slow.yaml"], in: dir)
        #expect(strict.status == 1)
        #expect(strict.err == "0 errors, 1 warning in 1 file; failing because of --strict (warnings fail the check)\n")
        // With errors, the errors are why: nothing more is said.
        try CLITests.write(CLITests.broken.replacingOccurrences(of: "deadline: 15s", with: "deadline: 20s"), to: "bad.yaml", in: dir)
        let both = try CLITests.policyc(["lint", "--strict", "bad.yaml"], in: dir)
        #expect(both.status == 1)
        #expect(both.err == "3 errors, 1 warning in 1 file\n")
    }
}
