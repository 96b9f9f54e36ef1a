import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

@testable import PolicyKit
@testable import TestSupport
/// `lint --fix`, `--unsafe-fixes` and `--diff` through the binary: what is written, what is not,
/// what is said, and the exit status.
@Suite struct FixCLITests {
    static let canonical = CLITests.canonical

    /// Two certain mistakes (a unit word, a YAML 1.1 boolean) and two choices (a limit, a bare number).
    static var broken: String {
        canonical
            .replacingOccurrences(of: "cap: 8s ", with: "cap: 8 sec ")
            .replacingOccurrences(of: "honor: true", with: "honor: yes")
            .replacingOccurrences(of: "maxRetries: 3 ", with: "maxRetries: 7 ")
            .replacingOccurrences(of: "base: 1s\n", with: "base: 1000\n")
    }

    /// Another policy, without mistakes.
    static var clean: String { canonical.replacingOccurrences(of: "policy: playback", with: "policy: clean") }

    /// `broken` after the safe fixes.
    static var safeFixed: String {
        canonical
            .replacingOccurrences(of: "maxRetries: 3 ", with: "maxRetries: 7 ")
            .replacingOccurrences(of: "base: 1s\n", with: "base: 1000\n")
    }

    static func read(_ name: String, in dir: URL) throws -> String {
        try String(contentsOf: dir.appendingPathComponent(name), encoding: .utf8)
    }

    static func attributes(_ name: String, in dir: URL) throws -> [FileAttributeKey: Any] {
        try FileManager.default.attributesOfItem(atPath: dir.appendingPathComponent(name).path)
    }

    /// A file that cannot be written reports no fix: its findings stay, as in the file.
    @Test(.enabled(if: InputProblemTests.canDropPrivileges, "running as root without setpriv: a read-only folder binds root not"))
    func aFileThatCannotBeWrittenReportsNoFix() throws {
        let dir = try CLITests.scratch()
        defer {
            chmod(dir.path, 0o755)
            try? FileManager.default.removeItem(at: dir)
        }
        try CLITests.write(Self.broken, to: "bad.yaml", in: dir)
        try CLITests.write(Self.broken.replacingOccurrences(of: "policy: playback", with: "policy: other"), to: "ok/other.yaml", in: dir)
        if geteuid() == 0 {
            for name in ["", "/bad.yaml", "/ok", "/ok/other.yaml"] { lchown(dir.path + name, InputProblemTests.nobody, InputProblemTests.nobody) }
        }
        chmod(dir.path, 0o555)
        let run = try InputProblemTests.run(["lint", "--fix", "bad.yaml", "ok/other.yaml"], in: dir)
        #expect(run.status == 2, "\(run)")
        #expect(run.err.hasPrefix("error: cannot write 'bad.yaml': Permission denied\n"), "\(run)")
        #expect(!run.err.contains("bad.yaml:11:12: fixed") && run.err.contains("ok/other.yaml:11:12: fixed: write 8s"), "\(run)")
        #expect(run.err.contains("fixed 2 findings in 1 file; nothing fixed in 1 file that could not be written; "), "\(run)")
        #expect(try Self.read("bad.yaml", in: dir) == Self.broken)
        // Its findings as they are in the file, the fixable ones too.
        #expect(run.out.contains("bad.yaml:11:12: error:") && !run.out.contains("ok/other.yaml:11:12: error:"), "\(run)")
    }

