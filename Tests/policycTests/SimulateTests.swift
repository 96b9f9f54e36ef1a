import Foundation
import Testing

@testable import PolicyKit
@testable import TestSupport
/// `policyc simulate` as a user runs it, and the outage figures it adds to `diff` and `explain`.
@Suite struct SimulateTests {
    typealias CLI = CLITests

    /// A folder with the canonical policy at Policies/playback.yaml and `files` beside it.
    static func workspace(_ files: [String: String] = [:]) throws -> URL {
        let dir = try CLI.scratch()
        try CLI.write(CLI.canonical, to: "Policies/playback.yaml", in: dir)
        for (name, text) in files { try CLI.write(text, to: name, in: dir) }
        return dir
    }

    static let smallScenario = """
        version: 1
        scenario: small
        duration: 40s
        fleet: {clients: 2000, callsPerMinute: 3}
        server: {capacity: 120, mode: shed, latency: 50ms}
        faults:
          - {kind: outage, from: 10s, to: 20s, status: 503}

        """

    // MARK: lint of a scenario file

    /// `lint` checks a scenario file as a scenario, as the language server does: its own findings,
    /// no "missing 'policy'" and no fix that adds a policy's sections.
    @Test func lintChecksAScenarioFileAsAScenario() throws {
        let bad = Self.smallScenario.replacingOccurrences(of: "duration: 40s", with: "duratoin: 40s")
        let dir = try Self.workspace(["small.yaml": Self.smallScenario, "bad.yaml": bad])
        defer { try? FileManager.default.removeItem(at: dir) }
        let clean = try CLI.policyc(["lint", "small.yaml"], in: dir)
        #expect(clean.status == 0 && clean.out.isEmpty, "\(clean)")
        let wrong = try CLI.policyc(["lint", "bad.yaml"], in: dir)
        #expect(wrong.status == 1, "\(wrong)")
        #expect(wrong.out.hasPrefix("bad.yaml:3:1: error: unknown key 'duratoin' in the scenario [unknown-key]\n"), "\(wrong)")
        #expect(!wrong.out.contains("policy") && wrong.err == "1 error, 0 warnings in 1 file\n", "\(wrong)")
        let fixed = try CLI.policyc(["lint", "--fix", "--unsafe-fixes", "bad.yaml"], in: dir)
        #expect(fixed.status == 1 && fixed.err.hasPrefix("nothing to fix; 1 error"), "\(fixed)")
        #expect(try String(contentsOf: dir.appendingPathComponent("bad.yaml"), encoding: .utf8) == bad)
    }

    // MARK: help and usage

