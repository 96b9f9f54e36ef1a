// Compiled by GeneratorCompileTests together with Generated/Swift/PlaybackPolicy.swift and the
// generated HostilePolicy.swift, ExoticPolicy.swift and CrowdedPolicy.swift, in language modes 5
// and 6 and with default MainActor isolation. Everything runs in a detached task, so the generated
// code is called from outside any actor.
//
//   driver VECTORS.tsv        runs the reference vectors, checks policies with other values, and
//                             prints what the hostile policy's strings hold, scalar by scalar
//   driver --answers CASES    answers every case for each policy, for comparison with the other
//                             languages (see GeneratorCompileTests.cases)
//   driver --retry-after CASES  reads every Retry-After case with PlaybackPolicy.parseRetryAfter
//   driver --calls CALLS      runs every scripted call through PlaybackPolicy.callWithRetries
//                             (see CallTranscripts for the format and what is printed)
//   driver --batches CASES    runs every batch case through the named policy's itemsToRetry
//                             (see GeneratorCompileTests.batchCases)
import Foundation

/// A clock the test moves by hand.
nonisolated final class Clock: @unchecked Sendable {
    var ms: Int64 = 0
}

/// One generated policy behind closures, so that the cases run against each alike.
nonisolated struct Face {
    var name: String
    var isRetryable: (Int?, String?) -> Bool
    /// attempt, Retry-After, base, cap, random.
    var backoffMs: (Int, Double?, Int, Int, () -> Double) -> Double
    /// A budget on `clock`: noteRequest, tryRetry.
    var budget: (Clock) -> (() -> Void, () -> Bool)
}

nonisolated func makeFaces() -> [Face] {
    [
        Face(name: "playback", isRetryable: PlaybackPolicy.isRetryable,
             backoffMs: { PlaybackPolicy.backoffMs(attempt: $0, retryAfterS: $1, profile: .init(maxRetries: 0, baseMs: $2, capMs: $3, timeoutMs: 0, deadlineMs: 0), random: $4) },
             budget: { clock in let b = PlaybackPolicy.RetryBudget(now: { clock.ms }); return (b.noteRequest, b.tryRetry) }),
        Face(name: "hostile", isRetryable: HostilePolicy.isRetryable,
             backoffMs: { HostilePolicy.backoffMs(attempt: $0, retryAfterS: $1, profile: .init(maxRetries: 0, baseMs: $2, capMs: $3, timeoutMs: 0, deadlineMs: 0), random: $4) },
             budget: { clock in let b = HostilePolicy.RetryBudget(now: { clock.ms }); return (b.noteRequest, b.tryRetry) }),
        Face(name: "exotic", isRetryable: ExoticPolicy.isRetryable,
             backoffMs: { ExoticPolicy.backoffMs(attempt: $0, retryAfterS: $1, profile: .init(maxRetries: 0, baseMs: $2, capMs: $3, timeoutMs: 0, deadlineMs: 0), random: $4) },
             budget: { clock in let b = ExoticPolicy.RetryBudget(now: { clock.ms }); return (b.noteRequest, b.tryRetry) }),
    ]
}

nonisolated func bits(_ d: Double) -> String {
    let hex = String(d.bitPattern, radix: 16)
    return String(repeating: "0", count: 16 - hex.count) + hex
}

nonisolated func double(bits: Substring) -> Double? {
    UInt64(bits, radix: 16).map(Double.init(bitPattern:))
}

/// The ops of a budget line (`10t,11r,...`) on a fresh budget whose clock starts at `t0`: one
/// 1 or 0 per tryRetry.
nonisolated func runBudget(_ face: Face, t0: Int64, ops: Substring) -> String {
    let clock = Clock()
    clock.ms = t0
    let (note, tryRetry) = face.budget(clock)
    var answers = ""
    for op in ops.split(separator: ",") {
        clock.ms = Int64(op.dropLast())!
        if op.last == "r" { note() } else { answers += tryRetry() ? "1" : "0" }
    }
    return answers
}

