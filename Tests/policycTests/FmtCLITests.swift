import Foundation
import Testing

@testable import PolicyKit
@testable import TestSupport
/// `policyc fmt`, `--check` and `--diff` through the binary: what is written, what is said, and
/// the exit status.
@Suite struct FmtCLITests {
    /// The canonical policy with its top-level keys swapped, a quoted name, odd spaces and a
    /// comment out of line.
    static var messy: String {
        CLITests.canonical
            .replacingOccurrences(of: "version: 1\npolicy: playback\n", with: "policy: \"playback\"\nversion:   1\n")
            .replacingOccurrences(of: "kind: interactive     # a viewer", with: "kind: interactive # a viewer")
            .replacingOccurrences(of: "  budget:\n    ratio: 10%\n", with: "  budget:\n    ratio:    10%   \n")
    }

    static func read(_ name: String, in dir: URL) throws -> String {
        try String(contentsOf: dir.appendingPathComponent(name), encoding: .utf8)
    }

    @Test func fmtWritesTheCanonicalLayoutAndLeavesFormattedFilesAlone() throws {
        let dir = try CLITests.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        try CLITests.write(Self.messy, to: "Policies/messy.yaml", in: dir)
        try CLITests.write(CLITests.canonical.replacingOccurrences(of: "policy: playback", with: "policy: clean"),
                           to: "Policies/clean.yaml", in: dir)
        let cleanPath = dir.appendingPathComponent("Policies/clean.yaml").path
        let before = try FileManager.default.attributesOfItem(atPath: cleanPath)[.modificationDate] as? Date
        Thread.sleep(forTimeInterval: 0.01)

        let run = try CLITests.policyc(["fmt"], in: dir)
        #expect(run.status == 0, "\(run)")
        #expect(run.out.isEmpty && run.err == "formatted Policies/messy.yaml\n1 file formatted of 2 files\n", "\(run)")
        #expect(try Self.read("Policies/messy.yaml", in: dir) == CLITests.canonical)
        #expect(try FileManager.default.attributesOfItem(atPath: cleanPath)[.modificationDate] as? Date == before)

        let again = try CLITests.policyc(["fmt", "--check"], in: dir)
        #expect(again.status == 0 && again.out.isEmpty, "\(again)")
    }

    /// The meaning stays: what `show` prints (yaml and json) is the same before and after, the
    /// quotes `fmt` drops included.
    @Test func showPrintsTheSameBeforeAndAfter() throws {
        let dir = try CLITests.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let quoted = Self.messy.replacingOccurrences(of: "viewerRef: per-viewer-device", with: "viewerRef: \"per-viewer-device\"")
        try CLITests.write(quoted, to: "Policies/messy.yaml", in: dir)
        let yaml = try CLITests.policyc(["show"], in: dir)
        let json = try CLITests.policyc(["show", "--format", "json"], in: dir)
        #expect(yaml.status == 0 && json.status == 0, "\(yaml)")
        #expect(try CLITests.policyc(["fmt"], in: dir).status == 0)
        #expect(try Self.read("Policies/messy.yaml", in: dir) != quoted)
        #expect(try CLITests.policyc(["show"], in: dir).out == yaml.out)
        #expect(try CLITests.policyc(["show", "--format", "json"], in: dir).out == json.out)
    }

    @Test func checkNamesTheFilesThatWouldChangeAndWritesNothing() throws {
        let dir = try CLITests.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        try CLITests.write(Self.messy, to: "a.yaml", in: dir)
        try CLITests.write(CLITests.canonical, to: "b.yaml", in: dir)
        let run = try CLITests.policyc(["fmt", "--check", "a.yaml", "b.yaml"], in: dir)
        #expect(run.status == 1, "\(run)")
        #expect(run.out == "a.yaml\n", "\(run)")
        #expect(run.err.contains("1 file would change of 2 files"), "\(run)")
        #expect(try Self.read("a.yaml", in: dir) == Self.messy)
    }

    @Test func diffPrintsAUnifiedDiffAndWritesNothing() throws {
        let dir = try CLITests.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        try CLITests.write("policy: p\nversion:   1\n", to: "a.yaml", in: dir)
        let run = try CLITests.policyc(["fmt", "--diff", "a.yaml"], in: dir)
        #expect(run.status == 1, "\(run)")
        #expect(run.out == "--- a/a.yaml\n+++ b/a.yaml\n@@ -1,2 +1,2 @@\n+version: 1\n policy: p\n-version:   1\n", "\(run)")
        #expect(try Self.read("a.yaml", in: dir) == "policy: p\nversion:   1\n")
    }

    @Test func aFileWithASyntaxErrorIsRefusedWithItsPosition() throws {
        let dir = try CLITests.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        try CLITests.write("version: 1\npolicy: [a, b\n", to: "bad.yaml", in: dir)
        try CLITests.write(Self.messy, to: "messy.yaml", in: dir)
        let run = try CLITests.policyc(["fmt", "bad.yaml", "messy.yaml"], in: dir)
        #expect(run.status == 1, "\(run)")
        #expect(run.err.hasPrefix("bad.yaml:3:1: error: ") && run.err.contains("[yaml-syntax]; nothing written"), "\(run)")
        #expect(try Self.read("bad.yaml", in: dir) == "version: 1\npolicy: [a, b\n")
        // The others are still formatted.
        #expect(try Self.read("messy.yaml", in: dir) == CLITests.canonical)
    }

    /// As the pre-commit hook runs it: every changed YAML file is passed, only the project's
    /// policies (and its project file) are formatted; a CI workflow is left as it is.
    @Test func projectOnlyFormatsThePoliciesAmongThePaths() throws {
        let dir = try CLITests.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let workflow = "on:   push\njobs: {}\n"
        try CLITests.write(Self.messy, to: "Policies/playback.yaml", in: dir)
        try CLITests.write(workflow, to: ".github/workflows/ci.yml", in: dir)
        try CLITests.write("out:   gen\nversion: 1\n", to: "policyc.yaml", in: dir)
        let run = try CLITests.policyc(["fmt", "--project-only", "Policies/playback.yaml", ".github/workflows/ci.yml", "policyc.yaml"], in: dir)
        #expect(run.status == 0, "\(run)")
        #expect(try Self.read("Policies/playback.yaml", in: dir) == CLITests.canonical)
        #expect(try Self.read("policyc.yaml", in: dir) == "version: 1\nout: gen\n")
        #expect(try Self.read(".github/workflows/ci.yml", in: dir) == workflow)
    }

    @Test func unreadableInputExitsTwoAndStandardInputGoesToStdout() throws {
        let dir = try CLITests.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let missing = try CLITests.policyc(["fmt", "nope.yaml"], in: dir)
        #expect(missing.status == 2 && missing.err.contains("cannot read 'nope.yaml'"), "\(missing)")
        let piped = try CLITests.policyc(["fmt", "-"], in: dir, stdin: "policy: p\nversion: 1\n")
        #expect(piped.status == 0 && piped.out == "version: 1\npolicy: p\n", "\(piped)")
        let checked = try CLITests.policyc(["fmt", "--check", "-"], in: dir, stdin: "policy: p\nversion: 1\n")
        #expect(checked.status == 1 && checked.out == "<stdin>\n", "\(checked)")
    }
}
