import Testing
@testable import PolicySource
@testable import PolicyCheck
@testable import PolicyReport
@testable import PolicySimulation
@testable import PolicyReview
@testable import TestSupport

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
        #expect(r.exitCode() == 0)
        #expect(compact(r.json) == #"{"base":null,"breaking":false,"errors":0,"fixed":[],"mergeBase":null,"newErrors":0,"policies":[{"changes":[],"diagnostics":[],"file":"Policies/playback.yaml","likelyRename":null,"moved":false,"oldFile":"Policies/playback.yaml","policy":"playback","profiles":{},"status":"unchanged"}],"projectFile":{"changes":[],"file":null,"loosened":false},"waivers":[]}"#)
    }

    @Test func movedToAnotherFileIsNoChangeButShowsBothPaths() {
        let r = DiffReport(old: reviewSide([("Policies/a.yaml", Canonical.text)]),
                           new: reviewSide([("Policies/b.yaml", Canonical.text)]))
        #expect(r.policies.map(\.status) == [.unchanged])
        #expect(r.policies.first?.file == "Policies/b.yaml")
        #expect(r.policies.first?.oldFile == "Policies/a.yaml")
        #expect(r.policies.first?.moved == true)
        #expect(r.exitCode() == 0)
        let text = r.text()
        #expect(text.hasPrefix("policyc diff passes: no change in 1 policy, 1 file moved;"), "\(text)")
        #expect(text.contains("\nplayback (Policies/a.yaml → Policies/b.yaml, moved): unchanged\n"), "\(text)")
        #expect(!text.contains("unchanged: playback"))
        let md = r.markdown()
        #expect(md.contains("<summary><b>`playback`</b> — unchanged, moved (0 changes)</summary>"), "\(md)")
        #expect(md.contains("File: `Policies/a.yaml` → `Policies/b.yaml` (moved)"))
        #expect(compact(r.json).contains(#""file":"Policies/b.yaml","likelyRename":null,"moved":true,"oldFile":"Policies/a.yaml""#))

        // Edited and moved: the changes, and both paths.
        let edited = DiffReport(old: reviewSide([("Policies/a.yaml", Canonical.text)]),
                                new: reviewSide([("Policies/sub/b.yaml", variant([("ahead: 2", "ahead: 1")]))]))
        #expect(edited.policies.map(\.status) == [.changed])
        #expect(edited.text().contains("playback (Policies/a.yaml → Policies/sub/b.yaml, moved): changed"))

        // In place: one path, as before.
        let still = review(Canonical.text, variant([("ahead: 2", "ahead: 1")]))
        #expect(still.policies.first?.moved == false)
        #expect(still.text().contains("playback (Policies/playback.yaml): changed"))
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
             // 3 retries from 500 ms wait at most 500 ms, 1 s and 2 s: the longest wait that can happen is 2 s, not 8 s.
             effect: "longest wait between attempts: 2 s → 1 s; waits between attempts add up to at most 3.5 s → 2.5 s"),
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
             effect: "for a client that sends at least 400 requests a minute; below 100 requests a minute the floor of 10 retries a minute "
                 + "governs either way, and the ratio changes nothing there (from 100 to 400 requests a minute the floor now governs)"),
        Case(from: "minPerMinute: 10", to: "minPerMinute: 5", path: "retry.budget.minPerMinute", before: "10", after: "5",
             effect: "retry budget floor: 10 → 5 retries a minute are always allowed, whatever the ratio; the floor governs for a client that sends fewer than 50 requests a minute"),
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

    /// Issue 39, item 2: the figures in diff's words follow each side's backoff strategy.
    @Test func constantBackoffFiguresInTheWords() throws {
        let toConstant = review(Canonical.text, variant([("backoff: full-jitter", "backoff: constant")]))
        let backoff = try #require(toConstant.policies.first?.changes.first { $0.path == "retry.backoff" })
        // Interactive 3.5 s → 3 × 500 ms; background 31 s → 5 × 1 s, and its last attempt ends at
        // 80 + 15 = 95 s instead of at the 120 s deadline.
        #expect(backoff.effect.contains("interactive: waits between attempts add up to at most 3.5 s → 1.5 s"), "\(backoff.effect)")
        #expect(backoff.effect.contains("background: waits between attempts add up to at most 31 s → 5 s, "
            + "worst case, the call gives up after 2 min → 95 s"), "\(backoff.effect)")
        // Between two doubling strategies the bound is the same: nothing to add.
        let jitter = review(Canonical.text, variant([("backoff: full-jitter", "backoff: equal-jitter")]))
        let same = try #require(jitter.policies.first?.changes.first)
        #expect(!same.effect.contains("add up to"))

        // A constant policy: one retry fewer is one base fewer.
        let constant = variant([("backoff: full-jitter", "backoff: constant")])
        let fewer = review(constant, variant([("maxRetries: 3  ", "maxRetries: 2  ")], of: constant))
        let change = try #require(fewer.policies.first?.changes.first)
        #expect(change.effect.contains("waits between attempts add up to at most 1.5 s → 1 s"), "\(change.effect)")
        // A new profile of a constant policy is summed up with constant waits.
        let added = review(constant, variant([("  retryOn:", "    slow:\n      kind: background\n      maxRetries: 10\n      base: 10s\n"
            + "      cap: 30s\n      timeout: 5s\n      deadline: 10m\n  retryOn:")], of: constant))
        let slow = try #require(added.policies.first?.changes.first { $0.path == "retry.profiles.slow" })
        // starts 15k s: all 11 attempts before 10 min; the last ends at 150 + 5 = 155 s.
        #expect(slow.effect.contains("up to 11 attempts, gives up after at most 155 s"),
                "\(slow.effect)")
    }

    @Test func interactiveDeadlineEffectMatchesTheIssue() throws {
        // 3 → 4 retries alone: up to 5 attempts instead of 4, worst case unmoved (deadline 15 s).
        let r = review(Canonical.text, variant([("maxRetries: 3  ", "maxRetries: 4  ")]))
        let change = try #require(r.policies.first?.changes.first)
        #expect(change.effect.hasPrefix("more retries while a viewer waits: up to 5 attempts instead of 4"))
        #expect(r.errors == 1)   // interactive-retries-max on the new side
        #expect(r.exitCode(Allowances(breaking: true)) == 1)
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
        #expect(r.exitCode() == 1)
        #expect(r.exitCode(Allowances(breaking: true)) == 0)
    }

    @Test func addedProfileIsNotBreaking() throws {
        let r = review(Canonical.text, Self.withFast)
        let change = try #require(r.policies.first?.changes.first)
        #expect(change.path == "retry.profiles.fast")
        #expect(change.before == .null)
        #expect(!change.breaking)
        #expect(change.effect.contains("new profile: apps get PlaybackPolicy.fast"))
        #expect(r.exitCode() == 0)
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

    /// Issue 39, item 20: when TypeScript is generated, breaking changes name its symbols too.
    @Test func typeScriptSymbolsAreNamedWhenGenerated() throws {
        let all: [CodeTarget] = [.swift, .kotlin, .typescript, .schema]
        func side(_ texts: [(String, String)]) -> [ReviewInput] { reviewSide(texts.map { (path: $0.0, text: $0.1) }) }
        let removed = DiffReport(old: side([("Policies/playback.yaml", Self.withFast)]), new: side([("Policies/playback.yaml", Canonical.text)]),
                                 targets: all)
        let profile = try #require(removed.policies.first?.changes.first)
        #expect(profile.breaking)
        #expect(profile.effect.hasPrefix("removes PlaybackPolicy.fast (Kotlin PlaybackPolicy.FAST, TypeScript FAST of PlaybackPolicy.ts): "
            + "apps that use it no longer compile"), "\(profile.effect)")
        // Without TypeScript, the words are as they were.
        let plain = DiffReport(old: side([("Policies/playback.yaml", Self.withFast)]), new: side([("Policies/playback.yaml", Canonical.text)]))
        #expect(plain.policies.first?.changes.first?.effect.hasPrefix("removes PlaybackPolicy.fast (Kotlin PlaybackPolicy.FAST): ") == true)

        let added = DiffReport(old: side([("Policies/playback.yaml", Canonical.text)]), new: side([("Policies/playback.yaml", Self.withFast)]),
                               targets: all)
        #expect(added.policies.first?.changes.first?.effect.hasPrefix("new profile: apps get PlaybackPolicy.fast (Kotlin PlaybackPolicy.FAST, TypeScript FAST of PlaybackPolicy.ts)") == true)

        let other = variant([("policy: playback", "policy: downloads")])
        let gone = DiffReport(old: side([("P/a.yaml", Canonical.text), ("P/b.yaml", other)]), new: side([("P/a.yaml", Canonical.text)]),
                              targets: all)
        let policy = try #require(gone.policies.first { $0.policy == "downloads" }?.changes.first)
        #expect(policy.effect == "removes the type DownloadsPolicy (TypeScript module DownloadsPolicy.ts): apps that use it no longer compile")
        let back = DiffReport(old: side([("P/a.yaml", Canonical.text)]), new: side([("P/a.yaml", Canonical.text), ("P/b.yaml", other)]),
                              targets: all)
        #expect(back.policies.first { $0.policy == "downloads" }?.changes.first?.effect
            .hasPrefix("new policy: apps get the type DownloadsPolicy (TypeScript module DownloadsPolicy.ts)") == true)
    }

    @Test func removedAndAddedPolicies() throws {
        let other = variant([("policy: playback", "policy: downloads")])
        let r = DiffReport(old: reviewSide([("P/a.yaml", Canonical.text), ("P/b.yaml", other)]),
                           new: reviewSide([("P/a.yaml", Canonical.text)]))
        let removed = try #require(r.policies.first { $0.policy == "downloads" })
        #expect(removed.status == .removed)
        #expect(removed.file == "P/b.yaml")
        #expect(compact(removed.json) == #"{"changes":[{"after":null,"before":"downloads","breaking":true,"effect":"removes the type DownloadsPolicy: apps that use it no longer compile","fails":false,"findings":[],"path":"policy"}],"diagnostics":[],"file":"P/b.yaml","likelyRename":null,"moved":false,"oldFile":"P/b.yaml","policy":"downloads","profiles":{},"status":"removed"}"#)
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

    @Test func renamedPolicyIsRemovedAndAddedAndALikelyRename() throws {
        let r = review(Canonical.text, variant([("policy: playback", "policy: player")]))
        #expect(r.policies.map(\.status) == [.removed, .added])   // sorted by name: playback, player
        #expect(r.policies.map(\.policy) == ["playback", "player"])
        #expect(r.breaking)
        let rename = LikelyRename(from: "playback", to: "player", fromFile: "Policies/playback.yaml", toFile: "Policies/playback.yaml")
        #expect(r.policies.map(\.likelyRename) == [rename, rename])
        let removed = try #require(r.policies.first?.changes.first)
        #expect(removed.breaking)
        #expect(removed.effect == "removes the type PlaybackPolicy: apps that use it no longer compile; it looks renamed to 'player' with the same values")
        let added = try #require(r.policies.last?.changes.first)
        #expect(added.effect == "new policy: apps get the type PlayerPolicy; it looks renamed from 'playback' with the same values")
        #expect(compact(r.policies[0].json).contains(#""likelyRename":{"from":"playback","fromFile":"Policies/playback.yaml","to":"player","toFile":"Policies/playback.yaml"}"#))
    }

    @Test func renamedPolicyInANewFileNamesBothFiles() throws {
        let r = DiffReport(old: reviewSide([("Policies/playback.yaml", Canonical.text), ("Policies/other.yaml", DiffBreakingTests.other)]),
                           new: reviewSide([("Policies/player.yaml", variant([("policy: playback", "policy: player"),
                                                                            ("description: Ticket requests made by the iOS and Android players.", "description: Renamed.")])),
                                            ("Policies/other.yaml", DiffBreakingTests.other)]))
        let byName = Dictionary(uniqueKeysWithValues: r.policies.map { ($0.policy ?? "", $0) })
        #expect(byName["playback"]?.changes.first?.effect.hasSuffix("it looks renamed to 'player' in Policies/player.yaml with the same values") == true)
        #expect(byName["player"]?.changes.first?.effect.hasSuffix("it looks renamed from 'playback' in Policies/playback.yaml with the same values") == true)
        #expect(byName["other"]?.likelyRename == nil)
        let text = r.text()
        #expect(text.contains("it looks renamed to 'player' in Policies/player.yaml"))
        #expect(r.markdown().contains("it looks renamed from 'playback' in Policies/playback.yaml"))
    }

    @Test func renamedPolicyWithOtherValuesIsNoLikelyRename() {
        let r = review(Canonical.text, variant([("policy: playback", "policy: player"), ("ahead: 2", "ahead: 1")]))
        #expect(r.policies.map(\.status) == [.removed, .added])
        #expect(r.policies.allSatisfy { $0.likelyRename == nil })
        #expect(!r.text().contains("renamed"))
    }

    static let other = variant([("policy: playback", "policy: other"), ("maxRetries: 5", "maxRetries: 4")])
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
        #expect(r.exitCode(Allowances(breaking: true)) == 1)
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
        #expect(r.exitCode(Allowances(breaking: true)) == 1)
    }
}

