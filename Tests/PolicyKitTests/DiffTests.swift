import Testing
@testable import PolicyKit

/// A side of a diff from policy texts, checked as the CLI checks them.
func reviewSide(_ texts: [(path: String, text: String)]) -> [ReviewInput] {
    var files = texts.map { Checker.check(Array($0.text.utf8), path: $0.path) }
    Checker.checkAcrossFiles(&files)
    return files.map { ReviewInput(file: $0, matchKey: $0.path) }
}

func review(_ old: String, _ new: String, path: String = "Policies/playback.yaml") -> DiffReport {
    DiffReport(old: reviewSide([(path, old)]), new: reviewSide([(path, new)]))
}

/// The canonical policy with one piece replaced (which must be there, or the test is void).
func variant(_ replacements: [(String, String)], of base: String = Canonical.text) -> String {
    var text = base
    for (from, to) in replacements {
        precondition(text.contains(from), "test fixture: '\(from)' not in the policy")
        text = text.replacing(from, with: to)
    }
    return text
}

func compact(_ json: JSON) -> String { json.rendered(pretty: false) }

struct DiffEquivalenceTests {
    /// The canonical policy re-spelled: reordered keys and profiles, comments, quotes, other units,
    /// flow style, lists in another order.
    static let respelled = """
        # the same policy, written differently
        policy: "playback"
        retry:
          retryOn: [503, 502, 500, 429, network]   # order does not matter
          budget: {minPerMinute: 10, ratio: 10.0%}
          profiles:
            background:
              deadline: 2m
              timeout: 15000ms
              cap: 0.5m
              base: 1000ms
              maxRetries: 5
              kind: 'background'
            interactive:
              kind: interactive
              maxRetries: 3
              base: 0.5s
              cap: 8000ms
              timeout: 8s
              deadline: 15000ms
          backoff: "full-jitter"
          neverRetry: [{code: not_ready, status: 503}]
          retryAfter: {maxJitter: 1000ms, honor: true}
        description: 'Ticket requests made by the iOS and Android players.'
        version: 1
        tickets:
          viewerRef: per-viewer-device
          stopReuseBefore: 300s
          reuseKey: [intent, episode, device, viewer]
        prefetch:
          retryRefused: false
          onlyUnlocked: true
          ahead: 2
        """

    @Test func respelledPolicyIsNoChange() {
        let r = review(Canonical.text, Self.respelled)
        #expect(r.policies.count == 1)
        #expect(r.policies.first?.status == .unchanged)
        #expect(r.policies.first?.changes.isEmpty == true)
        #expect(r.policies.first?.diagnostics.isEmpty == true)
        #expect(r.exitCode(allowBreaking: false) == 0)
        #expect(compact(r.json) == #"{"breaking":false,"errors":0,"policies":[{"changes":[],"diagnostics":[],"file":"Policies/playback.yaml","policy":"playback","status":"unchanged"}]}"#)
    }

    @Test func movedToAnotherFileIsNoChange() {
        let r = DiffReport(old: reviewSide([("Policies/a.yaml", Canonical.text)]),
                           new: reviewSide([("Policies/b.yaml", Canonical.text)]))
        #expect(r.policies.map(\.status) == [.unchanged])
        #expect(r.policies.first?.file == "Policies/b.yaml")
    }
}

struct DiffChangeTests {
    struct Case: Sendable, CustomStringConvertible {
        var from: String
        var to: String
        var path: String
        var before: String
        var after: String
        var effect: String
        var description: String { path }
    }

