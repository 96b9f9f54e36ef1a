import Testing
@testable import PolicySource
@testable import PolicyCheck
@testable import TestSupport

/// The waiver inventory: checked files in, one row per waiver out, the soonest to expire first.
@Suite struct WaiverInventoryTests {
    static let today = Day(year: 2027, month: 1, day: 15)

    static func policy(_ name: String, waivers: String) -> String {
        Canonical.text.replacingFirst("policy: playback", with: "policy: \(name)") + "\nwaivers:\n" + waivers
    }

    static let ios = policy("ios", waivers: """
          - rule: interactive-retries-max
            at: retry.profiles.interactive.maxRetries
            allow: 4
            reason: "Payment confirmation, until PAY-311"
            owner: "@payments"
            expires: 2027-03-31
          - rule: retry-budget-max
            reason: old
            owner: "@core"
            expires: 2027-01-10

        """)
    static let tv = policy("tv", waivers: """
          - rule: timeout-min
            reason: slow boxes
            owner: "@tv"
            expires: 2027-01-15
          - rule: full-jitter
            expires: 2027-02-30
          - {}

        """)

    static func files() -> [CheckedFile] {
        [Checker.check(Array(ios.utf8), path: "Policies/ios.yaml"), Checker.check(Array(tv.utf8), path: "Policies/tv.yaml")]
    }

    @Test func everyWaiverSoonestFirst() throws {
        let rows = WaiverInventory.rows(Self.files(), today: Self.today)
        #expect(rows.map(\.rule) == ["retry-budget-max", "timeout-min", "interactive-retries-max", "full-jitter", nil])
        #expect(rows.map(\.daysLeft) == [-5, 0, 75, nil, nil])
        let first = rows[2]
        let line = Canonical.text.split(separator: "\n", omittingEmptySubsequences: false).count + 2
        #expect(first == WaiverInventory.Row(policy: "ios", file: "Policies/ios.yaml", line: line,
                                             rule: "interactive-retries-max", at: "retry.profiles.interactive.maxRetries",
                                             allow: "4", owner: "@payments", reason: "Payment confirmation, until PAY-311",
                                             expires: "2027-03-31", daysLeft: 75))
        #expect(rows.map(\.hasExpired) == [true, false, false, false, false])
        // Without a valid expiry: last, by file and line; the date as written.
        #expect(rows[3].line < rows[4].line)
        #expect(rows[3].expires == "2027-02-30" && rows[4].expires == nil && rows[4].owner == nil)
    }

    @Test func expiringWithinDaysKeepsTheExpired() {
        let rows = WaiverInventory.rows(Self.files(), today: Self.today, expiringWithin: 0)
        #expect(rows.map(\.rule) == ["retry-budget-max", "timeout-min"])
        #expect(WaiverInventory.rows(Self.files(), today: Self.today, expiringWithin: 75).count == 3)
        #expect(WaiverInventory.rows(Self.files(), today: Day(year: 2026, month: 1, day: 1), expiringWithin: 30).isEmpty)
    }

    @Test func aFileThatIsNotYAMLIsSaidNotSkipped() {
        let files = Self.files() + [Checker.check(Array("version: 1\npolicy: [x\n".utf8), path: "bad.yaml"),
                                    Checker.check(Array(Canonical.text.utf8), path: "clean.yaml")]
        let unreadable = WaiverInventory.unreadable(files)
        #expect(unreadable.map(\.file) == ["bad.yaml"])
        #expect(unreadable.first?.why.hasPrefix("line 3, column 1: ") == true)
        #expect(WaiverInventory.rows(files, today: Self.today).count == 5)
    }

    @Test func summary() {
        let rows = WaiverInventory.rows(Self.files(), today: Self.today)
        #expect(WaiverInventory.summary(rows, files: 2, expiringWithin: nil) == "5 waivers in 2 files: 1 expired, 1 expiring within 14 days")
        #expect(WaiverInventory.summary([], files: 1, expiringWithin: 30) == "0 waivers expiring within 30 days in 1 file")
    }
}