struct DiffMarkdownTests {
    @Test func valuesCannotBreakTheTableOrAddMarkup() throws {
        let new = variant([("description: Ticket requests made by the iOS and Android players.",
                            "description: \"a | b `c` <img src=x> [l](http://x) **bold** \\u202Eevil\\nline\"")])
        let md = review(Canonical.text, new).markdown()
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
        let pass = review(Canonical.text, Canonical.text).markdown()
        #expect(pass.hasPrefix("✅ **policyc diff passes**"))
        let fail = review(DiffBreakingTests.withFast, Canonical.text).markdown()
        #expect(fail.hasPrefix("❌ **policyc diff fails**: 1 breaking change"))
        #expect(fail.contains("| `retry.profiles.fast` | interactive, 1 retry, base 200 ms, cap 1 s, timeout 5 s, deadline 10 s → none |"))
        #expect(fail.contains("| **breaking** |"))
        let allowed = review(DiffBreakingTests.withFast, Canonical.text).markdown(Allowances(breaking: true))
        #expect(allowed.hasPrefix("✅ **policyc diff passes**"))
    }
}

/// Issue 16, item 12: a change that breaks a limit fails in the table itself, and says which.
struct DiffVerdictTests {
    @Test func changesThatBreakALimitFailInTheirRow() throws {
        let r = review(Canonical.text, variant([("maxRetries: 3  ", "maxRetries: 4  "), ("ratio: 10%", "ratio: 20%"),
                                                ("ahead: 2", "ahead: 1")]))
        let p = try #require(r.policies.first)
        let byPath = Dictionary(uniqueKeysWithValues: p.changes.map { ($0.path, $0) })
        let retries = try #require(byPath["retry.profiles.interactive.maxRetries"])
        #expect(retries.fails)
        #expect(!retries.breaking)
        #expect(retries.findings.map(\.diagnostic.rule) == ["interactive-retries-max"])
        #expect(retries.findings.allSatisfy { $0.isNew })
        let ratio = try #require(byPath["retry.budget.ratio"])
        #expect(ratio.fails)
        #expect(ratio.findings.map(\.diagnostic.rule) == ["retry-budget-max"])
        let ahead = try #require(byPath["prefetch.ahead"])
        #expect(!ahead.fails)
        #expect(ahead.findings.isEmpty)

        let md = r.markdown(Allowances(breaking: true))
        #expect(md.contains("| Change | Before → After | Effect | Verdict |"))
        let row = try #require(md.split(separator: "\n").first { $0.hasPrefix("| `retry.profiles.interactive.maxRetries`") })
        #expect(row.hasSuffix("| ❌ **fails**: interactive profile 'interactive' allows 4 retries; at most 3 are allowed (`interactive-retries-max`) |"), "\(row)")
        let ratioRow = try #require(md.split(separator: "\n").first { $0.hasPrefix("| `retry.budget.ratio`") })
        #expect(ratioRow.contains("❌ **fails**: budget.ratio is 20%; retries may be at most 10% of the requests of the last minute (`retry-budget-max`)"))
        let aheadRow = try #require(md.split(separator: "\n").first { $0.hasPrefix("| `prefetch.ahead`") })
        #expect(aheadRow.hasSuffix("| ok |"))
        #expect(md.hasPrefix("❌ **policyc diff fails**: 2 errors in the new policies (2 new);"), "\(md)")

        let text = r.text(Allowances(breaking: true))
        #expect(text.contains("  retry.profiles.interactive.maxRetries: 3 → 4  [fails: interactive-retries-max]\n"), "\(text)")
        #expect(text.contains("  retry.budget.ratio: 10% → 20%  [fails: retry-budget-max]\n"))
        #expect(text.contains("  prefetch.ahead: 2 → 1\n"))

        let json = compact(r.json)
        #expect(json.contains(#""fails":true,"findings":[{"column":19,"endColumn":20,"endLine":9,"file":"Policies/playback.yaml","fix":{"description":"write maxRetries: 3","edits":[{"end":{"column":20,"line":9},"start":{"column":19,"line":9},"text":"3"}],"safety":"unsafe"},"help":null,"line":9,"message":"interactive profile 'interactive' allows 4 retries; at most 3 are allowed","new":true,"reference":{"quote":"At most 3 retries per interactive request","section":"Checklist"},"related":[],"rule":"interactive-retries-max","severity":"error"}],"path":"retry.profiles.interactive.maxRetries""#), "\(json)")
        #expect(json.contains(#""fails":false,"findings":[],"path":"prefetch.ahead""#))
        #expect(json.contains(#""errors":2,"#) && json.contains(#""newErrors":2,"#))
        // The exit status is SPEC §3's: errors fail, whatever --allow-breaking says.
        #expect(r.exitCode(Allowances(breaking: true)) == 1)
    }

