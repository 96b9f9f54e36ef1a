import Foundation
import Testing
@testable import PolicySource
@testable import PolicyCheck
@testable import PolicyReport
@testable import TestSupport

/// The waiver inventory's formats, on rows made by hand (so hostile text can be tested).
@Suite struct WaiverReportTests {
    static let rows = [
        WaiverInventory.Row(policy: "ios", file: "Policies/ios.yaml", line: 52, rule: "retry-budget-max", at: nil, allow: nil,
                            owner: "@core", reason: "old, \"temporary\" | fix\nsoon", expires: "2027-01-10", daysLeft: -5),
        WaiverInventory.Row(policy: "ios", file: "Policies/ios.yaml", line: 46, rule: "interactive-retries-max",
                            at: "retry.profiles.interactive.maxRetries", allow: "4", owner: "@payments",
                            reason: "PAY-311", expires: "2027-03-31", daysLeft: 75),
        WaiverInventory.Row(policy: nil, file: "x.yaml", line: 3, rule: nil, at: nil, allow: nil,
                            owner: nil, reason: nil, expires: "2027-02-30", daysLeft: nil),
    ]

    @Test func jsonHasExactlyTheContractsMembers() throws {
        let root = try #require(try JSONSerialization.jsonObject(with: Data(WaiverReport.json(Self.rows).utf8)) as? [String: Any])
        #expect(Array(root.keys) == ["waivers"])
        let waivers = try #require(root["waivers"] as? [[String: Any]])
        #expect(waivers.count == 3)
        for w in waivers { #expect(Set(w.keys) == Set(WaiverReport.columns)) }
        #expect(waivers[0]["daysLeft"] as? Int == -5 && waivers[0]["line"] as? Int == 52)
        #expect(waivers[0]["at"] is NSNull && waivers[0]["reason"] as? String == "old, \"temporary\" | fix\nsoon")
        #expect(waivers[1]["allow"] as? String == "4" && waivers[1]["expires"] as? String == "2027-03-31")
        #expect(waivers[2]["policy"] is NSNull && waivers[2]["daysLeft"] is NSNull && waivers[2]["expires"] as? String == "2027-02-30")
        #expect(WaiverReport.json([]).filter { !$0.isWhitespace } == "{\"waivers\":[]}")
    }

    /// RFC 4180: CRLF records, a field with a comma, quote or line break quoted and its quotes doubled.
    @Test func csvIsRFC4180() {
        let csv = WaiverReport.csv(Self.rows)
        let records = csv.components(separatedBy: "\r\n")
        #expect(records.first == "policy,file,line,rule,at,allow,owner,reason,expires,daysLeft")
        #expect(records[1] == "ios,Policies/ios.yaml,52,retry-budget-max,,,\"@core\",\"old, \"\"temporary\"\" | fix\nsoon\",2027-01-10,-5")
        #expect(records[3] == ",x.yaml,3,,,,,,2027-02-30,")
        #expect(csv.hasSuffix("\r\n") && records.count == 5 && records[4].isEmpty)
        #expect(WaiverReport.csv([]) == "policy,file,line,rule,at,allow,owner,reason,expires,daysLeft\r\n")
    }

    /// A table whose rows cannot be broken by a `|` or a line break in a reason.
    @Test func markdownEscapesPipes() {
        let lines = WaiverReport.markdown(Self.rows).split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 6 && lines[5].isEmpty)
        #expect(lines[0] == "| expires | days left | policy | rule | at | allow | owner | reason | file |")
        #expect(lines[2] == "| 2027-01-10 | -5 | ios | retry-budget-max | — | — | @core | old, \"temporary\" \\| fix\\u{A}soon | Policies/ios.yaml:52 |")
        for line in lines.dropLast() {
            #expect(line.replacingOccurrences(of: "\\|", with: "").filter { $0 == "|" }.count == 10)
        }
        #expect(WaiverReport.markdown([]) == "No waivers.\n")
    }

    @Test func text() {
        #expect(WaiverReport.text(Self.rows) == """
            Policies/ios.yaml:52: retry-budget-max expired on 2027-01-10, 5 days ago (policy ios, owner @core)
              reason: old, "temporary" | fix\\u{A}soon
            Policies/ios.yaml:46: interactive-retries-max expires on 2027-03-31, in 75 days (policy ios, owner @payments)
              at retry.profiles.interactive.maxRetries, allow 4
              reason: PAY-311
            x.yaml:3: (no rule) has no valid expiry ('2027-02-30')

            """)
        var today = Self.rows[1]
        today.daysLeft = 0
        #expect(WaiverReport.ending(today) == "expires today, 2027-03-31")
        today.expires = nil
        #expect(WaiverReport.ending(today) == "has no expiry")
    }
}