    @Test func helpListsEveryOptionAndTheExitStatus() throws {
        let help = try CLI.policyc(["simulate", "--help"])
        #expect(help.status == 0)
        for part in ["OVERVIEW: ", "\nUSAGE: policyc simulate ", "\nARGUMENTS:\n", "\nOPTIONS:\n", "EXIT STATUS:",
                     "--scenario NAME|FILE", "--profile NAME", "--seed N", "--format FORMAT", "--chart FILE",
                     "(values: text, markdown, json, csv, svg)", "outage", "surge", "brownout"] {
            #expect(help.out.contains(part), "no '\(part)' in:\n\(help.out)")
        }
        let usage = help.out.split(separator: "\n").first { $0.hasPrefix("USAGE:") } ?? ""
        for option in ["--scenario", "--profile", "--seed", "--format", "--chart"] { #expect(usage.contains(option)) }
        #expect(try CLI.policyc(["--help"]).out.contains("simulate"))
        #expect(try CLI.policyc(["schema", "--help"]).out.contains("--scenario"))
    }

    @Test(arguments: [
        (["simulate", "--scenario", "outgae"], "error: unknown scenario 'outgae'; did you mean 'outage'?"),
        (["simulate", "--scenario", "peak"], "error: unknown scenario 'peak'; the built-in scenarios are outage, surge, brownout, spike, reset, backlog, backend, or give a scenario file"),
        (["simulate", "--seed", "-1"], "error: '-1' is not a seed"),
        (["simulate", "--seed", "1e3"], "error: '1e3' is not a seed"),
        (["simulate", "--format", "png"], "error: unknown format 'png' for '--format'; expected one of text, markdown, json, csv, svg"),
        (["simulate", "--profile", "a", "--profile", "b"], "error: option '--profile' is given twice"),
        (["simulate", "-"], "error: standard input ('-') is accepted by 'lint' only"),
    ] as [([String], String)])
    func usageErrorsExitTwo(arguments: [String], message: String) throws {
        let dir = try Self.workspace()
        defer { try? FileManager.default.removeItem(at: dir) }
        let outcome = try CLI.policyc(arguments, in: dir)
        #expect(outcome.status == 2, "\(outcome)")
        #expect(outcome.err.hasPrefix(message), "\(outcome)")
        #expect(outcome.err.contains("See 'policyc simulate --help'."))
        #expect(outcome.out.isEmpty)
    }

    // MARK: runs

    @Test func theStandardOutageOnTheRepositorysPolicy() throws {
        let outcome = try CLI.policyc(["simulate"], in: CLI.packageRoot)
        #expect(outcome.status == 0, "\(outcome)")
        #expect(outcome.err.isEmpty)
        #expect(outcome.out.hasPrefix("playback (Policies/playback.yaml) · interactive · outage (seed 1)\n"))
        for part in ["  load ", "▃", "█", "peak ", "viewers who saw Retry", "time to a ticket (every call): p50 / p95 / p99 50 ms / no ticket / no ticket",
                     "recovery: 0 s after the last fault ended (90 s)"] {
            #expect(outcome.out.contains(part), "no '\(part)' in:\n\(outcome.out)")
        }
    }

    @Test func jsonHasTheDocumentedShape() throws {
        let dir = try Self.workspace(["small.yaml": Self.smallScenario])
        defer { try? FileManager.default.removeItem(at: dir) }
        let outcome = try CLI.policyc(["simulate", "--format", "json", "--scenario", "small.yaml", "--scenario", "outage"], in: dir)
        #expect(outcome.status == 0, "\(outcome)")
        let object = try CLI.json(outcome.out)
        #expect(Array(object.keys) == ["runs"])
        let runs = try #require(object["runs"] as? [[String: Any]])
        #expect(runs.count == 2)
        let run = runs[0]
        #expect(Set(run.keys) == ["policy", "profile", "scenario", "seed", "summary", "series"])
        #expect(run["policy"] as? String == "playback" && run["profile"] as? String == "interactive")
        #expect(run["scenario"] as? String == "small" && run["seed"] as? Int == 1)
        #expect(runs[1]["scenario"] as? String == "outage")
        let summary = try #require(run["summary"] as? [String: Any])
        #expect(Set(summary.keys) == ["calls", "attempts", "retries", "succeeded", "failed", "unfinished", "failedBy",
                                      "amplification", "peakLoad", "peakLoad100ms", "failedPercent", "timeToTicketMs",
                                      "recoverySeconds", "wastedAttempts"])
        func keys(_ value: Any?) -> Set<String> { Set((value as? [String: Any])?.keys.map { $0 } ?? []) }
        #expect(keys(summary["failedBy"]) == ["notRetryable", "retriesUsed", "budget", "deadline"])
        #expect(keys(summary["timeToTicketMs"]) == ["p50", "p95", "p99"])
        let calls = try #require(summary["calls"] as? Int), failed = try #require(summary["failed"] as? Int)
        let succeeded = try #require(summary["succeeded"] as? Int), unfinished = try #require(summary["unfinished"] as? Int)
        #expect(calls == succeeded + failed + unfinished)
        let series = try #require(run["series"] as? [[String: Int]])
        #expect(series.count == 40)
        #expect(series.map { $0["second"] } == (0..<40).map { $0 })
        #expect(Set(series[0].keys) == ["second", "calls", "attempts", "retries", "succeeded", "busy", "timeouts", "inFlight"])
        #expect(series.reduce(0) { $0 + ($1["calls"] ?? 0) } == calls)
        #expect(series.reduce(0) { $0 + ($1["attempts"] ?? 0) } == summary["attempts"] as? Int)
    }

    @Test func repeatRunsAreByteIdenticalWithAnyThreads() throws {
        let dir = try Self.workspace(["small.yaml": Self.smallScenario])
        defer { try? FileManager.default.removeItem(at: dir) }
        let arguments = ["simulate", "--format", "json", "--scenario", "small.yaml", "--scenario", "surge", "--scenario", "small.yaml"]
        let first = try CLI.policyc(arguments, in: dir)
        let again = try CLI.policyc(arguments, in: dir)
        let alone = try CLI.policyc(arguments, in: dir, environment: ["POLICYC_THREADS": "1"])
        #expect(first.status == 0 && !first.out.isEmpty)
        #expect(first.out == again.out && first.out == alone.out)
        let seeded = try CLI.policyc(["simulate", "--format", "json", "--scenario", "small.yaml", "--seed", "9"], in: dir)
        #expect(seeded.status == 0)
        #expect(seeded.out.contains("\"seed\": 9") && seeded.out != first.out)
    }

    @Test func scenarioAllRunsEveryBuiltinScenario() throws {
        let dir = try Self.workspace()
        defer { try? FileManager.default.removeItem(at: dir) }
        let outcome = try CLI.policyc(["simulate", "--format", "json", "--scenario", "all"], in: dir)
        #expect(outcome.status == 0, "\(outcome.err)")
        let runs = try #require(try CLI.json(outcome.out)["runs"] as? [[String: Any]])
        #expect(runs.map { $0["scenario"] as? String } == ["outage", "surge", "brownout", "spike", "reset", "backlog", "backend"])
        // A scenario with groups gives each group's figures.
        let groups = try #require(runs[6]["groups"] as? [[String: Any]])
        #expect(groups.map { $0["name"] as? String } == ["services", "jobs"])
        #expect(runs[0]["groups"] == nil)
    }

    @Test func csvIsTheSeriesOfEveryRun() throws {
        let dir = try Self.workspace(["small.yaml": Self.smallScenario])
        defer { try? FileManager.default.removeItem(at: dir) }
        let outcome = try CLI.policyc(["simulate", "--format", "csv", "--scenario", "small.yaml", "--profile", "background"], in: dir)
        #expect(outcome.status == 0, "\(outcome)")
        let lines = outcome.out.split(separator: "\n")
        #expect(lines.first == "policy,profile,scenario,seed,second,calls,attempts,retries,succeeded,busy,timeouts,inFlight")
        #expect(lines.count == 41)
        #expect(lines[1].hasPrefix("playback,background,small,1,0,"))
    }

    @Test func markdownIsATableForAPullRequest() throws {
        let outcome = try CLI.policyc(["simulate", "--format", "markdown", "--scenario", "brownout"], in: CLI.packageRoot)
        #expect(outcome.status == 0)
        #expect(outcome.out.hasPrefix("| Policy | Profile | Scenario | Calls |"))
        #expect(outcome.out.contains("| `playback` | `interactive` | `brownout` (seed 1) |"))
    }

    // MARK: what stops a run and what does not

    @Test func limitFindingsAreShownAndDoNotStopARun() throws {
        let broken = CLI.canonical.replacingOccurrences(of: "maxRetries: 3 ", with: "maxRetries: 6 ")
            .replacingOccurrences(of: "ratio: 10%", with: "ratio: 50%")
        let dir = try Self.workspace(["Policies/playback.yaml": broken, "small.yaml": Self.smallScenario])
        defer { try? FileManager.default.removeItem(at: dir) }
        let outcome = try CLI.policyc(["simulate", "--scenario", "small.yaml"], in: dir)
        #expect(outcome.status == 0, "\(outcome)")
        #expect(outcome.err.contains("[interactive-retries-max]") && outcome.err.contains("[retry-budget-max]"))
        #expect(outcome.out.hasPrefix("playback (Policies/playback.yaml) · interactive · small (seed 1)"))
    }

    @Test func otherErrorsStopTheirPolicy() throws {
        let unknownKey = CLI.canonical.replacingOccurrences(of: "  budget:\n", with: "  budgte:\n")
        let dir = try Self.workspace(["Policies/other.yaml": unknownKey.replacingOccurrences(of: "policy: playback", with: "policy: other"),
                                      "small.yaml": Self.smallScenario])
        defer { try? FileManager.default.removeItem(at: dir) }
        let outcome = try CLI.policyc(["simulate", "--scenario", "small.yaml"], in: dir)
        #expect(outcome.status == 1, "\(outcome)")
        #expect(outcome.err.contains("Policies/other.yaml:29:3: error: unknown key 'budgte' in 'retry' [unknown-key]"))
        #expect(outcome.err.contains("Policies/other.yaml: not simulated"))
        // The good policy still ran.
        #expect(outcome.out.hasPrefix("playback (Policies/playback.yaml) · interactive · small (seed 1)"))
    }

    @Test func aScenarioFileWithErrorsIsReportedLikeAPolicy() throws {
        let bad = Self.smallScenario.replacingOccurrences(of: "callsPerMinute: 3", with: "callsPerMinte: 3")
        let dir = try Self.workspace(["bad.yaml": bad])
        defer { try? FileManager.default.removeItem(at: dir) }
        let outcome = try CLI.policyc(["simulate", "--scenario", "bad.yaml"], in: dir)
        #expect(outcome.status == 1, "\(outcome)")
        #expect(outcome.err.contains("bad.yaml:4:24: error: unknown key 'callsPerMinte' in 'fleet' [unknown-key]\n"))
        #expect(outcome.err.contains("  help: did you mean 'callsPerMinute'?\n"))
        #expect(outcome.out.isEmpty)
        let missing = try CLI.policyc(["simulate", "--scenario", "nowhere.yaml"], in: dir)
        #expect(missing.status == 2 && missing.err.hasPrefix("error: cannot read 'nowhere.yaml'"), "\(missing)")
    }

    @Test func twoVersionsOfOnePolicyAreToldApartByTheirFiles() throws {
        let dir = try Self.workspace(["new/playback.yaml": CLI.canonical.replacingOccurrences(of: "maxRetries: 3 ", with: "maxRetries: 1 ")])
        defer { try? FileManager.default.removeItem(at: dir) }
        // One policy name belongs to one file in a run: each version is simulated on its own.
        let old = try CLI.policyc(["simulate", "Policies", "--format", "svg"], in: dir)
        let new = try CLI.policyc(["simulate", "new", "--format", "svg"], in: dir)
        #expect(old.status == 0 && new.status == 0, "\(old.err) \(new.err)")
        #expect(old.out.contains(">playback (Policies/playback.yaml) · interactive · outage (seed 1)</text>"))
        #expect(new.out.contains(">playback (new/playback.yaml) · interactive · outage (seed 1)</text>"))
    }

    @Test func aScenarioProfileThePolicyLacksIsAFindingWithDidYouMean() throws {
        let typo = Self.smallScenario.replacingOccurrences(of: "callsPerMinute: 3}", with: "callsPerMinute: 3, profile: interactiv}")
        let dir = try Self.workspace(["typo.yaml": typo])
        defer { try? FileManager.default.removeItem(at: dir) }
        let outcome = try CLI.policyc(["simulate", "--scenario", "typo.yaml"], in: dir)
        #expect(outcome.status == 1, "\(outcome)")
        #expect(outcome.err.contains("typo.yaml:4:52: error: policy 'playback' (Policies/playback.yaml) has no profile 'interactiv' [scenario-limit]"),
                "\(outcome.err)")
        #expect(outcome.err.contains("did you mean 'interactive'?"))
        #expect(outcome.out.isEmpty)
    }

    /// A git repository holding the canonical policy, committed; then `maxRetries: 3 → 5` in the
    /// working tree.
    static func repository() throws -> URL {
        let dir = try Self.workspace(["small.yaml": Self.smallScenario])
        func git(_ args: [String]) throws {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            p.arguments = ["git", "-c", "user.email=t@example.com", "-c", "user.name=t"] + args
            p.currentDirectoryURL = dir
            p.standardOutput = FileHandle.nullDevice
            p.standardError = FileHandle.nullDevice
            try p.run()
            p.waitUntilExit()
            try #require(p.terminationStatus == 0, "git \(args)")
        }
        try git(["init", "-q"])
        try git(["add", "."])
        try git(["commit", "-qm", "base"])
        try CLI.write(CLI.canonical.replacingOccurrences(of: "maxRetries: 3 ", with: "maxRetries: 5 "), to: "Policies/playback.yaml", in: dir)
        return dir
    }

    @Test func baseAndHeadSideBySide() throws {
        let dir = try Self.repository()
        defer { try? FileManager.default.removeItem(at: dir) }
        let args = ["simulate", "--base", "HEAD", "--scenario", "small.yaml"]
        let json = try CLI.policyc(args + ["--format", "json"], in: dir)
        #expect(json.status == 0, "\(json.err)")
        let object = try CLI.json(json.out)
        #expect(object["base"] as? String == "HEAD")
        let runs = try #require(object["runs"] as? [[String: Any]])
        #expect(runs.map { $0["side"] as? String } == ["base", "head"])
        let amplification = runs.map { ($0["summary"] as? [String: Any])?["amplification"] as? Double ?? 0 }
        #expect(amplification[1] > amplification[0], "five retries make more attempts: \(amplification)")

        let text = try CLI.policyc(args, in: dir)
        #expect(text.out.hasPrefix("playback · interactive · small (seed 1): base HEAD → head Policies/playback.yaml\n"), "\(text.out)")
        #expect(text.out.contains("  base ▁") || text.out.contains("  base "))
        #expect(text.out.contains("attempts per call"))

        let markdown = try CLI.policyc(args + ["--format", "markdown"], in: dir)
        #expect(markdown.out.contains("| Figure | Base (`HEAD`) | Head | Change |"))
        #expect(markdown.out.contains("```mermaid\n%%{init: {\"themeVariables\": {\"xyChart\": {\"plotColorPalette\": \"#7b3294, #f28e2b\"}}}}%%\nxychart-beta\n"))
        #expect(markdown.out.contains("<details>") && markdown.out.contains("</details>"))
        // Two lines of at most 60 points.
        let lines = markdown.out.split(separator: "\n").filter { $0.hasPrefix("    line [") }
        #expect(lines.count == 2)
        #expect(lines.allSatisfy { $0.split(separator: ",").count <= 60 })

        let svg = try CLI.policyc(args + ["--format", "svg"], in: dir)
        #expect(svg.out.contains("stroke-dasharray=\"5 3\""))
        #expect(svg.out.contains(">base HEAD: attempts</text>") && svg.out.contains(">head: first attempts</text>"))
    }

    /// Issue 46, item 7: every profile whose retry values differ, each side by side; `--profile`
    /// the one named.
    @Test func everyChangedProfileSideBySide() throws {
        let dir = try Self.repository()
        defer { try? FileManager.default.removeItem(at: dir) }
        // maxRetries (interactive) and the ratio (every profile): both profiles.
        try CLI.write(CLI.canonical.replacingOccurrences(of: "maxRetries: 3 ", with: "maxRetries: 2 ")
            .replacingOccurrences(of: "ratio: 10%", with: "ratio: 5%"), to: "Policies/playback.yaml", in: dir)
        let text = try CLI.policyc(["simulate", "--base", "HEAD", "--scenario", "small.yaml"], in: dir)
        #expect(text.status == 0, "\(text.err)")
        #expect(text.out.contains("playback · interactive · small (seed 1): base HEAD → head Policies/playback.yaml\n"), "\(text.out)")
        #expect(text.out.contains("playback · background · small (seed 1): base HEAD → head Policies/playback.yaml\n"), "\(text.out)")
        let json = try CLI.json(try CLI.policyc(["simulate", "--base", "HEAD", "--scenario", "small.yaml", "--format", "json"], in: dir).out)
        let runs = try #require(json["runs"] as? [[String: Any]])
        #expect(runs.map { "\($0["side"] ?? "") \($0["profile"] ?? "")" } == ["base interactive", "head interactive", "base background", "head background"])
        let one = try CLI.policyc(["simulate", "--base", "HEAD", "--scenario", "small.yaml", "--profile", "background"], in: dir)
        #expect(one.out.contains("· background ·") && !one.out.contains("· interactive ·"), "\(one.out)")
    }

    /// The side-by-side chart is a picture a real renderer draws: the head's areas and the base's
    /// dashed line both on it.
    @Test(.enabled(if: rsvgReady || isCI, "rsvg-convert (librsvg2-bin) and python3 are not installed (required when CI=true)"))
    func theBaseAndHeadChartRendersAsARealPicture() throws {
        let dir = try Self.repository()
        defer { try? FileManager.default.removeItem(at: dir) }
        let made = try CLI.policyc(["simulate", "--base", "HEAD", "--scenario", "outage", "--format", "svg", "--chart", "both.svg"], in: dir)
        #expect(made.status == 0 || made.status == 1, "\(made)")
        let (status, text, counts) = try Self.render(dir.appendingPathComponent("both.svg"), in: dir)
        #expect(status == 0, "\(text)")
        #expect(text.hasPrefix("size 800 400 8"), "\(text)")
        #expect((counts["blue"] ?? 0) > 10_000, "\(text)")
        #expect((counts["orange"] ?? 0) > 20_000, "\(text)")
        #expect((counts["purple"] ?? 0) > 200, "the base's dashed line: \(text)")
        #expect((counts["white"] ?? 0) > 40_000, "\(text)")
    }

    @Test func anUnknownProfileIsAnErrorOfItsRun() throws {
        let outcome = try CLI.policyc(["simulate", "--profile", "fast"], in: CLI.packageRoot)
        #expect(outcome.status == 1)
        #expect(outcome.err.contains("policy 'playback' has no profile 'fast'; its profiles are 'interactive' and 'background'"))
    }

    @Test func theScenarioSchemaIsPrinted() throws {
        let outcome = try CLI.policyc(["schema", "--scenario"])
        #expect(outcome.status == 0)
        let schema = try CLI.json(outcome.out)
        #expect(schema["$id"] as? String == "urn:policyc:schema:scenario:1")
        #expect(try CLI.policyc(["schema"]).out != outcome.out)
    }

    // MARK: the chart, rendered

    static func which(_ tool: String) -> Bool {
        (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").contains {
            FileManager.default.isExecutableFile(atPath: "\($0)/\(tool)")
        }
    }

    static let rsvgReady = which("rsvg-convert") && which("python3")
    static var isCI: Bool { ProcessInfo.processInfo.environment["CI"] == "true" }

    /// Reads a PNG with the standard library only (zlib, struct): its size, and how many pixels of
    /// the plot area are near each colour of the chart.
    static let pngProbe = #"""
        import struct, sys, zlib
        data = open(sys.argv[1], "rb").read()
        assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
        pos, idat = 8, b""
        while pos < len(data):
            n, kind = struct.unpack(">I4s", data[pos:pos + 8])
            body = data[pos + 8:pos + 8 + n]
            if kind == b"IHDR":
                w, h, depth, ctype = struct.unpack(">IIBB", body[:10])
            elif kind == b"IDAT":
                idat += body
            pos += 12 + n
        print("size", w, h, depth, ctype)
        bpp = {6: 4, 2: 3}[ctype]
        raw, stride = zlib.decompress(idat), w * bpp
        rows, prev, i = [], bytearray(stride), 0
        for y in range(h):
            f, line = raw[i], bytearray(raw[i + 1:i + 1 + stride])
            i += 1 + stride
            for x in range(stride):
                a = line[x - bpp] if x >= bpp else 0
                b, c = prev[x], (prev[x - bpp] if x >= bpp else 0)
                if f == 1: line[x] = (line[x] + a) & 255
                elif f == 2: line[x] = (line[x] + b) & 255
                elif f == 3: line[x] = (line[x] + (a + b) // 2) & 255
                elif f == 4:
                    p = a + b - c
                    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                    line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
            rows.append(line)
            prev = line
        def near(rgb, tol=40):
            count = 0
            for y in range(70, 335):
                row = rows[y]
                for x in range(80, 780):
                    p = row[x * bpp:x * bpp + 3]
                    if all(abs(p[k] - rgb[k]) <= tol for k in range(3)): count += 1
            return count
        print("blue", near((0x4e, 0x79, 0xa7)))
        print("orange", near((0xf2, 0x8e, 0x2b)))
        print("white", near((255, 255, 255), 2))
        print("outage", near((0xfb, 0xe6, 0xe6), 12))
        print("purple", near((0x7b, 0x32, 0x94)))
        """#

    /// `svg` rendered by rsvg-convert, then its plot area's pixels counted by colour (pngProbe).
    static func render(_ svg: URL, in dir: URL) throws -> (status: Int32, probe: String, counts: [String: Int]) {
        let png = dir.appendingPathComponent(svg.lastPathComponent + ".png")
        let render = Process()
        render.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        render.arguments = ["rsvg-convert", "--format", "png", "--output", png.path, svg.path]
        try render.run()
        render.waitUntilExit()
        guard render.terminationStatus == 0 else { return (render.terminationStatus, "", [:]) }
        let probeScript = dir.appendingPathComponent("probe.py")
        try Self.pngProbe.write(to: probeScript, atomically: true, encoding: .utf8)
        let probe = Process()
        let out = Pipe()
        probe.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        probe.arguments = ["python3", probeScript.path, png.path]
        probe.standardOutput = out
        try probe.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        probe.waitUntilExit()
        var counts: [String: Int] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: " ")
            if parts.count == 2 { counts[String(parts[0])] = Int(parts[1]) }
        }
        return (probe.terminationStatus, text, counts)
    }

    @Test(.enabled(if: rsvgReady || isCI, "rsvg-convert (librsvg2-bin) and python3 are not installed (required when CI=true)"))
    func theChartRendersAsARealPicture() throws {
        let dir = try Self.workspace()
        defer { try? FileManager.default.removeItem(at: dir) }
        let outcome = try CLI.policyc(["simulate", "--format", "svg", "--chart", "chart.svg"], in: dir)
        #expect(outcome.status == 0, "\(outcome)")
        let written = try String(contentsOf: dir.appendingPathComponent("chart.svg"), encoding: .utf8)
        #expect(written == outcome.out)
        #expect(written.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"800\" height=\"400\""))
        for banned in ["<script", "href", "@import", "url(", "<foreignObject"] { #expect(!written.contains(banned)) }
        for part in ["playback (Policies/playback.yaml) · interactive · outage (seed 1)", "time (s)", "requests per second", "first attempts",
                     "retries", "successes", "capacity", "outage, 503"] {
            #expect(written.contains(part), "no '\(part)' in the chart")
        }

        let (status, text, counts) = try Self.render(dir.appendingPathComponent("chart.svg"), in: dir)
        #expect(status == 0)
        #expect(text.hasPrefix("size 800 400 8"), "\(text)")
        // The plot area is 700 × 265 = 185 500 pixels: first attempts fill the bottom across the
        // whole run, retries the outage's 30 s, its shading the rest of those 30 s, white above.
        #expect((counts["blue"] ?? 0) > 25_000, "\(text)")
        #expect((counts["orange"] ?? 0) > 5_000, "\(text)")
        #expect((counts["outage"] ?? 0) > 2_000, "\(text)")
        #expect((counts["white"] ?? 0) > 50_000, "\(text)")
    }

    // MARK: in review

    @Test func diffAddsTheOutageLineWhenRetryBehaviourChanges() throws {
        let fewer = CLI.canonical.replacingOccurrences(of: "maxRetries: 3 ", with: "maxRetries: 1 ")
        let prefetch = CLI.canonical.replacingOccurrences(of: "ahead: 2", with: "ahead: 1")
        let dir = try Self.workspace(["new/playback.yaml": fewer, "other/playback.yaml": prefetch])
        defer { try? FileManager.default.removeItem(at: dir) }
        let text = try CLI.policyc(["diff", "Policies", "new"], in: dir)
        #expect(text.status == 0, "\(text)")
        #expect(text.out.contains("  outage (simulated with 'policyc simulate --scenario outage': 100000 devices"))
        #expect(text.out.contains("    interactive: in a 30 s outage: peak load 4.25× → 2.16× of normal; viewers who see Retry "))
        #expect(text.out.contains("    background: in a 30 s outage: peak load 6.55× of normal (unchanged); calls that fail "))
        let markdown = try CLI.policyc(["diff", "Policies", "new", "--format", "markdown"], in: dir)
        #expect(markdown.out.contains("- `interactive`: in a 30 s outage: peak load 4.25× → 2.16× of normal;"))
        let json = try CLI.policyc(["diff", "Policies", "new", "--format", "json"], in: dir)
        let review = try #require((try CLI.json(json.out)["policies"] as? [[String: Any]])?.first)
        let outage = try #require(review["outage"] as? [[String: Any]])
        #expect(outage.map { $0["profile"] as? String } == ["interactive", "background"])
        #expect((outage[0]["before"] as? [String: Any])?["peakLoad"] as? Double == 4.25)
        #expect((outage[0]["effect"] as? String)?.hasPrefix("in a 30 s outage: peak load 4.25× → 2.16× of normal") == true)
        // A change that leaves retries alone runs nothing.
        let other = try CLI.policyc(["diff", "Policies", "other"], in: dir)
        #expect(other.status == 0 && !other.out.contains("in a 30 s outage"), "\(other)")
        #expect(try CLI.policyc(["diff", "Policies", "other", "--format", "json"], in: dir).out.contains("\"outage\"") == false)
    }

    @Test func explainGivesTheFiguresForOneSide() throws {
        let text = try CLI.policyc(["explain"], in: CLI.packageRoot)
        #expect(text.status == 0)
        #expect(text.out.contains("    Simulated in a 30 s outage: peak load 4.25× of normal; viewers who see Retry "))
        #expect(text.out.contains("(policyc simulate --scenario outage).\n"))
        let json = try CLI.policyc(["explain", "--format", "json"], in: CLI.packageRoot)
        let profile = try #require(((try CLI.json(json.out)["policies"] as? [String: Any])?["playback"] as? [String: Any])?["profiles"] as? [String: Any])
        let outage = try #require((profile["interactive"] as? [String: Any])?["outage"] as? [String: Any])
        #expect(outage["peakLoad"] as? Double == 4.25 && outage["recoverySeconds"] as? Int == 0)
    }
}