nonisolated func runVectors(_ path: String) -> Int32 {
    guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
        print("cannot read \(path)")
        return 2
    }
    var failures = 0
    var checked = 0
    func fail(_ message: String) {
        failures += 1
        print("FAIL " + message)
    }
    func expect(_ ok: Bool, _ what: String) {
        checked += 1
        if !ok { fail(what) }
    }
    let playback = makeFaces()[0]

    for line in text.split(separator: "\n") where !line.hasPrefix("#") {
        let f = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        checked += 1
        switch f[0] {
        case "retryable":
            let status = f[1] == "-" ? nil : Int(f[1])
            let code = f[2] == "-" ? nil : f[2]
            let got = PlaybackPolicy.isRetryable(status: status, errorCode: code)
            if String(got) != f[3] { fail("\(line): got \(got)") }
        case "backoff":
            guard let profile = PlaybackPolicy.profileNamed(String(f[1])), let attempt = Int(f[2]),
                  let r = Double(f[4]), let expected = Double(f[5]) else { fail("bad line \(line)"); continue }
            let retryAfter = f[3] == "-" ? nil : Double(f[3])
            var calls = 0
            let got = PlaybackPolicy.backoffMs(attempt: attempt, retryAfterS: retryAfter, profile: profile) {
                calls += 1
                return r
            }
            if got != expected || calls != 1 { fail("\(line): got \(got) with \(calls) calls of random()") }
        case "budget":
            let answers = runBudget(playback, t0: Int64(f[1])!, ops: Substring(f[2]))
            let expected = f[3] == "-" ? "" : f[3]
            if answers != expected { fail("\(line.prefix(60))…: got \(answers)") }
        default:
            fail("unknown line \(line)")
        }
    }

    // The constants, and the default clock: monotonic (uptime), so a budget made now starts full.
    expect(PlaybackPolicy.interactive == PlaybackPolicy.RetryProfile(maxRetries: 3, baseMs: 500, capMs: 8000, timeoutMs: 8000, deadlineMs: 15000),
           "interactive profile values (kind interactive by default)")
    expect(PlaybackPolicy.background.kind == .background && PlaybackPolicy.interactive.kind == .interactive, "profile kinds")
    expect(PlaybackPolicy.budgetRatio == 0.1 && PlaybackPolicy.budgetMinPerMinute == 10 && PlaybackPolicy.retryableStatuses == [429, 500, 502, 503],
           "budget and statuses")
    let defaultBudget = PlaybackPolicy.RetryBudget()
    var granted = 0
    for _ in 0..<20 where defaultBudget.tryRetry() { granted += 1 }
    expect(granted == 10, "a budget on the default clock allows the floor of 10, got \(granted)")

    // HostilePolicy has other values: no network, 429/503, jitter 250 ms, ratio 2.5 %, floor 3.
    let h = HostilePolicy.self
    let slow = h.profileNamed("slow")!
    expect(!h.isRetryable(status: nil, errorCode: nil), "hostile: network errors are not retried")
    expect(h.isRetryable(status: 429, errorCode: nil), "hostile: 429 is retried")
    expect(h.isRetryable(status: 429) && !h.isRetryable(status: 500) && PlaybackPolicy.isRetryable(status: nil),
           "isRetryable without an error code, as the guide's errorCode?")
    expect(!h.isRetryable(status: 500, errorCode: nil), "hostile: 500 is not retried")
    expect(!h.isRetryable(status: 503, errorCode: "not_ready"), "hostile: 503 not_ready is not retried")
    expect(h.isRetryable(status: 503, errorCode: "busy"), "hostile: 503 busy is retried")
    expect(!h.isRetryable(status: 429, errorCode: GenSupportStrings.hostileCode), "hostile: its own 429 code is not retried")
    expect(h.backoffMs(attempt: 0, retryAfterS: 2, profile: slow, random: { 0.5 }) == 2125, "hostile: jitter 250 ms")
    expect(h.backoffMs(attempt: 2, retryAfterS: -1, profile: slow, random: { 0.5 }) == 2000, "hostile: negative Retry-After, exponential")
    expect(h.backoffMs(attempt: Int.max, retryAfterS: nil, profile: slow, random: { 0.5 }) == 5000, "hostile: huge attempt gives the cap")
    let hostileClock = Clock()
    let hostileBudget = HostilePolicy.RetryBudget(now: { hostileClock.ms })
    for _ in 0..<200 { hostileBudget.noteRequest() }
    granted = 0
    while hostileBudget.tryRetry() { granted += 1 }
    expect(granted == 5, "hostile: 200 requests at 2.5 % allow 5 retries, got \(granted)")
    hostileClock.ms = 60_001
    granted = 0
    while hostileBudget.tryRetry() { granted += 1 }
    expect(granted == 3, "hostile: a new minute allows the floor of 3, got \(granted)")

    // ExoticPolicy: Retry-After not honored, ratio 7.5 %, floor 0, and codes that only differ from
    // an answer's by Unicode equivalence or look: never the same code.
    let x = ExoticPolicy.self
    let wait = x.profileNamed("wait")!
    expect(x.backoffMs(attempt: 3, retryAfterS: 30, profile: wait, random: { 0.5 }) == 1500, "exotic: Retry-After is not honored; equal jitter")
    expect(x.backoffMs(attempt: 10, retryAfterS: nil, profile: wait, random: { 0.25 }) == 3750, "exotic: the cap of 6 s, equal jitter")
    let exoticClock = Clock()
    let exoticBudget = ExoticPolicy.RetryBudget(now: { exoticClock.ms })
    expect(!exoticBudget.tryRetry(), "exotic: a floor of 0 allows no retry before any request")
    for _ in 0..<40 { exoticBudget.noteRequest() }
    granted = 0
    while exoticBudget.tryRetry() { granted += 1 }
    expect(granted == 3, "exotic: 40 requests at 7.5 % allow 3 retries, got \(granted)")
    for (status, code, retryable) in exoticCases {
        expect(x.isRetryable(status: status, errorCode: code) == retryable,
               "exotic: \(status) \(code.unicodeScalars.map { String($0.value, radix: 16) }) retryable \(retryable)")
    }

    func scalars(_ s: String?) -> String {
        guard let s else { return "nil" }
        return s.unicodeScalars.map { String($0.value, radix: 16) }.joined(separator: " ")
    }
    // Typed values, profiles in the policy's order, durations, whole milliseconds.
    let p = PlaybackPolicy.self
    expect(p.backoffStrategy == .fullJitter && p.backoffStrategy.rawValue == "full-jitter" && p.viewerRef == .perViewerDevice
           && p.ticketReuseKey == [.viewer, .device, .episode, .intent] && HostilePolicy.ViewerRefKind.userId.rawValue == "user-id",
           "enums for the strategy, the viewer ref and the reuse key")
    expect(p.allProfiles.map(\.key) == ["interactive", "background"] && p.profileNamed("background") == p.background
           && p.profileNamed("nope") == nil && CrowdedPolicy.allProfiles.first?.key == "min", "profiles in the policy's order")
    expect(p.interactive.timeout == .seconds(8) && p.background.deadline == .seconds(120) && p.retryAfterMaxJitter == .seconds(1)
           && p.backoffDelayMs(attempt: 0, retryAfterS: 2, profile: p.interactive, random: { 0.0001 }) == 2001
           && p.backoffDelayMs(attempt: 0, retryAfterS: 1e300, profile: p.interactive, random: { 0 }) == Int.max,
           "durations and whole milliseconds, rounded up")
    print("description: " + scalars(HostilePolicy.policyDescription))
    print("codes: " + HostilePolicy.neverRetry.map { scalars($0.code) }.joined(separator: " | "))
    print("checked \(checked), failed \(failures)")
    return failures == 0 ? 0 : 1
}