    @Test func breakingAndFailingTogether() throws {
        // The profile removed, and the remaining one broken.
        let r = review(DiffBreakingTests.withFast, Canonical.text.replacing("timeout: 8s", with: "timeout: 2s"))
        let cells = r.policies.first?.changes.map(DiffReport.verdictCell) ?? []
        #expect(cells.contains("**breaking**"))
        #expect(cells.contains { $0.hasPrefix("❌ **fails**: profile 'interactive' has a timeout of 2s") })
    }

    /// A rule that reads two values blames a change of either.
    @Test(arguments: [
        ("cap: 8s", "cap: 400ms", "retry.profiles.interactive.cap", "backoff-order"),
        ("deadline: 15s", "deadline: 6s", "retry.profiles.interactive.deadline", "timeout-within-deadline"),
        ("kind: background", "kind: interactive", "retry.profiles.background.kind", "interactive-retries-max"),
        ("  neverRetry:\n    - status: 503\n      code: not_ready\n", "", "retry.neverRetry", "not-ready-never-retried"),
        ("retryOn: [network, 429, 500, 502, 503]", "retryOn: [network, 429, 500, 502, 503, 504]", "retry.retryOn", "retry-statuses"),
        ("viewerRef: per-viewer-device", "viewerRef: per-session", "tickets.viewerRef", "viewer-ref-stable"),
    ])
    func ruleReadingTheChangedValueFailsTheChange(from: String, to: String, path: String, rule: String) throws {
        let r = review(Canonical.text, variant([(from, to)]))
        let change = try #require(r.policies.first?.changes.first { $0.path == path })
        #expect(change.findings.map(\.diagnostic.rule).contains(RuleID(rawValue: rule)), "\(change.findings.map(\.diagnostic.rule))")
        #expect(change.fails)
        #expect(DiffReport.verdictCell(change).contains("(`\(rule)`)"))
    }

