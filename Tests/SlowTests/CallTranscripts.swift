import Foundation
@testable import PolicyKit
@testable import TestSupport

/// Scripted calls for the generated `callWithRetries` of every language, and a reference executor
/// written from SPEC §7.1 (not from the generated code) that says what each must do.
///
/// A transcript is one line of tab-separated fields:
///
///     call PROFILE T0 WALL0 TICK PRE_REQUESTS PRE_RETRIES CANCEL RANDOMS ATTEMPTS
///
/// The drivers run it the same way in each language: the clock starts at T0 and `now()` moves it
/// TICK ms after each reading; `wallNow()` is WALL0 + (clock - T0); the budget (on the clock, not
/// moving it) is given PRE_REQUESTS `noteRequest()`s and PRE_RETRIES `tryRetry()`s first; `random()`
/// returns RANDOMS (hex double bits) in turn, round and round; attempt n moves the clock by its
/// DURATION and gives its STATUS (`-` a network error), CODE and RETRY_AFTER (percent-encoded, `-`
/// none) (ATTEMPTS: `;`-separated `DURATION,STATUS,CODE,RETRY_AFTER`, the last repeated when more
/// attempts come); `sleep(ms)` moves the clock by ceil(ms). CANCEL `aN` cancels during attempt N
/// (Swift: the task, TypeScript: the AbortSignal, Kotlin: the thread's interrupt), `sN` during
/// sleep N, `-` never; a sleep of a cancelled call ends it.
///
/// Each driver prints, per transcript: `reason<TAB>attempts<TAB>waits<TAB>timeouts<TAB>draws`, the
/// waits as hex double bits and the timeouts given to `attempt`, both comma-separated.
enum CallTranscripts {
    /// What a Retry-After text means, as the test made it.
    enum RetryAfter {
        case seconds(Double)
        case dateMs(Int64)
        case none
    }

    struct Step {
        var duration: Int64
        var status: Int?
        var code: String?
        var retryAfter: String?
        var meaning: RetryAfter
    }

    struct Transcript {
        var profile: String
        var t0: Int64
        var wall0: Int64
        var tick: Int64
        var preRequests: Int
        var preRetries: Int
        var cancel: String?
        var randoms: [Double]
        var steps: [Step]

        var line: String {
            let steps = steps.map { s in
                "\(s.duration),\(s.status.map(String.init) ?? "-"),\(s.code.map(encoded) ?? "-"),\(s.retryAfter.map(encoded) ?? "-")"
            }
            return ["call", profile, "\(t0)", "\(wall0)", "\(tick)", "\(preRequests)", "\(preRetries)", cancel ?? "-",
                    randoms.map { hex($0) }.joined(separator: ","), steps.joined(separator: ";")].joined(separator: "\t")
        }
    }

    static func hex(_ d: Double) -> String {
        let h = String(d.bitPattern, radix: 16)
        return String(repeating: "0", count: 16 - h.count) + h
    }

