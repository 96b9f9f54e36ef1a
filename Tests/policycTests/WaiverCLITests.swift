import Foundation
import Testing

import PolicyKit
import TestSupport

/// Waivers and the project's limits from the command line: today, exit statuses, messages.
@Suite struct WaiverCLITests {
    static let waived = CLITests.canonical.replacingOccurrences(of: "maxRetries: 3 ", with: "maxRetries: 4 ")
        + "\nwaivers:\n  - rule: interactive-retries-max\n    reason: Payment confirmation needs a fourth try\n"
        + "    owner: \"@payments-platform\"\n    expires: 2027-03-31\n"

    @Test func todayDecidesWhetherAWaiverHolds() throws {
        let dir = try CLITests.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        try CLITests.write(Self.waived, to: "Policies/playback.yaml", in: dir)
        let active = try CLITests.policyc(["lint", "--today", "2027-01-15"], in: dir)
        #expect(active.status == 0, "\(active)")
        #expect(active.out.contains(": note: ") && active.out.contains("waived until 2027-03-31 by @payments-platform"))
        let expired = try CLITests.policyc(["lint"], in: dir, environment: ["POLICYC_TODAY": "2027-04-01"])
        #expect(expired.status == 1 && expired.out.contains("[waiver-expired]"), "\(expired)")
        // --today wins over the environment.
        let given = try CLITests.policyc(["lint", "--today", "2027-01-15"], in: dir, environment: ["POLICYC_TODAY": "2027-04-01"])
        #expect(given.status == 0)
        let bad = try CLITests.policyc(["lint", "--today", "2027-02-30"], in: dir)
        #expect(bad.status == 2 && bad.err.contains("'--today' is '2027-02-30', not a date"))
        let badEnv = try CLITests.policyc(["lint"], in: dir, environment: ["POLICYC_TODAY": "soon"])
        #expect(badEnv.status == 2 && badEnv.err.contains("POLICYC_TODAY is 'soon'"))
    }

    @Test func projectLimitsTightenAndNeverLoosen() throws {
        let dir = try CLITests.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        try CLITests.write(CLITests.canonical, to: "Policies/playback.yaml", in: dir)
        try CLITests.write("version: 1\nguide: 2026-11\nlimits:\n  interactiveMaxRetries: 2\n", to: "policyc.yaml", in: dir)
        let tight = try CLITests.policyc(["lint"], in: dir)
        #expect(tight.status == 1)
        #expect(tight.out.contains("at most 2 are allowed (policyc.yaml:4: tightens the guide's 3) [interactive-retries-max]"), "\(tight)")
        #expect(tight.out.contains("  note: policyc.yaml:4:26: tightens the guide's 3\n"))
        let rules = try CLITests.policyc(["rules"], in: dir)
        #expect(rules.out.contains("interactiveMaxRetries   2    policyc.yaml:4 (tightens the guide's 3) [interactive-retries-max]"), "\(rules.out.suffix(900))")

        try CLITests.write("version: 1\nlimits:\n  interactiveMaxRetries: 5\n", to: "policyc.yaml", in: dir)
        let loose = try CLITests.policyc(["lint"], in: dir)
        #expect(loose.status == 2 && loose.err.contains("policyc.yaml:3:26: error: limits.interactiveMaxRetries is 5, looser than"), "\(loose)")
        try CLITests.write("version: 1\nguide: 2030-01\n", to: "policyc.yaml", in: dir)
        let unknown = try CLITests.policyc(["lint"], in: dir)
        #expect(unknown.status == 2 && unknown.err.contains("it knows 2026-11"), "\(unknown)")
        // Limits without an edition: lint says which edition they tighten.
        try CLITests.write("version: 1\nlimits:\n  prefetchAheadMax: 1\n", to: "policyc.yaml", in: dir)
        let noted = try CLITests.policyc(["lint", "--format", "json"], in: dir)
        #expect(noted.err.hasPrefix("note: policyc.yaml names no guide edition; its limits tighten the newest, 2026-11"), "\(noted)")
    }
}