    @Test func warningIsShownButDoesNotFail() throws {
        let r = review(Canonical.text, variant([("deadline: 15s", "deadline: 20s")]))
        let change = try #require(r.policies.first?.changes.first)
        #expect(!change.fails)
        #expect(change.findings.map(\.diagnostic.rule) == ["interactive-deadline"])
        #expect(DiffReport.verdictCell(change).hasPrefix("⚠️ warning: interactive profile 'interactive' has a deadline of 20s"))
        #expect(r.text().contains("[warning: interactive-deadline]"))
        #expect(r.exitCode() == 0)
    }

    @Test func valueTheNewSideLacksFails() throws {
        let r = review(Canonical.text, variant([("cap: 30s", "cap: thirty"), ("    minPerMinute: 10\n", "")]))
        let p = try #require(r.policies.first)
        let cap = try #require(p.changes.first { $0.path == "retry.profiles.background.cap" })
        #expect(cap.fails)
        #expect(cap.findings.map(\.diagnostic.rule) == ["type-mismatch"])
        let floor = try #require(p.changes.first { $0.path == "retry.budget.minPerMinute" })
        #expect(floor.fails)
        #expect(floor.findings.map(\.diagnostic.rule) == ["missing-key"])
        #expect(r.text().contains("retry.budget.minPerMinute: 10 → none  [fails: missing-key]"))
    }

