import Foundation
import Testing

@testable import PolicyKit
@testable import TestSupport
/// `policyc diff` and `policyc explain` end to end: the built binary, its stdout, stderr and exit
/// status, in temporary folders and a temporary git repository.
private typealias Ran = Processes.Result

extension Processes.Result {
    fileprivate var json: [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(stdout.utf8))) as? [String: Any] ?? [:]
    }
}

/// The `policyc` built beside this test bundle.
private let policyc: URL = {
    var dir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    for _ in 0..<4 {
        let candidate = dir.appendingPathComponent("policyc")
        if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        dir = dir.deletingLastPathComponent()
    }
    // `swift test` builds the products into the package's .build folder.
    return URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent(".build/debug/policyc")
}()

@discardableResult
private func run(_ executable: URL, _ args: [String], in dir: URL) throws -> Ran {
    try Processes.run(executable.path, args, in: dir,
                      environment: ["NO_COLOR": "1", "GIT_CONFIG_NOSYSTEM": "1", "HOME": dir.path])
}

private func policycRun(_ args: [String], in dir: URL) throws -> Ran { try run(policyc, args, in: dir) }

private func git(_ args: [String], in dir: URL) throws {
    let r = try run(URL(fileURLWithPath: "/usr/bin/env"), ["git"] + args, in: dir)
    try #require(r.status == 0, "git \(args): \(r.stderr)")
}

