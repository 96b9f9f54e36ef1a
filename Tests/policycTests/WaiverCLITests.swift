import Foundation
import Testing

@testable import PolicyKit
@testable import TestSupport

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

        let explained = try CLITests.policyc(["explain"], in: dir)
        #expect(explained.out.contains("limits in effect (guide 2026-11):\n  interactiveMaxRetries   2    policyc.yaml:4 (tightens the guide's 3)"),
                "\(explained.out.suffix(700))")
        // Without a project file's choice, explain says nothing of limits (as before).
        let plain = try CLITests.scratch()
        defer { try? FileManager.default.removeItem(at: plain) }
        try CLITests.write(Self.waived, to: "Policies/playback.yaml", in: plain)
        let unchosen = try CLITests.policyc(["explain", "--today", "2027-01-15"], in: plain)
        #expect(unchosen.status == 0 && !unchosen.out.contains("limits in effect"), "\(unchosen)")
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

    @Test func generateAcceptsWaivedErrorsAndRecordsEachWaiver() throws {
        let dir = try CLITests.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        try CLITests.write(Self.waived, to: "Policies/playback.yaml", in: dir)
        let made = try CLITests.policyc(["generate", "--today", "2027-01-15", "--targets", "swift,kotlin,typescript,schema"], in: dir)
        #expect(made.status == 0, "\(made)")
        let record = "// - interactive-retries-max, owner @payments-platform, expires 2027-03-31: Payment confirmation needs a fourth try\n"
        for path in ["Swift/PlaybackPolicy.swift", "Kotlin/PlaybackPolicy.kt", "TypeScript/PlaybackPolicy.ts"] {
            let text = try String(contentsOf: dir.appendingPathComponent("Generated/" + path), encoding: .utf8)
            #expect(text.hasPrefix("// Generated by policyc from Policies/playback.yaml. DO NOT EDIT.\n"
                + "// Checked against the limits of the guide's edition 2026-11.\n// Waivers: "), "\(path)")
            #expect(text.contains(record), "\(path)")
        }
        // The project's own limits are recorded beside the edition.
        try CLITests.write("version: 1\nguide: 2026-11\nlimits:\n  timeoutMin: 6s\n  backgroundMaxRetries: 5\n", to: "policyc.yaml", in: dir)
        let tightened = try CLITests.policyc(["generate", "--today", "2027-01-15", "--out", "Tight"], in: dir)
        #expect(tightened.status == 0, "\(tightened)")
        let swift = try String(contentsOf: dir.appendingPathComponent("Tight/Swift/PlaybackPolicy.swift"), encoding: .utf8)
        #expect(swift.split(separator: "\n")[1] == "// Checked against the limits of the guide's edition 2026-11, tightened by the project: backgroundMaxRetries 5, timeoutMin 6s.")
        try FileManager.default.removeItem(at: dir.appendingPathComponent("policyc.yaml"))
        // Expired, the finding is an error again and nothing is written.
        let refused = try CLITests.policyc(["generate", "--today", "2027-04-01", "--out", "Other"], in: dir)
        #expect(refused.status == 1 && !FileManager.default.fileExists(atPath: dir.appendingPathComponent("Other").path))
    }
}

/// The baseline: old findings are notes, a new one counts, stale entries are reported and fixed.
@Suite struct BaselineCLITests {
    @Test func aBaselineHoldsOldFindingsAndCatchesNewOnes() throws {
        let dir = try CLITests.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let old = CLITests.canonical.replacingOccurrences(of: "maxRetries: 3 ", with: "maxRetries: 4 ")
            .replacingOccurrences(of: "ratio: 10%", with: "ratio: 20%")
        try CLITests.write(old, to: "Policies/playback.yaml", in: dir)
        let written = try CLITests.policyc(["lint", "--write-baseline", "baseline.json"], in: dir)
        #expect(written.status == 0 && written.err == "recorded 2 findings in baseline.json\n", "\(written)")
        let recorded = try String(contentsOf: dir.appendingPathComponent("baseline.json"), encoding: .utf8)
        #expect(recorded == """
            {
              "version": 1,
              "entries": [
                {"at":"retry.profiles.interactive.maxRetries","policy":"playback","rule":"interactive-retries-max","value":"4"},
                {"at":"retry.budget.ratio","policy":"playback","rule":"retry-budget-max","value":"20%"}
              ]
            }

            """)
        // Comments move every line: the entries still hold.
        try CLITests.write("# moved\n# again\n" + old, to: "Policies/playback.yaml", in: dir)
        let held = try CLITests.policyc(["lint", "--baseline", "baseline.json", "--format", "json"], in: dir)
        #expect(held.status == 0, "\(held)")
        #expect(held.out.contains("\"baselined\" : true") || held.out.contains("\"baselined\": true"), "\(held.out)")
        // A new finding counts; the project file names the baseline too.
        try CLITests.write("version: 1\nbaseline: baseline.json\n", to: "policyc.yaml", in: dir)
        try CLITests.write(old.replacingOccurrences(of: "ahead: 2", with: "ahead: 5"), to: "Policies/playback.yaml", in: dir)
        let new = try CLITests.policyc(["lint"], in: dir)
        #expect(new.status == 1 && new.out.contains("error: prefetch.ahead is 5") && !new.out.contains("error: budget.ratio"), "\(new)")
        // Fixed in the policy: the entry is stale (a warning), and lint --fix removes it.
        try CLITests.write(old.replacingOccurrences(of: "ratio: 20%", with: "ratio: 10%"), to: "Policies/playback.yaml", in: dir)
        let stale = try CLITests.policyc(["lint"], in: dir)
        #expect(stale.status == 0 && stale.out.contains("[baseline-stale]") && stale.out.contains("  note: baseline.json:5:5: the stale entry"), "\(stale)")
        let fixed = try CLITests.policyc(["lint", "--fix"], in: dir)
        #expect(fixed.err.contains("removed 1 stale entry from baseline.json"), "\(fixed)")
        let after = try String(contentsOf: dir.appendingPathComponent("baseline.json"), encoding: .utf8)
        #expect(!after.contains("retry-budget-max") && after.contains("interactive-retries-max"))
        let bad = try CLITests.policyc(["lint", "--baseline", "policyc.yaml"], in: dir)
        #expect(bad.status == 2 && bad.err.contains("is not a baseline"), "\(bad)")
    }
}