/// The hostile policy's second code, as the test writes it.
nonisolated enum GenSupportStrings {
    static let hostileCode = "\"); exit(1); //*/ ${x} $y \\(z) \u{2028}"
}

/// Status, the answer's code, and whether ExoticPolicy retries it: its neverRetry codes are
/// U+0958, é (NFC), the Kelvin sign, Cyrillic а and Å written as A + ring (NFD).
nonisolated let exoticCases: [(Int, String, Bool)] = [
    (503, "\u{958}", false), (503, "\u{915}\u{93C}", true),
    (503, "\u{E9}", false), (503, "e\u{301}", true),
    (429, "\u{212A}", false), (429, "K", true),
    (500, "\u{430}", false), (500, "a", true),
    (503, "A\u{30A}", false), (503, "\u{C5}", true), (503, "\u{212B}", true),
    (503, "not_ready", false), (503, "NOT_READY", true),
]

/// For each face, one line per case: `name<TAB>index<TAB>answer`.
nonisolated func runAnswers(_ path: String) -> Int32 {
    guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
        print("cannot read \(path)")
        return 2
    }
    let cases = text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { $0.split(separator: "\t", omittingEmptySubsequences: false) }
    var out = ""
    for face in makeFaces() {
        for (i, f) in cases.enumerated() {
            let answer: String
            switch f[0] {
            case "retryable":
                let status = f[1] == "-" ? nil : Int(f[1])
                let code = f[2] == "-" ? nil : String(f[2]).removingPercentEncoding
                answer = String(face.isRetryable(status, code))
            case "backoff":
                let r = double(bits: f[5])!
                var calls = 0
                let d = face.backoffMs(Int(f[3])!, f[4] == "-" ? nil : double(bits: f[4]), Int(f[1])!, Int(f[2])!) {
                    calls += 1
                    return r
                }
                answer = bits(d) + "/" + String(calls)
            case "budget":
                answer = "=" + runBudget(face, t0: Int64(f[1])!, ops: f[2])
            default:
                answer = "unknown"
            }
            out += face.name + "\t" + String(i) + "\t" + answer + "\n"
        }
    }
    FileHandle.standardOutput.write(Data(out.utf8))
    return 0
}