    @Test func newPolicyBringsAllItsFindings() throws {
        let broken = variant([("policy: playback", "policy: other"), ("timeout: 8s", "timeout: 1s")])
        let r = DiffReport(old: reviewSide([("P/a.yaml", Canonical.text)]),
                           new: reviewSide([("P/a.yaml", Canonical.text), ("P/b.yaml", broken)]))
        let added = try #require(r.policies.first { $0.policy == "other" })
        #expect(added.changes.first?.fails == true)
        #expect(added.changes.first?.findings.map(\.diagnostic.rule) == ["timeout-min"])
        #expect(added.findings.allSatisfy { $0.isNew })
    }
}

/// Issue 16, item 12: findings the change brings are told from those that were there before.
struct DiffFindingAgeTests {
    @Test func findingOnBothSidesIsAlreadyThere() throws {
        let old = variant([("ratio: 10%", "ratio: 20%")])
        // Lines moved (a comment on top), the ratio made worse, and a new finding.
        let new = "# moved down a line\n" + variant([("ratio: 10%", "ratio: 30%"), ("timeout: 15s", "timeout: 3s")])
        let r = review(old, new)
        let p = try #require(r.policies.first)
        #expect(p.findings.map(\.diagnostic.rule) == ["timeout-min", "retry-budget-max"])
        #expect(p.findings.map(\.isNew) == [true, false])
        #expect(r.errors == 2)
        #expect(r.newErrors == 1)
        let ratio = try #require(p.changes.first { $0.path == "retry.budget.ratio" })
        #expect(ratio.fails)
        #expect(DiffReport.verdictCell(ratio).hasPrefix("❌ **still fails** (already there): budget.ratio is 30%"))

        let text = r.text()
        #expect(text.hasPrefix("policyc diff fails: 2 errors in the new policies (1 new, 1 already there);"), "\(text)")
        #expect(text.contains("  retry.budget.ratio: 20% → 30%  [still fails: retry-budget-max]\n"))
        #expect(text.contains("  new findings:\n    Policies/playback.yaml:20:16: error: profile 'background' has a timeout of 3s"), "\(text)")
        #expect(text.contains("  findings already there:\n    Policies/playback.yaml:31:12: error: budget.ratio is 30%"))
        let md = r.markdown()
        #expect(md.contains("\nNew findings:\n\n- ❌ error at `Policies/playback.yaml:20:16`"))
        #expect(md.contains("\nFindings already there:\n\n- ❌ error at `Policies/playback.yaml:31:12`"))
        let json = compact(r.json)
        #expect(json.contains(#""new":false,"reference":{"quote":"Retries may be at most 10 % of the requests of the last minute","section":"Retry 429 and 503 the right way"},"related":[],"rule":"retry-budget-max""#))
        #expect(json.contains(#""new":true,"reference":{"quote":"give ticket requests at least 5 seconds of client timeout","section":"What Wandura does when it is busy; Checklist"},"related":[],"rule":"timeout-min""#))
        #expect(json.contains(#""errors":2,"#) && json.contains(#""newErrors":1,"#))
    }