    /// Letters, digits and `_` as they are, every other UTF-8 byte as `%XX`.
    static func encoded(_ s: String) -> String {
        var out = ""
        for b in s.utf8 {
            if (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x5F {
                out.unicodeScalars.append(Unicode.Scalar(b))
            } else {
                out += "%" + (b < 0x10 ? "0" : "") + String(b, radix: 16, uppercase: true)
            }
        }
        return out
    }

    // MARK: making them

    static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    static let longWeekdays = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]
    static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// An HTTP-date of `ms` (whole seconds) in one of its three forms (0 IMF-fixdate, 1 RFC 850, 2 asctime).
    static func httpDate(_ ms: Int64, form: Int) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "GMT")!
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second, .weekday],
                                        from: Date(timeIntervalSince1970: Double(ms) / 1000))
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let time = "\(two(c.hour!)):\(two(c.minute!)):\(two(c.second!))"
        let month = months[c.month! - 1]
        switch form {
        case 0: return "\(weekdays[c.weekday! - 1]), \(two(c.day!)) \(month) \(c.year!) \(time) GMT"
        case 1: return "\(longWeekdays[c.weekday! - 1]), \(two(c.day!))-\(month)-\(two(c.year! % 100)) \(time) GMT"
        default: return "\(weekdays[c.weekday! - 1]) \(month) \(c.day! < 10 ? " \(c.day!)" : "\(c.day!)") \(time) \(c.year!)"
        }
    }

    /// Texts that are no Retry-After at all.
    static let garbage = ["", " 5", "5 ", "-5", "+5", "1.5", "1e3", "0x10", "soon", "12abc", "\u{661}\u{662}", "\u{FF11}\u{FF12}",
                          "Sun, 06 Nov 1994 08:49:37 UTC", "sun, 06 nov 1994 08:49:37 GMT", "Sun, 6 Nov 1994 08:49:37 GMT",
                          "Sun, 31 Nov 1994 08:49:37 GMT", "Tue, 29 Feb 2028 24:00:00 GMT", "Thu, 29 Feb 2029 10:00:00 GMT",
                          "Sunday, 06 Nov 1994 08:49:37 GMT", "Sun Nov 6 08:49:37 1994", "Sun, 06 Nov 1994 08:49:37 GMT ",
                          "Funday, 06-Nov-94 08:49:37 GMT"]

    static func make(count: Int, seed: UInt64) -> [Transcript] {
        var rng = Rng(state: seed)
        func unit() -> Double {
            let bits = (rng.next() << 22) ^ rng.next()
            return Double(bits & ((1 << 53) - 1)) / 9_007_199_254_740_992
        }
        var out: [Transcript] = []
        for _ in 0..<count {
            let profile = rng.below(3) == 0 ? "background" : "interactive"
            let t0: Int64 = rng.pick([0, 5, 1_000_000, 1_700_000_000_000])
            let wall0: Int64 = 1_700_000_000_000 + Int64(rng.below(200_000_000)) * 1000 + Int64(rng.below(1000))
            let tick: Int64 = rng.pick([0, 0, 0, 1, 3, 250])
            let cancel: String? = rng.below(8) == 0 ? (rng.below(2) == 0 ? "a" : "s") + String(rng.below(4)) : nil
            let randoms = (0..<8).map { _ in rng.below(3) == 0 ? rng.pick([0, 0.25, 0.5, 0.999, 0x1.fffffffffffffp-1]) : unit() }
            var steps: [Step] = []
            let tail = rng.below(5) == 0  // mostly short durations; sometimes long ones
            for _ in 0..<(1 + rng.below(7)) {
                let duration: Int64 = tail ? rng.pick([0, 1, 999, 7999, 8000, 8001, 14_999, 15_000, 60_000, 119_999])
                                           : rng.pick([0, 0, 1, 20, 150, 400, 1200])
                let status: Int? = rng.pick([nil, 200, 204, 299, 300, 304, 400, 404, 408, 429, 429, 500, 500, 501, 502, 503, 503, 503, 504])
                let code: String? = rng.below(3) == 0 ? rng.pick(["not_ready", "overloaded", "NOT_READY", ""]) : nil
                var retryAfter: String? = nil
                var meaning = RetryAfter.none
                switch rng.below(6) {
                case 0:
                    let text = rng.pick(["0", "1", "2", "5", "30", "120", "00003", "99999999999999999999"])
                    (retryAfter, meaning) = (text, .seconds(Double(text)!))
                case 1:
                    // A date from 5 s before to 40 s after the call began, in whole seconds.
                    let ms = (wall0 + Int64(rng.below(45_000)) - 5_000) / 1000 * 1000
                    (retryAfter, meaning) = (httpDate(ms, form: rng.below(3)), .dateMs(ms))
                case 2:
                    retryAfter = rng.pick(garbage)
                default:
                    break
                }
                steps.append(Step(duration: duration, status: status, code: code, retryAfter: retryAfter, meaning: meaning))
            }
            out.append(Transcript(profile: profile, t0: t0, wall0: wall0, tick: tick, preRequests: rng.below(60),
                                  preRetries: rng.below(14), cancel: cancel, randoms: randoms, steps: steps))
        }
        return out
    }

    /// Retry-After texts and the times they are read at (`TEXT<TAB>NOW_MS`, TEXT percent-encoded),
    /// each with what `parseRetryAfter` must give: the seconds as hex double bits, or `none`.
    /// Dates fall between 1950 and 2100, read up to 40 years either side (so an RFC 850 two-digit
    /// year has one answer), at times with milliseconds.
    static func retryAfterCases(count: Int, seed: UInt64) -> [(line: String, expected: String)] {
        var rng = Rng(state: seed)
        var out: [(String, String)] = []
        for _ in 0..<count {
            let dateMs = (Int64(rng.below(150 * 365)) * 86_400 + Int64(rng.below(86_400))) * 1000 - 20 * 365 * 86_400_000
            let nowMs = dateMs + Int64(rng.below(2 * 40 * 365)) * 86_400_000 / 2 - 40 * 365 * 86_400_000 / 2
                + Int64(rng.below(3)) * Int64(rng.below(100_000)) - Int64(rng.below(1000))
            let text: String, expected: String
            switch rng.below(4) {
            case 0:
                text = rng.pick(["0", "1", "7", "00009", "120", "3600", "86400", "99999999999999999999",
                                 String(rng.below(1_000_000)), String(repeating: "9", count: 400)])
                expected = hex(Double(text)!)
            case 1:
                text = rng.pick(garbage)
                expected = "none"
            default:
                text = httpDate(dateMs, form: rng.below(3))
                expected = hex(max(0, (Double(dateMs) - Double(nowMs)) / 1000))
            }
            out.append((encoded(text) + "\t" + String(nowMs), expected))
        }
        return out
    }

    // MARK: the reference

    /// SPEC §7.1 on the canonical policy, in the transcripts' world: what every driver must print.
    static func reference(_ t: Transcript) -> String {
        // The canonical policy's values (Policies/playback.yaml), as SPEC §1 writes them.
        let (maxRetries, baseMs, capMs, timeoutMs, deadlineMs): (Int, Double, Double, Int64, Int64) =
            t.profile == "interactive" ? (3, 500, 8000, 8000, 15_000) : (5, 1000, 30_000, 15_000, 120_000)
        func isRetryable(_ status: Int?, _ code: String?) -> Bool {
            guard let status else { return true }
            if status == 503 && code == "not_ready" { return false }
            return [429, 500, 502, 503].contains(status)
        }
        var clock = t.t0
        func now() -> Int64 {
            defer { clock += t.tick }
            return clock
        }
        var drawn = 0
        func random() -> Double {
            defer { drawn += 1 }
            return t.randoms[drawn % t.randoms.count]
        }
        // The guide's budget: 10 % of the last minute's requests, at least 10 a minute.
        var (sent, retries, since) = (0, 0, clock)
        func roll() {
            if Double(clock) - Double(since) > 60_000 { (sent, retries, since) = (0, 0, clock) }
        }
        func noteRequest() { roll(); sent += 1 }
        func tryRetry() -> Bool {
            roll()
            if Double(retries) >= max(10, Double(sent) * 0.1) { return false }
            retries += 1
            return true
        }
        for _ in 0..<t.preRequests { noteRequest() }
        for _ in 0..<t.preRetries { _ = tryRetry() }

        var cancelled = false, sleeps = 0
        var waits: [Double] = [], timeouts: [Int64] = []
        func end(_ reason: String, _ attempts: Int) -> String {
            [reason, "\(attempts)", waits.map { hex($0) }.joined(separator: ","), timeouts.map(String.init).joined(separator: ","),
             "\(drawn)"].joined(separator: "\t")
        }
        let start = now()
        var n = 0
        while true {
            if cancelled { return end("cancelled", n) }
            let timeout = min(timeoutMs, start + deadlineMs - now())
            if timeout <= 0 { return end("deadline", n) }
            noteRequest()
            timeouts.append(timeout)
            let step = t.steps[min(n, t.steps.count - 1)]
            clock += step.duration
            if t.cancel == "a\(n)" { cancelled = true }
            if let s = step.status, s >= 200 && s < 300 { return end("succeeded", n + 1) }
            if !isRetryable(step.status, step.code) { return end("notRetryable", n + 1) }
            if n == maxRetries { return end("retriesUsed", n + 1) }
            // Retry-After is honoured by the canonical policy, with up to 1 s of jitter.
            let wall = t.wall0 + (clock - t.t0)
            var ra: Double? = nil
            switch step.meaning {
            case .seconds(let s): ra = s
            case .dateMs(let ms): ra = max(0, (Double(ms) - Double(wall)) / 1000)
            case .none: ra = nil
            }
            let wait: Double
            if let ra, ra > 0 {
                wait = ra * 1000 + random() * 1000
            } else {
                let v = min(capMs, baseMs * pow(2, Double(n)))
                wait = random() * v
            }
            if Double(now()) + wait >= Double(start + deadlineMs) { return end("deadline", n + 1) }
            if !tryRetry() { return end("budget", n + 1) }
            waits.append(wait)
            n += 1
            if t.cancel == "s\(sleeps)" || cancelled { return end("cancelled", n) }
            sleeps += 1
            clock += Int64(wait.rounded(.up))
        }
    }
}