/// The world of one scripted call (see CallTranscripts): a clock, the random numbers, the script.
nonisolated final class CallWorld: @unchecked Sendable {
    var clock: Int64 = 0
    var tick: Int64 = 0
    var drawn = 0
    var sleeps = 0
    var timeouts: [Int] = []
}

/// Runs one transcript line through `PlaybackPolicy.callWithRetries`.
nonisolated func runCall(_ f: [Substring]) async -> String {
    let world = CallWorld()
    let t0 = Int64(f[2])!, wall0 = Int64(f[3])!
    world.clock = t0
    world.tick = Int64(f[4])!
    let budget = PlaybackPolicy.RetryBudget(now: { world.clock })
    for _ in 0..<Int(f[5])! { budget.noteRequest() }
    for _ in 0..<Int(f[6])! { _ = budget.tryRetry() }
    let cancel = String(f[7])
    let randoms = f[8].split(separator: ",").map { double(bits: $0)! }
    let steps = f[9].split(separator: ";").map { $0.split(separator: ",", omittingEmptySubsequences: false) }
    let profile = f[1] == "interactive" ? PlaybackPolicy.interactive : PlaybackPolicy.background
    func text(_ s: Substring) -> String? { s == "-" ? nil : String(s).removingPercentEncoding! }
    let outcome = await PlaybackPolicy.callWithRetries(
        profile: profile, budget: budget,
        now: { defer { world.clock += world.tick }; return world.clock },
        wallNow: { wall0 + (world.clock - t0) },
        sleep: { ms in
            if cancel == "s\(world.sleeps)" { withUnsafeCurrentTask { $0?.cancel() } }
            world.sleeps += 1
            try Task.checkCancellation()
            world.clock += Int64(ms.rounded(.up))
        },
        random: { defer { world.drawn += 1 }; return randoms[world.drawn % randoms.count] }
    ) { n, timeout in
        world.timeouts.append(timeout)
        let step = steps[Swift.min(n, steps.count - 1)]
        world.clock += Int64(step[0])!
        if cancel == "a\(n)" { withUnsafeCurrentTask { $0?.cancel() } }
        return PlaybackPolicy.AttemptResult(status: step[1] == "-" ? nil : Int(step[1])!, errorCode: text(step[2]), retryAfter: text(step[3]))
    }
    return [outcome.reason.rawValue, String(outcome.attempts), outcome.waitsMs.map(bits).joined(separator: ","),
            world.timeouts.map(String.init).joined(separator: ","), String(world.drawn)].joined(separator: "\t")
}

/// One line per transcript, each call in a task of its own (a cancelled one ends with its call).
nonisolated func runCalls(_ path: String) async -> Int32 {
    guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
        print("cannot read \(path)")
        return 2
    }
    var out = ""
    for line in text.split(separator: "\n") where !line.hasPrefix("#") {
        let f = line.split(separator: "\t", omittingEmptySubsequences: false)
        out += await Task.detached { await runCall(f) }.value + "\n"
    }
    FileHandle.standardOutput.write(Data(out.utf8))
    return 0
}