    @Test func unchangedPolicyWithFindingsHasOnlyOldOnes() throws {
        let broken = variant([("ratio: 10%", "ratio: 20%")])
        let r = review(broken, broken)
        #expect(r.policies.first?.status == .unchanged)
        #expect(r.newErrors == 0)
        #expect(r.errors == 1)
        #expect(r.verdict().text.hasPrefix("fails: 1 error in the new policies (1 already there)"))
    }

    @Test func ofTwoFindingsAtOnePlaceTheOldOneIsMatched() throws {
        let old = variant([("retryOn: [network, 429, 500, 502, 503]", "retryOn: [network, 429, 500, 502, 503, 504]")])
        let new = variant([("retryOn: [network, 429, 500, 502, 503]", "retryOn: [network, 404, 429, 500, 502, 503, 504]")])
        let p = try #require(review(old, new).policies.first)
        #expect(p.findings.map { "\($0.diagnostic.message.contains("404") ? 404 : 504) \($0.isNew)" } == ["404 true", "504 false"])
        let change = try #require(p.changes.first)
        #expect(DiffReport.tags(change) == ["fails: retry-statuses", "still fails: retry-statuses"])
    }

    @Test func positionsInMessagesDoNotMakeAFindingNew() {
        // yaml-duplicate-key names the line of the first key, which moves with the comment.
        let old = variant([("  onlyUnlocked: true\n", "  onlyUnlocked: true\n  onlyUnlocked: true\n")])
        let new = "# one more line\n" + old
        let r = review(old, new)
        #expect(r.policies.first?.findings.map(\.diagnostic.rule) == ["yaml-duplicate-key"])
        #expect(r.newErrors == 0)
        #expect(FindingMatch.withoutPositions("the first is at line 12, column 3; a line of text") == "the first is at line #, column #; a line of text")
    }

