import Foundation
import Testing

@testable import PolicyKit
@testable import TestSupport
/// `policyc verify` as a user runs it: recordings in, findings and exit status out.
@Suite struct VerifyCLITests {
    typealias CLI = CLITests

    static func fixture(_ name: String) throws -> String {
        try String(contentsOf: CLI.packageRoot.appendingPathComponent("Tests/Fixtures/verify/" + name), encoding: .utf8)
    }

    /// A folder with the canonical policy and the three fixtures.
    static func workspace() throws -> URL {
        let dir = try CLI.scratch()
        try CLI.write(CLI.canonical, to: "Policies/playback.yaml", in: dir)
        for name in ["chrome-clean.har", "charles-bad.har", "mitmproxy-network.har"] {
            try CLI.write(try fixture(name), to: name, in: dir)
        }
        return dir
    }

    @Test func exitStatusSaysCleanFindingsOrUnreadable() throws {
        let dir = try Self.workspace()
        defer { try? FileManager.default.removeItem(at: dir) }
        let clean = try CLI.policyc(["verify", "chrome-clean.har"], in: dir)
        #expect(clean.status == 0, "\(clean)")
        #expect(clean.out.contains("judged by Policies/playback.yaml") && clean.out.contains("0 errors, 0 warnings in 1 recording"))
        let bad = try CLI.policyc(["verify", "charles-bad.har", "--format", "json"], in: dir)
        #expect(bad.status == 1, "\(bad)")
        #expect(bad.out.contains("\"rule\" : \"traffic-retries-max\"") || bad.out.contains("\"rule\": \"traffic-retries-max\""))
        #expect(bad.err.contains("errors"))
        try CLI.write("{\"log\": {\"entries\": [", to: "cut.har", in: dir)
        let cut = try CLI.policyc(["verify", "chrome-clean.har", "cut.har"], in: dir)
        #expect(cut.status == 2, "\(cut)")
        #expect(cut.out.contains("cut.har:1:") && cut.out.contains("truncated"))
    }

    @Test func gzipRecordingsAndTheSizeLimit() throws {
        let dir = try Self.workspace()
        defer { try? FileManager.default.removeItem(at: dir) }
        _ = try Processes.run("/usr/bin/env", ["gzip", "-k", "charles-bad.har"], in: dir)
        let zipped = try CLI.policyc(["verify", "charles-bad.har.gz", "--format", "github"], in: dir)
        #expect(zipped.status == 1 && zipped.out.contains("::error file=charles-bad.har.gz,line="), "\(zipped)")
        let limited = try CLI.policyc(["verify", "charles-bad.har", "--max-size", "1K"], in: dir)
        #expect(limited.status == 2 && limited.out.contains("[input-limit]"), "\(limited)")
        let allowed = try CLI.policyc(["verify", "charles-bad.har", "--max-size", "1M"], in: dir)
        #expect(allowed.status == 1, "\(allowed)")
    }

    @Test func policyProfileAndEndpointOptions() throws {
        let dir = try Self.workspace()
        defer { try? FileManager.default.removeItem(at: dir) }
        try CLI.write(CLI.canonical.replacingOccurrences(of: "policy: playback", with: "policy: second"), to: "Policies/second.yaml", in: dir)
        let two = try CLI.policyc(["verify", "chrome-clean.har"], in: dir)
        #expect(two.status == 2 && two.err.contains("choose one with --policy"), "\(two)")
        let chosen = try CLI.policyc(["verify", "chrome-clean.har", "--policy", "Policies/second.yaml"], in: dir)
        #expect(chosen.status == 0, "\(chosen)")
        let unknown = try CLI.policyc(["verify", "chrome-clean.har", "--policy", "Policies/second.yaml", "--profile", "nope"], in: dir)
        #expect(unknown.status == 2 && unknown.err.contains("no profile 'nope'"), "\(unknown)")
        try CLI.write("version: 1\nverify: {endpoint: \"/v2/**\"}\n", to: "policyc.yaml", in: dir)
        let elsewhere = try CLI.policyc(["verify", "charles-bad.har", "--policy", "Policies/second.yaml"], in: dir)
        #expect(elsewhere.status == 0 && elsewhere.out.contains("(0 clients)"), "\(elsewhere)")
    }

    @Test func rulesExplainsTheTrafficRules() throws {
        let rules = try CLI.policyc(["rules"])
        #expect(rules.status == 0)
        for id in ["traffic-retries-max", "traffic-viewer-ref", "traffic-budget"] {
            #expect(rules.out.contains("\(id) (error)"), "\(id) missing from policyc rules")
        }
        #expect(rules.out.contains("entries[1] +0.400s"))
    }
}