/// One batch case's answer: the indices to ask again, then the wait's bits or `none`; `inconsistent`
/// when the items are not those at the indices or the wait is not the seconds in milliseconds.
nonisolated func batchAnswer<Item: Equatable>(_ raw: [[Substring]], _ make: (Bool, Int?, String?, Double?) -> Item,
                                              _ run: ([Item]) -> ([Int], [Item], Double?, Double?)) -> String {
    let items = raw.map { f in make(f[0] == "prefetch", f[1] == "-" ? nil : Int(f[1])!, f[2] == "-" ? nil : String(f[2]),
                                    f[3] == "-" ? nil : Double(f[3])!) }
    let (indices, again, retryAfterS, waitMs) = run(items)
    let consistent = again == indices.map { items[$0] } && waitMs == retryAfterS.map { $0 * 1000 }
    return indices.map(String.init).joined(separator: ",") + "\t" + (waitMs.map(bits) ?? "none") + (consistent ? "" : "\tinconsistent")
}

/// One line per batch case: `policy<TAB>items`, items `intent,status,code,retryAfterS` split by `;`.
nonisolated func runBatches(_ path: String) -> Int32 {
    guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return 2 }
    var out = ""
    for line in text.split(separator: "\n") where !line.hasPrefix("#") {
        let f = line.split(separator: "\t", omittingEmptySubsequences: false)
        let raw = f[1].split(separator: ";").map { $0.split(separator: ",", omittingEmptySubsequences: false) }
        switch f[0] {
        case "playback":
            out += batchAnswer(raw, { PlaybackPolicy.TicketItem(intent: $0 ? .prefetch : .play, status: $1, errorCode: $2, retryAfterS: $3) },
                               { let r = PlaybackPolicy.itemsToRetry($0); return (r.indices, r.items, r.retryAfterS, r.waitMs) })
        case "hostile":
            out += batchAnswer(raw, { HostilePolicy.TicketItem(intent: $0 ? .prefetch : .play, status: $1, errorCode: $2, retryAfterS: $3) },
                               { let r = HostilePolicy.itemsToRetry($0); return (r.indices, r.items, r.retryAfterS, r.waitMs) })
        case "exotic":
            out += batchAnswer(raw, { ExoticPolicy.TicketItem(intent: $0 ? .prefetch : .play, status: $1, errorCode: $2, retryAfterS: $3) },
                               { let r = ExoticPolicy.itemsToRetry($0); return (r.indices, r.items, r.retryAfterS, r.waitMs) })
        case "crowded":
            out += batchAnswer(raw, { CrowdedPolicy.TicketItem(intent: $0 ? .prefetch : .play, status: $1, errorCode: $2, retryAfterS: $3) },
                               { let r = CrowdedPolicy.itemsToRetry($0); return (r.indices, r.items, r.retryAfterS, r.waitMs) })
        default:
            out += "unknown policy"
        }
        out += "\n"
    }
    FileHandle.standardOutput.write(Data(out.utf8))
    return 0
}

let arguments = CommandLine.arguments
let status = await Task.detached { () async -> Int32 in
    if arguments.count == 3 && arguments[1] == "--answers" { return runAnswers(arguments[2]) }
    if arguments.count == 3 && arguments[1] == "--calls" { return await runCalls(arguments[2]) }
    if arguments.count == 3 && arguments[1] == "--batches" { return runBatches(arguments[2]) }
    if arguments.count == 3 && arguments[1] == "--retry-after", let text = try? String(contentsOfFile: arguments[2], encoding: .utf8) {
        var out = ""
        for line in text.split(separator: "\n") {
            let f = line.split(separator: "\t", omittingEmptySubsequences: false)
            out += (PlaybackPolicy.parseRetryAfter(String(f[0]).removingPercentEncoding!, nowMs: Int64(f[1])!).map(bits) ?? "none") + "\n"
        }
        FileHandle.standardOutput.write(Data(out.utf8))
        return 0
    }
    if arguments.count == 2 { return runVectors(arguments[1]) }
    print("usage: driver VECTORS.tsv | driver --answers CASES.tsv")
    return 2
}.value
exit(status)