    @Test func renamedPolicyKeepsItsOldFindings() throws {
        let old = variant([("deadline: 15s", "deadline: 20s")])
        let r = review(old, variant([("policy: playback", "policy: player")], of: old))
        let added = try #require(r.policies.first { $0.policy == "player" })
        #expect(added.likelyRename != nil)
        #expect(added.findings.map(\.diagnostic.rule) == ["interactive-deadline"])
        #expect(added.findings.map(\.isNew) == [false])
    }
}

/// Issue 16, item 12: what a profile's changes do together is said once, not in every row.
struct DiffProfileTests {
    @Test func togetherOncePerProfile() throws {
        let r = review(Canonical.text, variant([("maxRetries: 3  ", "maxRetries: 2  "), ("base: 500ms", "base: 1s"),
                                                ("cap: 8s", "cap: 4s")]))
        let p = try #require(r.policies.first)
        #expect(p.changes.count == 3)
        #expect(p.changes.allSatisfy { !$0.effect.contains("other changes") && !$0.effect.contains("together") })
        let profile = try #require(p.profiles.first)
        #expect(p.profiles.map(\.name) == ["interactive"])
        // 1 s + 2 s (3 s) with both retries; each change alone: 1.5 s, 3 s, 3.5 s.
        #expect(profile.together == ["waits between attempts add up to at most 3.5 s → 3 s"])
        let text = r.text()
        #expect(text.components(separatedBy: "together").count == 2, "\(text)")
        #expect(text.contains("\n  interactive — all its changes together: waits between attempts add up to at most 3.5 s → 3 s\n"))
        let md = r.markdown()
        #expect(md.components(separatedBy: "together").count == 2)
        #expect(md.contains("\n- `interactive` — all its changes together: waits between attempts add up to at most 3.5 s → 3 s\n"))
        #expect(compact(r.json).contains(#""profiles":{"interactive":{"together":"waits between attempts add up to at most 3.5 s → 3 s"}}"#))
    }

    @Test func profilesThatChangedOrAreNewAreListedInOrder() throws {
        let r = review(Canonical.text, variant([("maxRetries: 5", "maxRetries: 4")], of: DiffBreakingTests.withFast))
        let p = try #require(r.policies.first)
        #expect(p.profiles.map(\.name) == ["background", "fast"])
        #expect(p.profiles.allSatisfy { $0.together.isEmpty && $0.lines.isEmpty })
    }
}