    static let cases: [Case] = [
        Case(from: "maxRetries: 3  ", to: "maxRetries: 2  ", path: "retry.profiles.interactive.maxRetries", before: "3", after: "2",
             effect: "fewer retries while a viewer waits: up to 3 attempts instead of 4"),
        Case(from: "maxRetries: 5", to: "maxRetries: 6", path: "retry.profiles.background.maxRetries", before: "5", after: "6",
             effect: "more retries in the background: up to 7 attempts instead of 6"),
        Case(from: "base: 500ms", to: "base: 1s", path: "retry.profiles.interactive.base", before: "500", after: "1000",
             effect: "wait before the first retry: up to 500 ms → 1 s; waits between attempts add up to at most 3.5 s → 7 s"),
        Case(from: "cap: 8s", to: "cap: 1s", path: "retry.profiles.interactive.cap", before: "8000", after: "1000",
             effect: "longest wait between attempts: 8 s → 1 s; waits between attempts add up to at most 3.5 s → 2.5 s"),
        Case(from: "timeout: 8s", to: "timeout: 5s", path: "retry.profiles.interactive.timeout", before: "8000", after: "5000",
             // starts 0, 5.5 s, 11.5 s (< 15 s), then 19.5 s: 3 attempts; 11.5 + 5 = 16.5 → 15 s.
             effect: "each attempt may run 8 s → 5 s before it is abandoned; in the worst case 2 → 3 attempts start before the deadline"),
        Case(from: "deadline: 15s", to: "deadline: 20s", path: "retry.profiles.interactive.deadline", before: "15000", after: "20000",
             effect: "worst-case wait before Retry shows: 15 s → 20 s"),
        Case(from: "kind: background", to: "kind: interactive", path: "retry.profiles.background.kind",
             before: #""background""#, after: #""interactive""#, effect: "background → interactive"),
        Case(from: "description: Ticket requests made by the iOS and Android players.", to: "description: Other words.",
             path: "description", before: #""Ticket requests made by the iOS and Android players.""#, after: #""Other words.""#,
             effect: "description reworded"),
        Case(from: "description: Ticket requests made by the iOS and Android players.\n", to: "",
             path: "description", before: #""Ticket requests made by the iOS and Android players.""#, after: "null",
             effect: "description removed"),
        Case(from: "retryOn: [network, 429, 500, 502, 503]", to: "retryOn: [network, 429, 500, 502, 503, 504]", path: "retry.retryOn",
             before: #"["network",429,500,502,503]"#, after: #"["network",429,500,502,503,504]"#, effect: "also retries 504"),
        Case(from: "retryOn: [network, 429, 500, 502, 503]", to: "retryOn: [429, 503]", path: "retry.retryOn",
             before: #"["network",429,500,502,503]"#, after: "[429,503]", effect: "no longer retries network errors, 500 and 502"),
        Case(from: "  neverRetry:\n    - status: 503\n      code: not_ready\n", to: "", path: "retry.neverRetry",
             before: #"[{"code":"not_ready","status":503}]"#, after: "[]", effect: "retried again when their status is retried: 503 not_ready"),
        Case(from: "      code: not_ready\n", to: "      code: not_ready\n    - {status: 429, code: quota}\n", path: "retry.neverRetry",
             before: #"[{"code":"not_ready","status":503}]"#, after: #"[{"code":"quota","status":429},{"code":"not_ready","status":503}]"#,
             effect: "never retried any more: 429 quota"),
        Case(from: "backoff: full-jitter", to: "backoff: exponential", path: "retry.backoff",
             before: #""full-jitter""#, after: #""exponential""#, effect: "retry together, in bursts"),
        Case(from: "honor: true", to: "honor: false", path: "retry.retryAfter.honor", before: "true", after: "false",
             effect: "Retry-After is ignored"),
        Case(from: "maxJitter: 1s", to: "maxJitter: 250ms", path: "retry.retryAfter.maxJitter", before: "1000", after: "250",
             effect: "random wait added to Retry-After: up to 1 s → 250 ms"),
        Case(from: "ratio: 10%", to: "ratio: 20%", path: "retry.budget.ratio", before: "10", after: "20",
             effect: "retry budget: at most 20% of last minute's requests instead of 10%"),
        Case(from: "ratio: 10%", to: "ratio: 2.5%", path: "retry.budget.ratio", before: "10", after: "2.5",
             effect: "now governs below 400 requests a minute instead of 100"),
        Case(from: "minPerMinute: 10", to: "minPerMinute: 5", path: "retry.budget.minPerMinute", before: "10", after: "5",
             effect: "retry budget floor: 10 → 5 retries a minute always allowed, whatever the ratio for a client that sends fewer than 50 requests a minute"),
        Case(from: "ahead: 2", to: "ahead: 1", path: "prefetch.ahead", before: "2", after: "1",
             effect: "tickets for the next 2 → 1 episodes ride along (3 → 2 tickets per request)"),
        Case(from: "onlyUnlocked: true", to: "onlyUnlocked: false", path: "prefetch.onlyUnlocked", before: "true", after: "false",
             effect: "also asks for locked episodes"),
        Case(from: "retryRefused: false", to: "retryRefused: true", path: "prefetch.retryRefused", before: "false", after: "true",
             effect: "a refused prefetch is retried"),
        Case(from: "reuseKey: [viewer, device, episode, intent]", to: "reuseKey: [viewer, episode, intent]", path: "tickets.reuseKey",
             before: #"["device","episode","intent","viewer"]"#, after: #"["episode","intent","viewer"]"#,
             effect: "a ticket may be reused across devices"),
        Case(from: "stopReuseBefore: 5m", to: "stopReuseBefore: 2m", path: "tickets.stopReuseBefore", before: "300000", after: "120000",
             effect: "a ticket is reused until 5 min → 2 min before expires_at"),
        Case(from: "viewerRef: per-viewer-device", to: "viewerRef: per-session", path: "tickets.viewerRef",
             before: #""per-viewer-device""#, after: #""per-session""#, effect: "viewer_ref per-viewer-device → per-session"),
        Case(from: "version: 1", to: "version: 2", path: "version", before: "1", after: "2", effect: "policyc reads version 1 only"),
    ]

    @Test(arguments: cases)
    func oneChange(_ c: Case) throws {
        let r = review(Canonical.text, variant([(c.from, c.to)]))
        let p = try #require(r.policies.first)
        #expect(r.policies.count == 1)
        #expect(p.status == .changed)
        try #require(p.changes.count == 1, "\(p.changes.map(\.path))")
        let change = p.changes[0]
        #expect(change.path == c.path)
        #expect(compact(change.before) == c.before)
        #expect(compact(change.after) == c.after)
        #expect(!change.breaking)
        #expect(change.effect.contains(c.effect), "\(change.effect)")
        #expect(!r.breaking)
    }

    @Test func interactiveDeadlineEffectMatchesTheIssue() throws {
        // 3 → 4 retries alone: up to 5 attempts instead of 4, worst case unmoved (deadline 15 s).
        let r = review(Canonical.text, variant([("maxRetries: 3  ", "maxRetries: 4  ")]))
        let change = try #require(r.policies.first?.changes.first)
        #expect(change.effect.hasPrefix("more retries while a viewer waits: up to 5 attempts instead of 4"))
        #expect(r.errors == 1)   // interactive-retries-max on the new side
        #expect(r.exitCode(allowBreaking: true) == 1)
    }
}

struct DiffBreakingTests {
    static let withFast = variant([("  retryOn:", """
            fast:
              kind: interactive
              maxRetries: 1
              base: 200ms
              cap: 1s
              timeout: 5s
              deadline: 10s
          retryOn:
        """)])

    @Test func removedProfileIsBreaking() throws {
        let r = review(Self.withFast, Canonical.text)
        let change = try #require(r.policies.first?.changes.first)
        #expect(r.policies.first?.changes.count == 1)
        #expect(change.path == "retry.profiles.fast")
        #expect(compact(change.before) == #"{"base":200,"cap":1000,"deadline":10000,"kind":"interactive","maxRetries":1,"timeout":5000}"#)
        #expect(change.after == .null)
        #expect(change.breaking)
        #expect(change.effect.contains("removes PlaybackPolicy.fast (Kotlin PlaybackPolicy.FAST)"))
        #expect(r.breaking)
        #expect(r.errors == 0)
        #expect(r.exitCode(allowBreaking: false) == 1)
        #expect(r.exitCode(allowBreaking: true) == 0)
    }

    @Test func addedProfileIsNotBreaking() throws {
        let r = review(Canonical.text, Self.withFast)
        let change = try #require(r.policies.first?.changes.first)
        #expect(change.path == "retry.profiles.fast")
        #expect(change.before == .null)
        #expect(!change.breaking)
        #expect(change.effect.contains("new profile: apps get PlaybackPolicy.fast"))
        #expect(r.exitCode(allowBreaking: false) == 0)
    }

    @Test func renamedProfileIsBreaking() throws {
        let r = review(Canonical.text, variant([("    background:\n", "    sync:\n")]))
        let changes = try #require(r.policies.first?.changes)
        #expect(changes.map(\.path) == ["retry.profiles.background", "retry.profiles.sync"])
        #expect(changes.map(\.breaking) == [true, false])
        #expect(changes[0].effect.contains("looks renamed to 'sync'"))
    }

    @Test func respelledProfileKeepingItsConstantsIsNotBreaking() throws {
        // ticket-play and ticketPlay both become ticketPlay / TICKET_PLAY.
        let old = variant([("    background:\n", "    ticket-play:\n")])
        let new = variant([("    background:\n", "    ticketPlay:\n")])
        let changes = try #require(review(old, new).policies.first?.changes)
        #expect(changes.map(\.path) == ["retry.profiles.ticket-play", "retry.profiles.ticketPlay"])
        #expect(changes.allSatisfy { !$0.breaking })
    }

    @Test func removedAndAddedPolicies() throws {
        let other = variant([("policy: playback", "policy: downloads")])
        let r = DiffReport(old: reviewSide([("P/a.yaml", Canonical.text), ("P/b.yaml", other)]),
                           new: reviewSide([("P/a.yaml", Canonical.text)]))
        let removed = try #require(r.policies.first { $0.policy == "downloads" })
        #expect(removed.status == .removed)
        #expect(removed.file == "P/b.yaml")
        #expect(compact(removed.json) == #"{"changes":[{"after":null,"before":"downloads","breaking":true,"effect":"removes the type DownloadsPolicy: apps that use it no longer compile","path":"policy"}],"diagnostics":[],"file":"P/b.yaml","policy":"downloads","status":"removed"}"#)
        #expect(r.breaking)

        let back = DiffReport(old: reviewSide([("P/a.yaml", Canonical.text)]),
                              new: reviewSide([("P/a.yaml", Canonical.text), ("P/b.yaml", other)]))
        let added = try #require(back.policies.first { $0.policy == "downloads" })
        #expect(added.status == .added)
        #expect(added.changes.map(\.path) == ["policy"])
        #expect(added.changes.first?.before == .null)
        #expect(added.changes.first?.after == .string("downloads"))
        #expect(!back.breaking)
        #expect(back.policies.first { $0.policy == "playback" }?.status == .unchanged)
    }

    @Test func renamedPolicyIsRemovedAndAdded() {
        let r = review(Canonical.text, variant([("policy: playback", "policy: player")]))
        #expect(r.policies.map(\.status) == [.removed, .added])   // sorted by name: playback, player
        #expect(r.policies.map(\.policy) == ["playback", "player"])
        #expect(r.breaking)
    }
}

struct DiffWithErrorsTests {
    @Test func sideWithErrorsIsStillCompared() throws {
        let new = variant([("maxRetries: 5", "maxRetries: 6"), ("cap: 30s", "cap: thirty")])
        let r = review(Canonical.text, new)
        let p = try #require(r.policies.first)
        #expect(p.changes.map(\.path) == ["retry.profiles.background.maxRetries", "retry.profiles.background.cap"])
        #expect(p.changes[1].after == .null)
        #expect(p.changes[1].effect.contains("no valid value in the new policy"))
        #expect(r.errors == 1)
        #expect(p.diagnostics.map(\.rule) == ["type-mismatch"])
        #expect(r.exitCode(allowBreaking: true) == 1)
    }

    @Test func namelessNewFileIsComparedWithTheFileAtItsPlace() throws {
        let r = review(Canonical.text, variant([("policy: playback\n", "")]))
        let p = try #require(r.policies.first)
        #expect(r.policies.count == 1)
        #expect(p.changes.map(\.path) == ["policy"])
        #expect(p.changes.first?.breaking == true)
        #expect(p.diagnostics.map(\.rule) == ["missing-key"])
    }

    @Test func unreadableNewFileHasOnlyItsFindings() throws {
        let r = review(Canonical.text, "version: [1\n")
        let p = try #require(r.policies.first)
        #expect(p.status == .changed)
        #expect(p.changes.isEmpty)
        #expect(p.diagnostics.map(\.rule) == ["yaml-syntax"])
        #expect(r.exitCode(allowBreaking: true) == 1)
    }
}

struct DiffMarkdownTests {
    @Test func valuesCannotBreakTheTableOrAddMarkup() throws {
        let new = variant([("description: Ticket requests made by the iOS and Android players.",
                            "description: \"a | b `c` <img src=x> [l](http://x) **bold** \\u202Eevil\\nline\"")])
        let md = review(Canonical.text, new).markdown(allowBreaking: false)
        let row = try #require(md.split(separator: "\n").first { $0.hasPrefix("| `description`") })
        // Five unescaped pipes: the row keeps its four cells.
        var unescaped = 0
        var previous: Character = " "
        for ch in row {
            if ch == "|" && previous != "\\" { unescaped += 1 }
            previous = previous == "\\" && ch == "\\" ? " " : ch
        }
        #expect(unescaped == 5)
        #expect(!row.replacing("\\<", with: "").contains("<"))
        #expect(row.contains("\\<img"))
        #expect(!row.contains("[l]"))
        #expect(!row.contains("**bold**"))
        #expect(!row.contains("\u{202E}"))
        #expect(!md.contains("\nline"))
    }

    @Test func verdictComesFirst() {
        let pass = review(Canonical.text, Canonical.text).markdown(allowBreaking: false)
        #expect(pass.hasPrefix("✅ **policyc diff passes**"))
        let fail = review(DiffBreakingTests.withFast, Canonical.text).markdown(allowBreaking: false)
        #expect(fail.hasPrefix("❌ **policyc diff fails**: 1 breaking change"))
        #expect(fail.contains("| `retry.profiles.fast` | interactive, 1 retry, base 200 ms, cap 1 s, timeout 5 s, deadline 10 s → none |"))
        #expect(fail.contains("| **breaking** |"))
        let allowed = review(DiffBreakingTests.withFast, Canonical.text).markdown(allowBreaking: true)
        #expect(allowed.hasPrefix("✅ **policyc diff passes**"))
    }
}
