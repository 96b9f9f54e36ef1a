import Foundation
import Testing

@testable import PolicyKit
@testable import TestSupport

/// `extends` as users meet it: lint's positions and exit statuses over a family of policies
/// (Tests/Fixtures/Extends), `show` in each format, and the generated header.
@Suite struct ExtendsCLITests {
    static let fixtures = CLITests.packageRoot.appendingPathComponent("Tests/Fixtures")

    static func policyc(_ arguments: [String]) throws -> CLITests.Outcome {
        try CLITests.policyc(arguments, in: fixtures)
    }

    @Test func childrenThatOverrideAndTightenAreClean() throws {
        let run = try Self.policyc(["lint", "Extends/org/base.yaml", "Extends/org/tight.yaml", "Extends/org/tv.yaml", "Extends/org/ios.yaml"])
        #expect(run.status == 0, "\(run)")
        #expect(run.out.isEmpty)
    }

    @Test func aLimitBrokenThroughInheritanceIsReportedAtTheParentsLine() throws {
        let run = try Self.policyc(["lint", "Extends/org/android.yaml"])
        #expect(run.status == 1)
        #expect(run.out.hasPrefix("""
            Extends/org/wide-base.yaml:4:10: error: prefetch.ahead is 5, 6 tickets in one request; at most 2 episodes ride along (three tickets) (inherited by Extends/org/android.yaml) [prefetch-ahead-max]
              ahead: 5
                     ^
            """), "\(run)")
        let json = try Self.policyc(["lint", "--format", "json", "Extends/org/android.yaml"])
        let d = try #require(json.out.range(of: "\"file\": \"Extends/org/wide-base.yaml\""))
        #expect(!json.out[d.upperBound...].isEmpty && json.out.contains("\"line\": 4"))
        let github = try Self.policyc(["lint", "--format", "github", "Extends/org/android.yaml"])
        #expect(github.out.contains("::error file=Tests/Fixtures/Extends/org/wide-base.yaml,line=4,col=10"))
        #expect(github.out.contains("inherited by Extends/org/android.yaml"))
    }

    @Test func aChildThatBreaksALimitWithItsParentsValueIsReportedAtItsOwnLine() throws {
        let run = try Self.policyc(["lint", "Extends/org/loose.yaml"])
        #expect(run.status == 1)
        #expect(run.out.hasPrefix("Extends/org/loose.yaml:6:13: error: profile 'background' has a base of 1s, larger than its cap of 500ms [backoff-order]"), "\(run)")
    }

    @Test func brokenParentsAreFindingsAtTheirEntries() throws {
        let run = try Self.policyc(["lint", "Extends/broken"])
        #expect(run.status == 1)
        let headlines = run.out.split(separator: "\n").filter { $0.hasPrefix("Extends/") }.map { String($0.prefix { $0 != " " }) }
        #expect(headlines == ["Extends/broken/bad-base.yaml:3:1:", "Extends/broken/cycle-a.yaml:2:10:", "Extends/broken/cycle-b.yaml:3:5:",
                              "Extends/broken/on-bad.yaml:4:5:", "Extends/broken/orphan.yaml:3:10:"], "\(run)")
        #expect(run.out.contains("extends forms a cycle: Extends/broken/cycle-a.yaml → Extends/broken/cycle-b.yaml → Extends/broken/cycle-a.yaml [extends-parent]"))
        #expect(run.out.contains("cannot read 'Extends/org/missing.yaml'"))
    }

    @Test func showPrintsTheEffectivePolicy() throws {
        let yaml = try Self.policyc(["show", "Extends/org/tv.yaml"])
        #expect(yaml.status == 0, "\(yaml)")
        #expect(yaml.out.hasPrefix("version: 1\npolicy: tv\ndescription: The organisation's shared retry values.\nretry:\n  profiles:\n    interactive:\n      kind: interactive\n      maxRetries: 2\n"))
        #expect(yaml.out.contains("prefetch:\n  ahead: 1\n  onlyUnlocked: true\n"))
        #expect(!yaml.out.contains("extends") && !yaml.out.contains("abstract"))
        // What show prints is a policy that lints as the file does.
        let relinted = try CLITests.policyc(["lint", "-"], in: Self.fixtures, stdin: yaml.out)
        #expect(relinted.status == 0, "\(relinted)")

        let origin = try Self.policyc(["show", "--origin", "Extends/org/ios.yaml"])
        #expect(origin.out.contains("ratio: 5%") && origin.out.contains("# Extends/org/tight.yaml:5\n"), "\(origin)")
        #expect(origin.out.contains("retryOn: [network, 429, 503]") && origin.out.contains("# Extends/org/ios.yaml:4\n"))
    }

    @Test func showJSONWithOriginsGivesEachValueItsFileAndLine() throws {
        let run = try Self.policyc(["show", "--format", "json", "--origin", "Extends/org/tv.yaml"])
        #expect(run.status == 0, "\(run)")
        guard case .object(let root) = try JSONParser.parse(run.out).get(),
              case .object(let prefetch) = root["prefetch"], case .object(let retry) = root["retry"] else {
            Issue.record("not the policy's shape: \(run.out)")
            return
        }
        #expect(prefetch["ahead"] == .object(["value": .int(1), "file": .string("Extends/org/tv.yaml"), "line": .int(10)]))
        #expect(prefetch["onlyUnlocked"] == .object(["value": .bool(true), "file": .string("Extends/org/base.yaml"), "line": .int(35)]))
        #expect(root["policy"] == .object(["value": .string("tv"), "file": .string("Extends/org/tv.yaml"), "line": .int(3)]))
        guard case .object(let list)? = retry["retryOn"] else {
            Issue.record("retryOn is not located")
            return
        }
        #expect(list["value"] == .array([.string("network"), .int(429), .int(500), .int(502), .int(503)]))
        let plain = try Self.policyc(["show", "--format", "json", "Extends/org/tv.yaml"])
        guard case .object(let values) = try JSONParser.parse(plain.out).get(), case .object(let ahead) = values["prefetch"] else {
            Issue.record("not the policy's shape: \(plain.out)")
            return
        }
        #expect(ahead["ahead"] == .int(1))
    }

    @Test func showRefusesAPolicyWhoseParentsCannotBeRead() throws {
        let run = try Self.policyc(["show", "Extends/broken/orphan.yaml"])
        #expect(run.status == 1)
        #expect(run.out.isEmpty)
        #expect(run.err.contains("Extends/broken/orphan.yaml:3:10: error: cannot read 'Extends/org/missing.yaml'"), "\(run)")
    }

    @Test func generateWritesTheEffectiveValuesAndNamesTheChain() throws {
        let out = try CLITests.scratch()
        defer { try? FileManager.default.removeItem(at: out) }
        let run = try Self.policyc(["generate", "--out", out.path, "Extends/org/base.yaml", "Extends/org/tight.yaml", "Extends/org/ios.yaml"])
        #expect(run.status == 0, "\(run)")
        let swift = try String(contentsOf: out.appendingPathComponent("Swift/IosPolicy.swift"), encoding: .utf8)
        #expect(swift.hasPrefix("// Generated by policyc from Extends/org/ios.yaml. DO NOT EDIT.\n// Extends Extends/org/base.yaml, Extends/org/tight.yaml: the values below are the effective ones.\n"))
        // Bases are not generated.
        let made = try FileManager.default.contentsOfDirectory(atPath: out.appendingPathComponent("Swift").path)
        #expect(made == ["IosPolicy.swift"])
    }

    @Test func diffOfABaseListsEachChildItChanges() throws {
        let repo = try CLITests.scratch()
        defer { try? FileManager.default.removeItem(at: repo) }
        let org = Self.fixtures.appendingPathComponent("Extends/org")
        for name in ["base.yaml", "tight.yaml", "tv.yaml", "ios.yaml"] {
            try CLITests.write(String(contentsOf: org.appendingPathComponent(name), encoding: .utf8), to: "Policies/" + name, in: repo)
        }
        let environment = ["GIT_CONFIG_NOSYSTEM": "1", "HOME": repo.path, "NO_COLOR": "1"]
        func git(_ args: String...) throws {
            let r = try Processes.run("/usr/bin/env", ["git", "-c", "user.email=t@example.com", "-c", "user.name=t"] + args,
                                      in: repo, environment: environment)
            try #require(r.status == 0, "git \(args): \(r.stderr)")
        }
        try git("init", "-q")
        try git("add", "-A")
        try git("commit", "-qm", "base")
        let base = try String(contentsOf: repo.appendingPathComponent("Policies/base.yaml"), encoding: .utf8)
        try CLITests.write(base.replacingOccurrences(of: "ratio: 10%", with: "ratio: 8%"), to: "Policies/base.yaml", in: repo)
        let run = try CLITests.policyc(["diff", "--base", "HEAD"], in: repo, environment: environment)
        #expect(run.status == 0, "\(run)")
        // The base's change, named by its children; tv takes it, ios keeps its own tighter ratio.
        #expect(run.out.contains("base of ios, tv (Policies/base.yaml): changed\n  retry.budget.ratio: 10% → 8%"), "\(run)")
        #expect(run.out.contains("tv (Policies/tv.yaml): changed\n  retry.budget.ratio: 10% → 8%"))
        #expect(!run.out.contains("ios (Policies/ios.yaml): changed"))
    }
}