/// Text compares by its bytes in review too (see PolicyCheckTests' `ExactTextTests`).
@Suite struct ExactTextReviewTests {
    /// The canonical policy with its `neverRetry` replaced by `items`.
    static func withNeverRetry(_ items: [(Int, String)]) -> [UInt8] {
        var text = Canonical.text
        let block = "  neverRetry:\n    - status: 503\n      code: not_ready\n"
        precondition(text.contains(block))
        let list = items.map { "    - {status: \($0.0), code: \"\($0.1)\"}\n" }.joined()
        text = text.replacing(block, with: "  neverRetry:\n    - status: 503\n      code: not_ready\n" + list)
        return Array(text.utf8)
    }

    /// `diff` matches codes, descriptions and profiles by bytes: an NFC → NFD respelling is a change.
    @Test func diffSeesEquivalentRespellings() throws {
        let old = Self.withNeverRetry([(503, "\u{958}")])
        let new = Self.withNeverRetry([(503, "\u{915}\u{93C}")])
        let r = review(String(decoding: old, as: UTF8.self), String(decoding: new, as: UTF8.self))
        let changes = try #require(r.policies.first?.changes)
        #expect(changes.map(\.path) == ["retry.neverRetry"], "\(changes)")
        #expect(changes.first?.effect.contains("never retried any more") == true)
        #expect(changes.first?.effect.contains("retried again") == true)

        let described = variant([("description: Ticket requests made by the iOS and Android players.", "description: caf\u{E9}")])
        let redescribed = variant([("description: Ticket requests made by the iOS and Android players.", "description: cafe\u{301}")])
        #expect(review(described, redescribed).policies.first?.changes.map(\.path) == ["description"])
        #expect(review(described, described).policies.first?.changes.isEmpty == true)
    }
}

/// Issue 39, item 19: a side that could not be read was not compared, and no format says "no change".
struct DiffUnreadableSideTests {
    static let broken = "version: 1\npolicy: playback\n  retry: {}\n"

    @Test func aNewSideWithAYAMLErrorIsNotCalledNoChange() throws {
        let r = review(Canonical.text, Self.broken)
        let p = try #require(r.policies.first)
        #expect(p.status == .changed)
        #expect(p.notCompared == "the new file could not be read as a policy (see the findings)")
        let verdict = r.verdict().text
        #expect(verdict == "fails: 1 error in the new policies (1 new); 1 policy not compared: a file could not be read", "\(verdict)")
        for out in [r.text(), r.markdown(), verdict] {
            #expect(!out.contains("no change"), "\(out)")
        }
        #expect(r.text().contains("playback (Policies/playback.yaml): changed\n  not compared: the new file could not be read as a policy (see the findings)\n"))
        #expect(r.markdown().contains("\n⚠️ Not compared: the new file could not be read as a policy (see the findings)\n"))
        #expect(compact(r.json).contains(#""notCompared":"the new file could not be read as a policy (see the findings)""#))

        // Beside a policy that did not change: each is counted for what it is.
        let two = DiffReport(old: reviewSide([("Policies/a.yaml", Canonical.text), ("Policies/b.yaml", Canonical.text.replacing("policy: playback", with: "policy: other"))]),
                             new: reviewSide([("Policies/a.yaml", Self.broken), ("Policies/b.yaml", Canonical.text.replacing("policy: playback", with: "policy: other"))]))
        #expect(two.verdict().text.hasSuffix("; no change in 1 policy, 1 policy not compared: a file could not be read"),
                "\(two.verdict().text)")

        // An added file that cannot be read is not "no change" either.
        let added = DiffReport(old: [], new: reviewSide([("Policies/new.yaml", "a: [\n")]))
        #expect(!added.verdict().text.contains("no change"), "\(added.verdict().text)")

        // Two readable sides keep their words and JSON.
        let same = review(Canonical.text, Canonical.text)
        #expect(same.verdict().text == "passes: no change in 1 policy; nothing breaks, no errors")
        #expect(!compact(same.json).contains("notCompared"))
    }
}
