import Foundation
import Testing

@testable import PolicyKit
@testable import TestSupport

/// `policyc waivers` as a platform team and a scheduled job run it.
@Suite struct WaiverInventoryCLITests {
    static func project() throws -> URL {
        let dir = try CLITests.scratch()
        let ios = CLITests.canonical.replacingOccurrences(of: "policy: playback", with: "policy: ios")
            .replacingOccurrences(of: "maxRetries: 3 ", with: "maxRetries: 4 ") + """

            waivers:
              - rule: interactive-retries-max
                allow: 4
                reason: "Payment confirmation, until PAY-311"
                owner: "@payments"
                expires: 2027-03-31
              - rule: retry-budget-max
                reason: old
                owner: "@core"
                expires: 2027-01-10

            """
        try CLITests.write(ios, to: "defs/ios.yaml", in: dir)
        try CLITests.write(CLITests.canonical, to: "defs/playback.yaml", in: dir)
        // The project file names where the policies are.
        try CLITests.write("version: 1\npolicies: [defs]\n", to: "policyc.yaml", in: dir)
        return dir
    }

    @Test func jsonSoonestFirstAndExitOneOnceExpired() throws {
        let dir = try Self.project()
        defer { try? FileManager.default.removeItem(at: dir) }
        let run = try CLITests.policyc(["waivers", "--format", "json", "--today", "2027-01-15"], in: dir)
        #expect(run.status == 1, "\(run)")
        let waivers = try #require(try CLITests.json(run.out)["waivers"] as? [[String: Any]])
        #expect(waivers.map { $0["rule"] as? String } == ["retry-budget-max", "interactive-retries-max"])
        #expect(waivers.map { $0["daysLeft"] as? Int } == [-5, 75])
        #expect(waivers[1]["file"] as? String == "defs/ios.yaml" && waivers[1]["policy"] as? String == "ios")
        #expect(waivers[1]["allow"] as? String == "4" && waivers[1]["at"] is NSNull && waivers[1]["owner"] as? String == "@payments")
        #expect(run.err.contains("2 waivers in 2 files: 1 expired (today is 2027-01-15)"), "\(run)")
        // Before the first expiry: exit 0.
        let earlier = try CLITests.policyc(["waivers", "--today", "2027-01-01"], in: dir)
        #expect(earlier.status == 0 && earlier.out.hasPrefix("defs/ios.yaml:"), "\(earlier)")
        // POLICYC_TODAY, as lint reads it.
        let env = try CLITests.policyc(["waivers"], in: dir, environment: ["POLICYC_TODAY": "2027-01-11"])
        #expect(env.status == 1 && env.out.contains("expired on 2027-01-10, 1 day ago"), "\(env)")
    }

    @Test func expiringWithinDays() throws {
        let dir = try Self.project()
        defer { try? FileManager.default.removeItem(at: dir) }
        let soon = try CLITests.policyc(["waivers", "--expiring", "30", "--today", "2027-01-01", "--format", "csv"], in: dir)
        #expect(soon.status == 0, "\(soon)")
        #expect(soon.out.components(separatedBy: "\r\n").count == 3 && soon.out.contains(",retry-budget-max,") && !soon.out.contains("interactive"))
        let none = try CLITests.policyc(["waivers", "--expiring", "0", "--today", "2026-06-01", "--format", "markdown"], in: dir)
        #expect(none.status == 0 && none.out == "No waivers.\n" && none.err.contains("0 waivers expiring within 0 days"), "\(none)")
        // A PATH instead of the project's policies.
        let one = try CLITests.policyc(["waivers", "defs/playback.yaml", "--today", "2027-01-15", "--format", "json"], in: dir)
        let listed = try CLITests.json(one.out)["waivers"] as? [Any]
        #expect(one.status == 0 && listed?.isEmpty == true, "\(one)")
    }

    @Test(arguments: [
        (["waivers", "--expiring", "-3"], "error: '--expiring' is '-3'; write a number of days, 0 or more, such as 30"),
        (["waivers", "--expiring", "soon"], "error: '--expiring' is 'soon'; write a number of days, 0 or more, such as 30"),
        (["waivers", "--format", "xml"], "error: unknown format 'xml'"),
        (["waivers", "--today", "2027-02-30"], "error: '--today' is '2027-02-30', not a date"),
    ])
    func usageErrors(arguments: [String], message: String) throws {
        let dir = try Self.project()
        defer { try? FileManager.default.removeItem(at: dir) }
        let run = try CLITests.policyc(arguments, in: dir)
        #expect(run.status == 2 && run.out.isEmpty && run.err.hasPrefix(message), "\(run)")
    }

    /// A file that is not YAML, or cannot be read: the list goes out without it, and the run fails.
    @Test func unreadableInputIsExitTwo() throws {
        let dir = try Self.project()
        defer { try? FileManager.default.removeItem(at: dir) }
        try CLITests.write("version: 1\npolicy: [x\n", to: "defs/broken.yaml", in: dir)
        let run = try CLITests.policyc(["waivers", "--today", "2027-01-01", "--format", "json"], in: dir)
        #expect(run.status == 2, "\(run)")
        let listed = try CLITests.json(run.out)["waivers"] as? [Any]
        #expect(listed?.count == 2)
        #expect(run.err.contains("error: the waivers of 'defs/broken.yaml' cannot be listed: line 3, column 1: "))
        let missing = try CLITests.policyc(["waivers", "nowhere.yaml"], in: dir)
        #expect(missing.status == 2 && missing.err.contains("nowhere.yaml"), "\(missing)")
    }

    /// A waiver a child inherits through `extends` is listed where its parent wrote it, naming the
    /// child (the child's own file has no such line).
    @Test func anInheritedWaiverIsWhereTheParentWroteIt() throws {
        let dir = try Self.project()
        defer { try? FileManager.default.removeItem(at: dir) }
        try CLITests.write("extends: ios.yaml\npolicy: tv\n", to: "defs/tv.yaml", in: dir)
        func listed(_ path: String) throws -> [String] {
            let run = try CLITests.policyc(["waivers", "--today", "2027-01-01", "--format", "json", path], in: dir)
            let waivers = try #require(try CLITests.json(run.out)["waivers"] as? [[String: Any]])
            return waivers.map { "\($0["file"] ?? ""):\($0["line"] ?? "")" }
        }
        let parent = try listed("defs/ios.yaml")
        #expect(parent.count == 2 && parent.allSatisfy { $0.hasPrefix("defs/ios.yaml:") }, "\(parent)")
        #expect(try listed("defs/tv.yaml") == parent)
        let text = try CLITests.policyc(["waivers", "--today", "2027-01-01", "defs/tv.yaml"], in: dir)
        #expect(text.out.contains("\(parent[1]): interactive-retries-max expires on 2027-03-31, in 89 days (policy tv, owner @payments, inherited by defs/tv.yaml)"),
                "\(text)")
        #expect(!text.out.contains("defs/tv.yaml:"), "\(text)")
    }
}