private func temporaryFolder() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("policyc-review-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

private func write(_ text: String, to path: String, in dir: URL) throws {
    let url = dir.appendingPathComponent(path)
    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(text.utf8).write(to: url)
}

private func canonical() throws -> String {
    // The repository's own canonical policy.
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    return try String(contentsOf: root.appendingPathComponent("Policies/playback.yaml"), encoding: .utf8)
}

private func changes(_ policy: Any?) -> [[String: Any]] {
    (policy as? [String: Any])?["changes"] as? [[String: Any]] ?? []
}

private func policies(_ json: [String: Any]) -> [String: [String: Any]] {
    var out: [String: [String: Any]] = [:]
    for p in json["policies"] as? [[String: Any]] ?? [] {
        out[p["policy"] as? String ?? ""] = p
    }
    return out
}

@Suite(.serialized)
struct ReviewCLITests {
    @Test func diffBaseInATemporaryGitRepository() throws {
        let repo = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: repo) }
        let playback = try canonical()
        let downloads = playback.replacingOccurrences(of: "policy: playback", with: "policy: downloads")
        try git(["init", "-q"], in: repo)
        try git(["config", "user.email", "t@example.com"], in: repo)
        try git(["config", "user.name", "t"], in: repo)
        try write(playback, to: "Policies/playback.yaml", in: repo)
        try write(downloads, to: "Policies/downloads.yaml", in: repo)
        try write("not a policy", to: "Policies/README.md", in: repo)
        try git(["add", "."], in: repo)
        try git(["commit", "-qm", "base"], in: repo)

        // No change yet; a respelled value is still no change.
        try write(playback.replacingOccurrences(of: "cap: 8s ", with: "cap: 8000ms"), to: "Policies/playback.yaml", in: repo)
        var r = try policycRun(["diff", "--base", "HEAD", "--format", "json"], in: repo)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(policies(r.json)["playback"]?["status"] as? String == "unchanged")
        #expect(policies(r.json)["downloads"]?["status"] as? String == "unchanged")

        // Edit one file, delete one, add one.
        try write(playback.replacingOccurrences(of: "deadline: 15s", with: "deadline: 12s"), to: "Policies/playback.yaml", in: repo)
        try FileManager.default.removeItem(at: repo.appendingPathComponent("Policies/downloads.yaml"))
        try write(playback.replacingOccurrences(of: "policy: playback", with: "policy: uploads"), to: "Policies/new/uploads.yml", in: repo)

        r = try policycRun(["diff", "--base", "HEAD", "--format", "json"], in: repo)
        #expect(r.status == 1, "a removed policy is breaking")
        let byName = policies(r.json)
        #expect(byName.keys.sorted() == ["downloads", "playback", "uploads"])
        #expect(byName["downloads"]?["status"] as? String == "removed")
        #expect(byName["downloads"]?["file"] as? String == "Policies/downloads.yaml")
        let removed = changes(byName["downloads"])
        #expect(removed.count == 1)
        #expect(removed.first?["path"] as? String == "policy")
        #expect(removed.first?["before"] as? String == "downloads")
        #expect(removed.first?["after"] is NSNull)
        #expect(removed.first?["breaking"] as? Bool == true)
        #expect(byName["uploads"]?["status"] as? String == "added")
        #expect(byName["uploads"]?["file"] as? String == "Policies/new/uploads.yml")
        let edited = changes(byName["playback"])
        #expect(edited.map { $0["path"] as? String } == ["retry.profiles.interactive.deadline"])
        #expect(edited.first?["before"] as? Int == 15000)
        #expect(edited.first?["after"] as? Int == 12000)
        #expect(edited.first?["breaking"] as? Bool == false)
        #expect((edited.first?["effect"] as? String)?.contains("worst-case wait before Retry shows: 15 s → 12 s") == true)
        #expect(r.json["breaking"] as? Bool == true)
        #expect(r.json["errors"] as? Int == 0)

        r = try policycRun(["diff", "--base", "HEAD", "--allow-breaking"], in: repo)
        #expect(r.status == 0)
        // The first line names the commits compared.
        let lines = r.stdout.split(separator: "\n")
        #expect(lines.first?.hasPrefix("base ") == true && lines.first?.contains("(merge base of HEAD and HEAD ") == true, "\(r.stdout)")
        #expect(lines.dropFirst().first?.hasPrefix("policyc diff passes") == true)

        // Markdown, from a subfolder, naming the folder relative to it.
        r = try policycRun(["diff", "--base", "HEAD", "--format", "markdown", "."], in: repo.appendingPathComponent("Policies"))
        #expect(r.status == 1)
        #expect(r.stdout.hasPrefix("❌ **policyc diff fails**"))
        #expect(r.stdout.contains("<b>`downloads`</b> — removed"))
        #expect(r.stdout.contains("| `policy` | downloads → none |"))

        // The whole folder deleted: every policy removed.
        try FileManager.default.removeItem(at: repo.appendingPathComponent("Policies"))
        r = try policycRun(["diff", "--base", "HEAD", "--format", "json"], in: repo)
        #expect(r.status == 1)
        #expect(policies(r.json).mapValues { $0["status"] as? String } == ["downloads": "removed", "playback": "removed"])

        // New errors fail the check, and are reported.
        try write(playback.replacingOccurrences(of: "maxRetries: 3  ", with: "maxRetries: 9  "), to: "Policies/playback.yaml", in: repo)
        r = try policycRun(["diff", "--base", "HEAD", "--allow-breaking", "--format", "json", "Policies/playback.yaml"], in: repo)
        #expect(r.status == 1)
        #expect(r.json["errors"] as? Int == 1)
        let diagnostics = policies(r.json)["playback"]?["diagnostics"] as? [[String: Any]] ?? []
        #expect(diagnostics.first?["rule"] as? String == "interactive-retries-max")

        // A revision that does not exist, or a path in neither tree: exit 2.
        r = try policycRun(["diff", "--base", "no-such-branch"], in: repo)
        #expect(r.status == 2)
        #expect(r.stderr.contains("no-such-branch"))
        r = try policycRun(["diff", "--base", "HEAD", "Nowhere"], in: repo)
        #expect(r.status == 2)
        r = try policycRun(["diff", "--base", "--upload-pack=x"], in: repo)
        #expect(r.status == 2)
    }

    @Test func diffOutsideAGitRepositoryIsExit2() throws {
        let dir = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        try write(try canonical(), to: "Policies/playback.yaml", in: dir)
        let r = try policycRun(["diff", "--base", "HEAD"], in: dir)
        #expect(r.status == 2)
        #expect(r.stderr.hasPrefix("error: "))
    }

    @Test func diffOfTwoFoldersAndUsageErrors() throws {
        let dir = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let playback = try canonical()
        try write(playback, to: "old/playback.yaml", in: dir)
        try write(playback.replacingOccurrences(of: "  background:", with: "  sync:"), to: "new/playback.yaml", in: dir)

        var r = try policycRun(["diff", "old", "new", "--format", "json"], in: dir)
        #expect(r.status == 1)
        let paths = changes(policies(r.json)["playback"]).map { $0["path"] as? String }
        #expect(paths == ["retry.profiles.background", "retry.profiles.sync"])
        #expect(changes(policies(r.json)["playback"]).map { $0["breaking"] as? Bool } == [true, false])
        #expect(r.stderr.contains("fails"))

        r = try policycRun(["diff", "old/playback.yaml", "old/playback.yaml"], in: dir)
        #expect(r.status == 0)

        for args in [["diff"], ["diff", "old"], ["diff", "old", "new", "extra"], ["diff", "--format", "yaml", "old", "new"],
                     ["diff", "old", "-"], ["explain", "--format", "sarif"]] {
            r = try policycRun(args, in: dir)
            #expect(r.status == 2, "\(args)")
            #expect(r.stderr.hasPrefix("error: "), "\(args)")
        }
        r = try policycRun(["diff", "old", "missing"], in: dir)
        #expect(r.status == 2)
        #expect(r.stderr.contains("missing"))
    }

    /// issue 40 item 7: a legal but harmful change is worse in an outage (exit 1), a harmless one
    /// is not, --allow-worse accepts it, and the project file's thresholds decide.
    @Test func diffSaysWorseInAnOutage() throws {
        let dir = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let playback = try canonical()
        try write(playback, to: "old/playback.yaml", in: dir)
        // Legal: background allows more retries, with a deadline long enough for them.
        try write(playback.replacingOccurrences(of: "maxRetries: 5", with: "maxRetries: 10")
            .replacingOccurrences(of: "deadline: 120s", with: "deadline: 300s"), to: "harmful/playback.yaml", in: dir)
        try write(playback.replacingOccurrences(of: "cap: 30s", with: "cap: 40s")
            .replacingOccurrences(of: "Ticket requests", with: "The ticket requests"), to: "harmless/playback.yaml", in: dir)
        #expect(playback.contains("maxRetries: 5") && playback.contains("cap: 30s") && playback.contains("Ticket requests"))

        var r = try policycRun(["diff", "old", "harmful"], in: dir)
        #expect(r.status == 1)
        #expect(r.stdout.hasPrefix("policyc diff fails: worse in an outage: policy playback, background in scenario "))
        #expect(r.stdout.contains("(--allow-worse accepts it)"))
        #expect(r.stdout.contains("  worse in an outage (every built-in scenario, seed 1; thresholds: peak load +20 %"))
        #expect(r.stdout.contains("background in scenario outage: peak load "))

        r = try policycRun(["diff", "old", "harmful", "--allow-worse"], in: dir)
        #expect(r.status == 0)
        #expect(r.stdout.hasPrefix("policyc diff passes: "))
        #expect(r.stdout.contains("worse in an outage") && r.stdout.contains("(allowed)"))

        r = try policycRun(["diff", "old", "harmful", "--format", "json"], in: dir)
        #expect(r.status == 1)
        let worse = r.json["worse"] as? [[String: Any]] ?? []
        #expect(!worse.isEmpty)
        #expect(worse.first.map { Set($0.keys) } == ["policy", "profile", "scenario", "figure", "base", "head", "guide", "change", "changeText", "newPolicy", "withinGuide"])
        #expect(worse.allSatisfy { $0["change"] is Double && $0["withinGuide"] as? Bool == false })
        #expect(worse.allSatisfy { $0["profile"] as? String == "background" })
        #expect(r.json["better"] is [Any])
        #expect(r.stderr.contains("worse in an outage"))

        r = try policycRun(["diff", "old", "harmful", "--format", "markdown"], in: dir)
        #expect(r.status == 1)
        #expect(r.stdout.contains("❌ **Worse in an outage**"))

        r = try policycRun(["diff", "old", "harmless"], in: dir)
        #expect(r.status == 0)
        #expect(!r.stdout.contains("worse"))

        // Interactive retries 3 → 2 is not worse by the defaults; thresholds tight enough make it so.
        try write(playback.replacingOccurrences(of: "maxRetries: 3 ", with: "maxRetries: 2 "), to: "fewer/playback.yaml", in: dir)
        r = try policycRun(["diff", "old", "fewer"], in: dir)
        #expect(r.status == 0, "\(r.stdout)")
        #expect(r.stdout.contains("  better in an outage ("))
        #expect(!r.stdout.contains("worse in an outage"))
        try write("version: 1\nreview: {peakLoad: 1%, sawRetry: 0.1, p95: 1%, recovery: 0s}\n", to: "policyc.yaml", in: dir)
        r = try policycRun(["diff", "old", "fewer"], in: dir)
        #expect(r.status == 1, "\(r.stdout)")
        #expect(r.stdout.hasPrefix("policyc diff fails: worse in an outage: policy playback, interactive in scenario "))
        // A misspelled key is the project file's finding, with a did-you-mean.
        try write("version: 1\nreview: {peakLaod: 10%}\n", to: "policyc.yaml", in: dir)
        r = try policycRun(["diff", "old", "harmful"], in: dir)
        #expect(r.status == 2)
        #expect(r.stderr.contains("peakLaod") && r.stderr.contains("peakLoad"))
    }

    @Test func explainFiguresAndExitCodes() throws {
        let dir = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let playback = try canonical()
        try write(playback, to: "Policies/playback.yaml", in: dir)
        try write(playback.replacingOccurrences(of: "policy: playback", with: "policy: huge")
                    .replacingOccurrences(of: "maxRetries: 5", with: "maxRetries: 100")
                    .replacingOccurrences(of: "cap: 30s", with: "cap: 24h"),
                  to: "Policies/huge.yaml", in: dir)

        var r = try policycRun(["explain", "--format", "json"], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        let all = r.json["policies"] as? [String: Any] ?? [:]
        let playbackProfiles = (all["playback"] as? [String: Any])?["profiles"] as? [String: [String: Any]] ?? [:]
        let interactive = playbackProfiles["interactive"] ?? [:]
        #expect(interactive["attemptsMax"] as? Int == 4)
        #expect(interactive["maxBackoffTotalMs"] as? Int == 3500)
        #expect(interactive["worstCaseAttempts"] as? Int == 2)
        #expect(interactive["worstCaseWaitMs"] as? Int == 15000)
        #expect((all["playback"] as? [String: Any])?["file"] as? String == "Policies/playback.yaml")
        // The largest values: 1 s · (2^17 − 1) for the first 17 retries, then 83 retries at the
        // cap of a day.
        #expect(r.stdout.contains(#""maxBackoffTotalMs": 7302271000,"#))
        #expect(r.stdout.contains(#""attemptsMax": 101,"#))

        r = try policycRun(["explain"], in: dir)
        #expect(r.status == 0)
        #expect(r.stdout.contains("A viewer waits at most 15 s before Retry shows."))
        r = try policycRun(["explain", "--format", "markdown", "Policies/playback.yaml"], in: dir)
        #expect(r.stdout.hasPrefix("## `playback`"))

        // A policy that breaks a limit: explained as written with its findings, exit 1 (issue 16,
        // item 13); the finding also on stderr for a machine format.
        try write(playback.replacingOccurrences(of: "policy: playback", with: "policy: broken")
                    .replacingOccurrences(of: "timeout: 8s", with: "timeout: 1s"), to: "Policies/broken.yaml", in: dir)
        r = try policycRun(["explain", "--format", "json"], in: dir)
        #expect(r.status == 1)
        #expect(r.stderr.contains("Policies/broken.yaml:12:16: error: profile 'interactive' has a timeout of 1s"), "\(r.stderr)")
        #expect(r.stderr.contains("[timeout-min]"))
        let all2 = r.json["policies"] as? [String: Any] ?? [:]
        #expect(all2.keys.sorted() == ["broken", "huge", "playback"])
        let broken = all2["broken"] as? [String: Any] ?? [:]
        #expect((broken["diagnostics"] as? [[String: Any]])?.map { $0["rule"] as? String } == ["timeout-min"])
        let brokenInteractive = (broken["profiles"] as? [String: [String: Any]])?["interactive"] ?? [:]
        #expect(brokenInteractive["timeout"] as? Int == 1000)
        // starts 0, 1.5 s, 3.5 s, 6.5 s: all 4 before 15 s; the last ends at 7.5 s.
        #expect(brokenInteractive["worstCaseAttempts"] as? Int == 4)
        #expect(brokenInteractive["worstCaseWaitMs"] as? Int == 7500)
        #expect((r.json["notExplained"] as? [Any])?.isEmpty == true)

        r = try policycRun(["explain", "Policies/broken.yaml"], in: dir)
        #expect(r.status == 1)
        #expect(r.stdout.contains("1 error: the policy breaks a limit of the guide, so generate refuses it; explained as written:\n"
            + "    Policies/broken.yaml:12:16: error: profile 'interactive' has a timeout of 1s"), "\(r.stdout)")
        #expect(r.stdout.contains("A viewer waits at most 7.5 s before Retry shows."))
        r = try policycRun(["explain", "--format", "markdown", "Policies/broken.yaml"], in: dir)
        #expect(r.status == 1)
        #expect(r.stdout.contains("❌ 1 error: the policy breaks a limit of the guide"))
        // generate still refuses it.
        r = try policycRun(["generate", "--check", "Policies/broken.yaml"], in: dir)
        #expect(r.status == 1)

        // Values missing: not explained, and said so; the others still explained.
        try write(playback.replacingOccurrences(of: "policy: playback", with: "policy: incomplete")
                    .replacingOccurrences(of: "cap: 8s", with: "cap: eight"), to: "Policies/incomplete.yaml", in: dir)
        r = try policycRun(["explain", "--format", "json"], in: dir)
        #expect(r.status == 1)
        #expect(r.stderr.contains("Policies/incomplete.yaml: not explained: its values are incomplete or in doubt (type-mismatch); fix that error first\n"), "\(r.stderr)")
        #expect((r.json["policies"] as? [String: Any] ?? [:]).keys.sorted() == ["broken", "huge", "playback"])
        let notExplained = r.json["notExplained"] as? [[String: Any]] ?? []
        #expect(notExplained.map { $0["file"] as? String } == ["Policies/incomplete.yaml"])
        r = try policycRun(["explain", "Policies/incomplete.yaml"], in: dir)
        #expect(r.status == 1)
        #expect(r.stdout.isEmpty)
        #expect(r.stderr.contains("[type-mismatch]"))
        #expect(r.stderr.contains("not explained"))
        r = try policycRun(["explain", "--format", "markdown", "Policies/incomplete.yaml"], in: dir)
        #expect(r.stdout.hasPrefix("## `Policies/incomplete.yaml` — not explained\n"))

        r = try policycRun(["explain", "Nowhere"], in: dir)
        #expect(r.status == 2)
    }

    /// Issue 16, item 12, as a reviewer reads it: the table fails a change that breaks a limit,
    /// findings are new or already there, a profile's changes together are said once.
    @Test func diffTableSaysWhatFails() throws {
        let dir = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let playback = try canonical()
        let before = playback.replacingOccurrences(of: "ratio: 10%", with: "ratio: 20%")
        try write(before, to: "old/playback.yaml", in: dir)
        try write(before.replacingOccurrences(of: "maxRetries: 3  ", with: "maxRetries: 4  ")
                    .replacingOccurrences(of: "base: 500ms", with: "base: 1s"), to: "new/playback.yaml", in: dir)

        var r = try policycRun(["diff", "old", "new", "--format", "markdown", "--allow-breaking"], in: dir)
        #expect(r.status == 1)
        #expect(r.stdout.hasPrefix("❌ **policyc diff fails**: 2 errors in the new policies (1 new, 1 already there), worse in an outage: "), "\(r.stdout)")
        #expect(r.stdout.contains("| `retry.profiles.interactive.maxRetries` | 3 → 4 | "))
        #expect(r.stdout.contains(" | ❌ **fails**: interactive profile 'interactive' allows 4 retries; at most 3 are allowed (`interactive-retries-max`) |\n"))
        #expect(!r.stdout.contains("| no |"))
        #expect(r.stdout.contains("\nNew findings:\n\n- ❌ error at `new/playback.yaml:9:19`"))
        #expect(r.stdout.contains("\nFindings already there:\n\n- ❌ error at `new/playback.yaml:30:12`"))
        #expect(r.stdout.components(separatedBy: "together").count == 2)
        #expect(!r.stdout.contains("with the other changes"))

        r = try policycRun(["diff", "old", "new"], in: dir)
        #expect(r.status == 1)
        #expect(r.stdout.contains("retry.profiles.interactive.maxRetries: 3 → 4  [fails: interactive-retries-max]\n"))
        #expect(r.stdout.contains("\n  interactive — all its changes together: "))

        r = try policycRun(["diff", "old", "new", "--format", "json"], in: dir)
        #expect(r.json["errors"] as? Int == 2)
        #expect(r.json["newErrors"] as? Int == 1)
        let edited = changes(policies(r.json)["playback"])
        #expect(edited.map { $0["fails"] as? Bool } == [true, false])
        #expect((edited.first?["findings"] as? [[String: Any]])?.first?["new"] as? Bool == true)
        let diagnostics = policies(r.json)["playback"]?["diagnostics"] as? [[String: Any]] ?? []
        #expect(diagnostics.map { $0["new"] as? Bool } == [true, false])
    }

    /// Issue 16, item 12: a renamed policy is a likely rename; a moved file shows both paths.
    @Test func diffBaseShowsRenamesAndMoves() throws {
        let repo = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: repo) }
        let playback = try canonical()
        let downloads = playback.replacingOccurrences(of: "policy: playback", with: "policy: downloads")
            .replacingOccurrences(of: "maxRetries: 5", with: "maxRetries: 4")
        try git(["init", "-q"], in: repo)
        try git(["config", "user.email", "t@example.com"], in: repo)
        try git(["config", "user.name", "t"], in: repo)
        try write(playback, to: "Policies/playback.yaml", in: repo)
        try write(downloads, to: "Policies/downloads.yaml", in: repo)
        try git(["add", "."], in: repo)
        try git(["commit", "-qm", "base"], in: repo)

        try FileManager.default.createDirectory(at: repo.appendingPathComponent("Policies/sync"), withIntermediateDirectories: true)
        try git(["mv", "Policies/downloads.yaml", "Policies/sync/downloads.yaml"], in: repo)
        try FileManager.default.removeItem(at: repo.appendingPathComponent("Policies/playback.yaml"))
        try write(playback.replacingOccurrences(of: "policy: playback", with: "policy: player"), to: "Policies/player.yaml", in: repo)

        var r = try policycRun(["diff", "--base", "HEAD"], in: repo)
        #expect(r.status == 1, "the rename removes PlaybackPolicy")
        #expect(r.stdout.contains("removes the type PlaybackPolicy: apps that use it no longer compile; it looks renamed to 'player' in Policies/player.yaml with the same values"), "\(r.stdout)")
        #expect(r.stdout.contains("it looks renamed from 'playback' in Policies/playback.yaml with the same values"))
        #expect(r.stdout.contains("downloads (Policies/downloads.yaml → Policies/sync/downloads.yaml, moved): unchanged"))

        r = try policycRun(["diff", "--base", "HEAD", "--format", "json", "--allow-breaking"], in: repo)
        #expect(r.status == 0)
        let byName = policies(r.json)
        #expect(byName["downloads"]?["moved"] as? Bool == true)
        #expect(byName["downloads"]?["oldFile"] as? String == "Policies/downloads.yaml")
        #expect(byName["downloads"]?["file"] as? String == "Policies/sync/downloads.yaml")
        let rename = byName["player"]?["likelyRename"] as? [String: Any]
        #expect(rename?["from"] as? String == "playback")
        #expect(rename?["to"] as? String == "player")
        #expect(rename?["fromFile"] as? String == "Policies/playback.yaml")
        #expect(rename?["toFile"] as? String == "Policies/player.yaml")
        #expect((byName["playback"]?["likelyRename"] as? [String: Any])?["to"] as? String == "player")

        r = try policycRun(["diff", "--base", "HEAD", "--format", "markdown", "--allow-breaking"], in: repo)
        #expect(r.stdout.contains("<b>`downloads`</b> — unchanged, moved (0 changes)</summary>\n\nFile: `Policies/downloads.yaml` → `Policies/sync/downloads.yaml` (moved)\n"), "\(r.stdout)")
    }
}

/// Issue 39, item 20: `diff` reads the targets from the project file, and names TypeScript's
/// symbols in a breaking change when TypeScript is generated.
@Test func diffNamesTypeScriptSymbolsFromTheProjectFile() throws {
    let dir = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: dir) }
    let policy = try canonical()
    try write(policy, to: "old/playback.yaml", in: dir)
    try write(policy.replacingOccurrences(of: "    background:", with: "    sync:"), to: "new/playback.yaml", in: dir)
    let without = try policycRun(["diff", "old", "new"], in: dir)
    #expect(without.stdout.contains("removes PlaybackPolicy.background (Kotlin PlaybackPolicy.BACKGROUND): apps that use it no longer compile"),
            "\(without.stdout)")
    try write("version: 1\ntargets: [swift, kotlin, typescript]\n", to: "policyc.yaml", in: dir)
    let with = try policycRun(["diff", "old", "new"], in: dir)
    #expect(with.status == 1)
    #expect(with.stdout.contains("removes PlaybackPolicy.background (Kotlin PlaybackPolicy.BACKGROUND, TypeScript BACKGROUND of PlaybackPolicy.ts): "
        + "apps that use it no longer compile"), "\(with.stdout)")
}
