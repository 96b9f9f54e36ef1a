import Foundation
import Testing
@testable import PolicySource
@testable import PolicyCheck
@testable import PolicyTraffic
@testable import TestSupport

/// Recordings in the shapes of Chrome's, Charles' and mitmproxy's exports (Tests/Fixtures/verify,
/// written by make_fixtures.py), and recordings that cannot be read.
@Suite struct RecordingTests {
    static func fixture(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: GenSupport.packageRoot.appendingPathComponent("Tests/Fixtures/verify/" + name)))
    }

    static func verify(_ bytes: [UInt8], file: String = "t.har", endpoint: String? = nil) throws -> (Recording, [TrafficFinding]) {
        let options = TrafficOptions(policy: try #require(Traffic.guidePolicy), endpoint: endpoint)
        let recording = try Traffic.read(bytes, file: file, options: options).get()
        return (recording, Traffic.check(recording))
    }

    static func error(_ text: String) -> HARError? {
        guard case .failure(let error) = Traffic.read(Array(text.utf8), file: "t.har", options: TrafficOptions(policy: Traffic.guidePolicy!)) else { return nil }
        return error
    }

    @Test func chromeExportOfAWellBehavedClientHasNoFinding() throws {
        let (recording, findings) = try Self.verify(Self.fixture("chrome-clean.har"))
        #expect(findings.isEmpty, "\(findings.map(\.message))")
        #expect(recording.entryCount == 9)
        let summary = try #require(recording.summaries.first)
        #expect((summary.calls, summary.attempts, summary.retries, summary.mostRetries) == (4, 7, 3, 2))
    }

    @Test func charlesExportNamesEachViolationAtItsEntries() throws {
        let (_, findings) = try Self.verify(Self.fixture("charles-bad.har"))
        let found = findings.map { "\($0.rule) \($0.entry) \($0.entries)" }
        #expect(found == [
            "traffic-retry-after 1 [0, 1]", "traffic-retry-after 2 [1, 2]", "traffic-retry-after 3 [2, 3]",
            "traffic-retries-max 4 [0, 1, 2, 3, 4, 5]", "traffic-retry-after 4 [3, 4]", "traffic-retry-after 5 [4, 5]",
            "traffic-prefetch-retried 7 [6, 7]", "traffic-not-retryable 9 [8, 9]", "traffic-batch 11 [10, 11]",
            "traffic-ticket-reuse 12 [10, 12]", "traffic-viewer-ref 13 [13]", "traffic-viewer-ref 13 [0, 13]",
        ])
        let first = try #require(findings.first)
        #expect(first.message.contains("entries[1] at 2026-12-07T10:00:00.210Z, https://api.wandura.example/v1/tickets?app=ios"))
        #expect(first.client == "device iphone-7f3a, viewer k3Jd9sQm2vXa7LpT0bWc1e:Zr8uYq2nM4a")
    }

    @Test func mitmproxyShapeAbortedAttemptIsGivenUpTooEarly() throws {
        let (_, findings) = try Self.verify(Self.fixture("mitmproxy-network.har"))
        #expect(findings.map(\.rule) == [.trafficTimeoutMin])
        #expect(findings.first?.entry == 0)
    }

    /// Recorded through mitmproxy by Tests/Traffic (a local ticket server and two real clients).
    @Test func mitmproxyRecordingsOfRealClients() throws {
        let (good, clean) = try Self.verify(Self.fixture("mitmproxy-good.har"))
        #expect(clean.isEmpty, "\(clean.map(\.message))")
        #expect(good.summaries.first.map { ($0.calls, $0.retries) } ?? (0, 0) == (4, 7))
        let (_, bad) = try Self.verify(Self.fixture("mitmproxy-bad.har"))
        #expect(Set(bad.map(\.rule)) == [.trafficRetriesMax, .trafficRetryAfter])
        #expect(bad.first { $0.rule == .trafficRetriesMax }?.entries == [0, 1, 2, 3, 4, 5])
    }

    @Test func endpointGlobPicksTicketRequests() throws {
        let bytes = try Self.fixture("charles-bad.har")
        #expect(try Self.verify(bytes, endpoint: "/v1/*").1.count == 12)
        #expect(try Self.verify(bytes, endpoint: "/v2/tickets").1.isEmpty)
        #expect(Glob.matches("/v1/**", "/v1/a/b") && !Glob.matches("/v1/*", "/v1/a/b") && Glob.matches("/v?/tickets", "/v1/tickets"))
    }

    @Test func malformedRecordingsAreErrorsWithAPosition() throws {
        let notJSON = try #require(Self.error("hello"))
        #expect(notJSON.message.contains("not JSON") && notJSON.line == 1 && notJSON.column == 1)
        #expect(Self.error("{\"log\": {}}")?.message.contains("no log.entries") == true)
        #expect(Self.error("")?.message.contains("empty") == true)
        let wrong = try #require(Self.error("{\"log\":\n  {\"entries\": {}}}"))
        #expect(wrong.message == "log.entries is not a list" && wrong.line == 2 && wrong.column == 15)
        let truncated = try #require(Self.error("{\"log\":{\"entries\":[{\"startedDateTime\":\"2026"))
        #expect(truncated.message.contains("truncated"))
        let badEntry = try #require(Self.error("{\"log\":{\"entries\":[{\"a\": tru}]}}"))
        #expect(badEntry.message.contains("entry 0 is not valid JSON"))
        #expect(Self.error("{\"log\":{\"entries\":[1]}}")?.message.contains("not an object") == true)
        #expect(Self.error("{\"log\":{\"entries\":[]}} x")?.message.contains("after") == true)
        let ticket = #"{"request":{"method":"POST","url":"https://a/v1/tickets","postData":{"text":"{\"episodes\":[]}"}},"#
        #expect(Self.error(#"{"log":{"entries":["# + ticket + #""startedDateTime":5,"response":{"status":200}}]}}"#)?
            .message.contains("startedDateTime is not an ISO 8601 time") == true)
        #expect(Self.error(#"{"log":{"entries":["# + ticket + #""startedDateTime":"2026-12-07T10:00:00Z","response":{"status":"x"}}]}}"#)?
            .message.contains("status is a number") == true)
    }

    @Test func deepNestingOutsideEntriesIsSkippedWithoutRecursion() throws {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        let (recording, _) = try Self.verify(Array("{\"x\": \(deep), \"log\": {\"entries\": []}}".utf8))
        #expect(recording.entryCount == 0)
    }

    @Test func timesAndRetryAfter() {
        #expect(ISOTime.milliseconds("2026-12-07T10:00:00.250Z") == ISOTime.milliseconds("2026-12-07T11:00:00.250+01:00"))
        #expect(ISOTime.milliseconds("2026-12-07T10:00:00.123456+00:00").map { $0 % 1000 } == 123)
        #expect(ISOTime.milliseconds("2026-13-07T10:00:00Z") == nil && ISOTime.milliseconds("yesterday") == nil)
        #expect(RetryAfter.milliseconds("2", nowMs: nil) == 2000)
        let now = ISOTime.milliseconds("1994-11-06T08:49:30Z")
        #expect(RetryAfter.milliseconds("Sun, 06 Nov 1994 08:49:37 GMT", nowMs: now) == 7000)
        #expect(TrafficRule.personalData("+44 20 7946 0958") == "a phone number")
        #expect(TrafficRule.personalData(TrafficExample.viewer) == nil)
        #expect(Clock.iso(TrafficExample.startMs + 1250) == "2026-12-07T10:00:01.250Z")
    }

    @Test func everyFormatNamesTheEntry() throws {
        let (recording, findings) = try Self.verify(Self.fixture("charles-bad.har"), file: "charles-bad.har")
        let run = TrafficRun(files: ["charles-bad.har"], findings: findings, summaries: recording.summaries, errors: [], policy: "p.yaml")
        let sarif = TrafficReport.render(.sarif, run)
        #expect(sarif.contains("\"fullyQualifiedName\" : \"entries[4]\"") || sarif.contains("\"fullyQualifiedName\": \"entries[4]\""))
        #expect(TrafficReport.render(.github, run).contains("title=traffic-retries-max::"))
        #expect(TrafficReport.render(.junit, run).contains("traffic-batch at entries[11]"))
        #expect(TrafficReport.render(.markdown, run).contains("| charles-bad.har | 9 | `traffic-not-retryable` |"))
        #expect(TrafficReport.render(.text, run).contains("charles-bad.har:"))
        guard case .object(let json) = TrafficReport.json(run), case .array(let list)? = json["findings"],
              case .object(let first)? = list.first else { Issue.record("no findings in json"); return }
        #expect(Set(first.keys).isSuperset(of: ["rule", "severity", "message", "file", "entry", "entries", "client"]))
    }
}
