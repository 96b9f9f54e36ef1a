// Compiled by GeneratorCompileTests together with Generated/Swift/PlaybackPolicy.swift and a
// generated HostilePolicy.swift: runs the reference vectors, checks a policy with other values,
// and prints what the hostile policy's strings hold, scalar by scalar.
import Foundation

/// A clock the test moves by hand.
final class Clock: @unchecked Sendable {
    var ms: Int64 = 0
}

func full(_ d: Double) -> String { String(format: "%.17g", d) }

/// Everything in one function: its counters are locals, isolated in both language modes.
func runAll() -> Int32 {
    var failures = 0
    var checked = 0
    func fail(_ message: String) {
        failures += 1
        print("FAIL " + message)
    }


    let args = CommandLine.arguments
    guard args.count == 2, let text = try? String(contentsOfFile: args[1], encoding: .utf8) else {
        print("usage: driver VECTORS.tsv")
        return 2
    }

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
            guard let profile = PlaybackPolicy.allProfiles[f[1]], let attempt = Int(f[2]),
                  let r = Double(f[4]), let expected = Double(f[5]) else { fail("bad line \(line)"); continue }
            let retryAfter = f[3] == "-" ? nil : Double(f[3])
            var calls = 0
            let got = PlaybackPolicy.backoffMs(attempt: attempt, retryAfterS: retryAfter, profile: profile) {
                calls += 1
                return r
            }
            if got != expected || calls != 1 { fail("\(line): got \(full(got)) with \(calls) calls of random()") }
        case "budget":
            let clock = Clock()
            clock.ms = Int64(f[1])!
            let budget = PlaybackPolicy.RetryBudget(now: { clock.ms })
            var answers = ""
            for op in f[2].split(separator: ",") {
                clock.ms = Int64(op.dropLast())!
                if op.last == "r" { budget.noteRequest() } else { answers += budget.tryRetry() ? "1" : "0" }
            }
            let expected = f[3] == "-" ? "" : f[3]
            if answers != expected { fail("\(line.prefix(60))…: got \(answers)") }
        default:
            fail("unknown line \(line)")
        }
    }

    // HostilePolicy has other values: no network, 429/503, jitter 250 ms, ratio 2.5 %, floor 3.
    let h = HostilePolicy.self
    func expect(_ ok: Bool, _ what: String) {
        checked += 1
        if !ok { fail("hostile: " + what) }
    }
    expect(!h.isRetryable(status: nil, errorCode: nil), "network errors are not retried")
    expect(h.isRetryable(status: 429, errorCode: nil), "429 is retried")
    expect(!h.isRetryable(status: 500, errorCode: nil), "500 is not retried")
    expect(!h.isRetryable(status: 503, errorCode: "not_ready"), "503 not_ready is not retried")
    expect(h.isRetryable(status: 503, errorCode: "busy"), "503 busy is retried")
    expect(h.backoffMs(attempt: 0, retryAfterS: 2, profile: h.allProfiles["slow"]!, random: { 0.5 }) == 2125, "jitter 250 ms")
    expect(h.backoffMs(attempt: 2, retryAfterS: -1, profile: h.allProfiles["slow"]!, random: { 0.5 }) == 1000, "negative Retry-After")
    expect(h.backoffMs(attempt: Int.max, retryAfterS: nil, profile: h.allProfiles["slow"]!, random: { 0.5 }) == 2500, "huge attempt gives the cap")
    let hostileClock = Clock()
    let hostileBudget = HostilePolicy.RetryBudget(now: { hostileClock.ms })
    for _ in 0..<200 { hostileBudget.noteRequest() }
    var granted = 0
    while hostileBudget.tryRetry() { granted += 1 }
    expect(granted == 5, "200 requests at 2.5 % allow 5 retries, got \(granted)")
    hostileClock.ms = 60_001
    granted = 0
    while hostileBudget.tryRetry() { granted += 1 }
    expect(granted == 3, "a new minute allows the floor of 3, got \(granted)")

    func scalars(_ s: String?) -> String {
        guard let s else { return "nil" }
        return s.unicodeScalars.map { String($0.value, radix: 16) }.joined(separator: " ")
    }
    print("description: " + scalars(HostilePolicy.policyDescription))
    print("codes: " + HostilePolicy.neverRetry.map { scalars($0.code) }.joined(separator: " | "))
    print("checked \(checked), failed \(failures)")
    return failures == 0 ? 0 : 1
}

exit(runAll())