    @Test func fixWritesTheSafeFixesInPlaceAndOnlyThose() throws {
        let dir = try CLITests.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        try CLITests.write(Self.broken, to: "bad.yaml", in: dir)
        try CLITests.write(Self.clean, to: "clean.yaml", in: dir)
        try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: dir.appendingPathComponent("bad.yaml").path)
        let old = Date(timeIntervalSince1970: 1_000_000)
        try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: dir.appendingPathComponent("clean.yaml").path)

        let run = try CLITests.policyc(["lint", "--fix", "bad.yaml", "clean.yaml"], in: dir)
        #expect(run.status == 1, "\(run)")
        #expect(try Self.read("bad.yaml", in: dir) == Self.safeFixed)
        #expect(run.err.hasPrefix("""
            bad.yaml:11:12: fixed: write 8s [type-mismatch]
            bad.yaml:27:12: fixed: write true [type-mismatch]

            """), "\(run)")
        #expect(run.err.hasSuffix("fixed 2 findings in 1 file; 2 errors, 0 warnings in 2 files; 2 unsafe fixes available with --unsafe-fixes\n"), "\(run)")
        // The findings that remain, as lint reports them, in the fixed text.
        #expect(run.out.contains("bad.yaml:9:19: error: interactive profile 'interactive' allows 7 retries; at most 3 are allowed [interactive-retries-max]"))
        #expect(run.out.contains("  fix: write maxRetries: 3 (unsafe: lint --unsafe-fixes)\n"))
        // Mode kept; the clean file untouched; no temporary file left.
        #expect(try Self.attributes("bad.yaml", in: dir)[.posixPermissions] as? Int == 0o640)
        #expect(try Self.attributes("clean.yaml", in: dir)[.modificationDate] as? Date == old)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() == ["bad.yaml", "clean.yaml"])

        // Again: nothing more to fix, nothing written.
        try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: dir.appendingPathComponent("bad.yaml").path)
        let again = try CLITests.policyc(["lint", "--fix", "bad.yaml"], in: dir)
        #expect(again.status == 1)
        #expect(again.err.hasSuffix("nothing to fix; 2 errors, 0 warnings in 1 file; 2 unsafe fixes available with --unsafe-fixes\n"), "\(again)")
        #expect(try Self.attributes("bad.yaml", in: dir)[.modificationDate] as? Date == old)

        // The unsafe fixes too: clean, exit 0.
        let unsafe = try CLITests.policyc(["lint", "--unsafe-fixes", "bad.yaml"], in: dir)
        #expect(unsafe.status == 0, "\(unsafe)")
        #expect(unsafe.err.contains("bad.yaml:9:19: fixed: write maxRetries: 3 (unsafe) [interactive-retries-max]\n"))
        #expect(unsafe.err.hasSuffix("fixed 2 findings in 1 file; 0 errors, 0 warnings in 1 file\n"))
        #expect(try Self.read("bad.yaml", in: dir) == Self.canonical.replacingOccurrences(of: "base: 1s\n", with: "base: 1000ms\n"))
        #expect(try Self.attributes("bad.yaml", in: dir)[.posixPermissions] as? Int == 0o640)
    }

    /// Issue 39, item 16: an empty `tv-player.yaml` is fixed into the policy `tv-player`.
    @Test func anEmptyFileGetsThePolicyNamedAfterIt() throws {
        let dir = try CLITests.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        try CLITests.write("", to: "Policies/tv-player.yaml", in: dir)
        let run = try CLITests.policyc(["lint", "--unsafe-fixes", "Policies/tv-player.yaml"], in: dir)
        #expect(run.status == 0, "\(run)")
        #expect(try Self.read("Policies/tv-player.yaml", in: dir) == Canonical.text(policy: "tv-player"))
    }

    @Test func diffPrintsAndWritesNothing() throws {
        let dir = try CLITests.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        try CLITests.write(Self.broken, to: "Policies/bad.yaml", in: dir)
        try CLITests.write(Self.clean, to: "Policies/clean.yaml", in: dir)

        let diff = try CLITests.policyc(["lint", "--diff"], in: dir)
        #expect(diff.status == 1, "\(diff)")
        #expect(diff.out == """
            --- a/Policies/bad.yaml
            +++ b/Policies/bad.yaml
            @@ -8,7 +8,7 @@
                   kind: interactive     # a viewer is waiting
                   maxRetries: 7         # retries after the first attempt
                   base: 500ms           # first backoff step
            -      cap: 8 sec               # largest backoff step
            +      cap: 8s               # largest backoff step
                   timeout: 8s           # per attempt
                   deadline: 15s         # the whole call, retries included
                 background:
            @@ -24,7 +24,7 @@
                   code: not_ready
               backoff: full-jitter
               retryAfter:
            -    honor: yes
            +    honor: true
                 maxJitter: 1s
               budget:
                 ratio: 10%

            """)
        #expect(diff.err.contains("Policies/bad.yaml:11:12: would fix: write 8s [type-mismatch]\n"))
        #expect(diff.err.hasSuffix("would fix 2 findings in 1 file; 2 errors, 0 warnings in 2 files; 2 unsafe fixes available with --unsafe-fixes\n"))
        #expect(try Self.read("Policies/bad.yaml", in: dir) == Self.broken)

        let unsafe = try CLITests.policyc(["lint", "--diff", "--unsafe-fixes", "Policies/bad.yaml"], in: dir)
        #expect(unsafe.status == 1)
        #expect(unsafe.out.contains("-      maxRetries: 7         # retries after the first attempt\n+      maxRetries: 3         # retries after the first attempt\n"))
        #expect(try Self.read("Policies/bad.yaml", in: dir) == Self.broken)

        let clean = try CLITests.policyc(["lint", "--diff", "Policies/clean.yaml"], in: dir)
        #expect(clean.status == 0 && clean.out.isEmpty, "\(clean)")
        #expect(clean.err == "nothing to fix; 0 errors, 0 warnings in 1 file\n")

        let usage = try CLITests.policyc(["lint", "--diff", "--format", "json"], in: dir)
        #expect(usage.status == 2 && usage.err.hasPrefix("error: --diff prints a diff"))
    }

    @Test func standardInputPrintsTheFixedText() throws {
        let run = try CLITests.policyc(["lint", "--fix", "-"], stdin: Self.broken)
        #expect(run.status == 1)
        #expect(run.out == Self.safeFixed)
        #expect(run.err.contains("<stdin>:11:12: fixed: write 8s [type-mismatch]\n"))
        #expect(run.err.contains("<stdin>:9:19: error: interactive profile 'interactive' allows 7 retries"))

        let dir = try CLITests.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        try CLITests.write(Self.canonical, to: "a.yaml", in: dir)
        let mixed = try CLITests.policyc(["lint", "--fix", "-", "a.yaml"], in: dir, stdin: Self.broken)
        #expect(mixed.status == 2)
        #expect(mixed.err.hasPrefix("error: with --fix, standard input ('-') must be the only PATH"))
    }

    /// More input than a pipe holds, to a run that refuses its arguments before reading any: the
    /// harness's write meets a closed pipe every time (the race that once took the test run down).
    @Test func aRunThatReadsNoInputLeavesTheHarnessStanding() throws {
        let dir = try CLITests.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        try CLITests.write(Self.canonical, to: "a.yaml", in: dir)
        let big = String(repeating: Self.broken, count: 1 + (1 << 20) / Self.broken.utf8.count)
        let mixed = try CLITests.policyc(["lint", "--fix", "-", "a.yaml"], in: dir, stdin: big)
        #expect(mixed.status == 2)
        #expect(mixed.err.hasPrefix("error: with --fix, standard input ('-') must be the only PATH"))
    }

    @Test func nothingIsWrittenWhenAnInputCannotBeRead() throws {
        let dir = try CLITests.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        try CLITests.write(Self.broken, to: "bad.yaml", in: dir)
        let run = try CLITests.policyc(["lint", "--fix", "bad.yaml", "missing.yaml"], in: dir)
        #expect(run.status == 2)
        #expect(run.err.contains("error: cannot read 'missing.yaml'"))
        #expect(run.err.contains("nothing written; would fix 2 findings in 1 file"))
        #expect(try Self.read("bad.yaml", in: dir) == Self.broken)
    }

    @Test func aLinkedPolicyIsFixedWhereItIs() throws {
        let dir = try CLITests.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        try CLITests.write(Self.broken, to: "shared/real.yaml", in: dir)
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("Policies"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: dir.appendingPathComponent("Policies/link.yaml").path,
                                                   withDestinationPath: "../shared/real.yaml")
        let run = try CLITests.policyc(["lint", "--fix", "Policies/link.yaml"], in: dir)
        #expect(run.status == 1, "\(run)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: dir.appendingPathComponent("Policies/link.yaml").path) == "../shared/real.yaml")
        #expect(try Self.read("shared/real.yaml", in: dir) == Self.safeFixed)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("shared").path) == ["real.yaml"])
    }

    @Test func machineFormatsCarryFixes() throws {
        let dir = try CLITests.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        try CLITests.write(Self.broken, to: "bad.yaml", in: dir)
        let json = try CLITests.policyc(["lint", "--format", "json", "bad.yaml"], in: dir)
        let diagnostics = try #require(try CLITests.json(json.out)["diagnostics"] as? [[String: Any]])
        let fixes = diagnostics.compactMap { $0["fix"] as? [String: Any] }
        #expect(fixes.compactMap { $0["safety"] as? String } == ["unsafe", "safe", "unsafe", "safe"])
        // After --fix, the json report is of what remains.
        let fixed = try CLITests.policyc(["lint", "--fix", "--format", "json", "bad.yaml"], in: dir)
        #expect(fixed.status == 1)
        let remaining = try #require(try CLITests.json(fixed.out)["diagnostics"] as? [[String: Any]])
        #expect(remaining.compactMap { $0["rule"] as? String } == ["interactive-retries-max", "type-mismatch"])
    }
}
