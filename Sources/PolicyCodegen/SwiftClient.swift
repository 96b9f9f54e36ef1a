/// The client of SPEC 7.1 in Swift, the same in every file: `AttemptResult`, `CallOutcome`,
/// `callWithRetries` (the guide's retry loop, in its exact order) and `parseRetryAfter`. Written
/// once as text: it holds nothing of a policy but the names of the module's own members.
extension SwiftGenerator {
    /// The types of a call's attempts and outcome.
    static let clientTypes = FixedLines(.swift, depth: 1) { w, _ in
        w.code(#"""
        /// What one attempt of a call gave: the answer's HTTP status (nil for a network error: no answer
        /// at all), the error code of its body and its Retry-After header, as the server sent them.
        public struct AttemptResult: Sendable, Hashable {
            /// The HTTP status, or nil when no answer came (a network error).
            public var status: Int?
            /// The error code of the answer's body, if it had one.
            public var errorCode: String?
            /// The Retry-After header as sent: delta-seconds or an HTTP-date.
            public var retryAfter: String?

            /// An attempt's result; a network error is `AttemptResult()`.
            public init(status: Int? = nil, errorCode: String? = nil, retryAfter: String? = nil) {
                self.status = status
                self.errorCode = errorCode
                self.retryAfter = retryAfter
            }
        }

        /// How a call of `callWithRetries` ended.
        public struct CallOutcome: Sendable, Hashable {
            /// Why the call ended.
            public enum Reason: String, Sendable, Hashable, CaseIterable {
                /// An attempt was answered with a 2xx status.
                case succeeded
                /// The last answer is not to be retried (`isRetryable`).
                case notRetryable
                /// The profile's `maxRetries` retries were made.
                case retriesUsed
                /// No time was left for another attempt, or the wait would have reached the deadline.
                case deadline
                /// The retry budget was spent.
                case budget
                /// The task was cancelled, before an attempt or during a wait.
                case cancelled
            }

            /// Why the call ended.
            public let reason: Reason
            /// The attempts made, the first one included.
            public let attempts: Int
            /// The waits before each retry, in milliseconds, in order.
            public let waitsMs: [Double]
            /// The result of the last attempt, nil when none was made.
            public let last: AttemptResult?

            /// An outcome with these values.
            public init(reason: Reason, attempts: Int, waitsMs: [Double], last: AttemptResult?) {
                self.reason = reason
                self.attempts = attempts
                self.waitsMs = waitsMs
                self.last = last
            }
        }

        /// Why a call ended: `CallOutcome.Reason`.
        public typealias Reason = CallOutcome.Reason
        """#)
    }

    /// `callWithRetries`, `parseRetryAfter` and the HTTP-date reader behind it.
    static let client = FixedLines(.swift, depth: 1) { w, _ in
        w.code(#"""
        /// Makes the attempts of one call through `attempt` (given the attempt's number from 0 and its
        /// timeout in milliseconds) and follows the policy exactly: every attempt is counted with
        /// `budget.noteRequest()`; each gets `min(profile.timeoutMs, the time left to the deadline)`; after
        /// a failure, in this order: not retryable, retries used, the wait (`backoffMs`, with Retry-After
        /// when honored), a retry that would start at or after the deadline is not sent, `budget.tryRetry()`,
        /// then `sleep`. Ends `.cancelled` when the task is cancelled, before an attempt or during a wait.
        ///
        /// Every time is in milliseconds: `now` is a monotonic clock (`RetryBudget.defaultNowMs`), `wallNow` the time since 1970 that
        /// an HTTP-date Retry-After is read against, `sleep` waits (the default throws on cancellation).
        /// It runs in the caller's isolation (`isolation`), so `attempt` may use the caller's state,
        /// the main actor's too.
        @available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
        public static func callWithRetries(
            profile: RetryProfile,
            budget: RetryBudget,
            now: @escaping @Sendable () -> Int64 = { RetryBudget.defaultNowMs() },
            wallNow: @escaping @Sendable () -> Int64 = { Int64((Date().timeIntervalSince1970 * 1000).rounded(.down)) },
            sleep: (Double) async throws -> Void = { ms in try await Task.sleep(nanoseconds: ms > 0 ? UInt64(Swift.min(ms, 1e12) * 1e6) : 0) },
            random: () -> Double = { Double.random(in: 0..<1) },
            isolation: isolated (any Actor)? = #isolation,
            attempt: (Int, Int) async -> AttemptResult
        ) async -> CallOutcome {
            let start = now()
            let deadline = start + Int64(profile.deadlineMs)
            var waits: [Double] = []
            var last: AttemptResult? = nil
            var n = 0
            while true {
                if Task.isCancelled { return CallOutcome(reason: .cancelled, attempts: n, waitsMs: waits, last: last) }
                let timeout = Swift.min(Int64(profile.timeoutMs), deadline - now())
                if timeout <= 0 { return CallOutcome(reason: .deadline, attempts: n, waitsMs: waits, last: last) }
                budget.noteRequest()
                let result = await attempt(n, Int(timeout))
                last = result
                if let status = result.status, status >= 200 && status < 300 {
                    return CallOutcome(reason: .succeeded, attempts: n + 1, waitsMs: waits, last: last)
                }
                if !isRetryable(status: result.status, errorCode: result.errorCode) {
                    return CallOutcome(reason: .notRetryable, attempts: n + 1, waitsMs: waits, last: last)
                }
                if n >= profile.maxRetries { return CallOutcome(reason: .retriesUsed, attempts: n + 1, waitsMs: waits, last: last) }
                let retryAfterS = retryAfterHonored ? parseRetryAfter(result.retryAfter, nowMs: wallNow()) : nil
                let wait = backoffMs(attempt: n, retryAfterS: retryAfterS, profile: profile, random: random)
                if Double(now()) + wait >= Double(deadline) {
                    return CallOutcome(reason: .deadline, attempts: n + 1, waitsMs: waits, last: last)
                }
                if !budget.tryRetry() { return CallOutcome(reason: .budget, attempts: n + 1, waitsMs: waits, last: last) }
                waits.append(wait)
                n += 1
                do {
                    try await sleep(wait)
                } catch {
                    return CallOutcome(reason: .cancelled, attempts: n, waitsMs: waits, last: last)
                }
            }
        }

        /// The seconds to wait that a Retry-After header asks for, read at `nowMs` (milliseconds since
        /// 1970): delta-seconds (digits only) as they are; an HTTP-date (IMF-fixdate, RFC 850 or asctime,
        /// RFC 9110 section 10.2.3) as the seconds from `nowMs` to it, 0 when it has passed; nil for
        /// anything else (nil, empty, negative, a fraction, spaces, garbage).
        public static func parseRetryAfter(_ value: String?, nowMs: Int64) -> Double? {
            guard let value = value else { return nil }
            let text = Array(value.utf8)
            if !text.isEmpty && text.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) { return Double(value) }
            guard let dateMs = httpDateMs(text, nowMs: nowMs) else { return nil }
            return Swift.max(0, (Double(dateMs) - Double(nowMs)) / 1000)
        }

        /// An HTTP-date's milliseconds since 1970, or nil when `text` is none of its three forms or names
        /// a day that does not exist. An RFC 850 two-digit year is the one nearest `nowMs` that is at
        /// most 50 years ahead.
        private static func httpDateMs(_ text: [UInt8], nowMs: Int64) -> Int64? {
            let days = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
            let longDays = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
            var f: [Int]
            if text.count == 29 && days.contains(String(decoding: text[0..<3], as: UTF8.self)),
               let imf = httpDateFields(text, "www, DD NNN YYYY hh:mm:ss GMT") {
                f = imf
            } else if text.count == 24 && days.contains(String(decoding: text[0..<3], as: UTF8.self)),
                      let asctime = httpDateFields(text, "www NNN dD hh:mm:ss YYYY") {
                f = asctime
            } else if let comma = text.firstIndex(of: 0x2C), longDays.contains(String(decoding: text[0..<comma], as: UTF8.self)),
                      let rfc850 = httpDateFields(Array(text[comma...]), ", DD-NNN-YY hh:mm:ss GMT") {
                f = rfc850
                let yearNow = 1970 + Int((Double(nowMs) / 31_556_952_000).rounded(.down))
                f[2] += yearNow - (yearNow % 100 + 100) % 100
                if f[2] > yearNow + 50 { f[2] -= 100 } else if f[2] + 100 <= yearNow + 50 { f[2] += 100 }
            } else {
                return nil
            }
            let (day, month, year, hour, minute, second) = (f[0], f[1], f[2], f[3], f[4], f[5])
            let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
            let monthDays = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
            guard day >= 1 && day <= monthDays[month - 1] && hour <= 23 && minute <= 59 && second <= 60 else { return nil }
            // Days since 1970 of the Gregorian date (days_from_civil), shifted by 400 years to stay positive.
            let y = year - (month <= 2 ? 1 : 0) + 400
            let era = y / 400
            let yoe = y - era * 400
            let doy = (153 * ((month + 9) % 12) + 2) / 5 + day - 1
            let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
            let daysSince1970 = (era - 1) * 146_097 + doe - 719_468
            return (Int64(daysSince1970) * 86_400 + Int64(hour * 3600 + minute * 60 + second)) * 1000
        }

        /// `[day, month 1-12, year, hour, minute, second]` of `text` laid out as `pattern`: `D`, `Y`, `h`,
        /// `m`, `s` are digits (`d` a digit or a space), `N` a month's three letters, `w` any character
        /// (the day's name, checked apart), and anything else stands for itself.
        private static func httpDateFields(_ text: [UInt8], _ pattern: String) -> [Int]? {
            let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
            let layout = Array(pattern.utf8)
            guard text.count == layout.count else { return nil }
            var f = [0, 0, 0, 0, 0, 0]
            var month: [UInt8] = []
            for (c, k) in zip(text, layout) {
                switch k {
                case UInt8(ascii: "N"): month.append(c)
                case UInt8(ascii: "w"): continue
                case UInt8(ascii: "d") where c == 0x20: continue
                case UInt8(ascii: "d"), UInt8(ascii: "D"), UInt8(ascii: "Y"), UInt8(ascii: "h"), UInt8(ascii: "m"), UInt8(ascii: "s"):
                    guard c >= 0x30 && c <= 0x39 else { return nil }
                    let i = k == UInt8(ascii: "Y") ? 2 : k == UInt8(ascii: "h") ? 3 : k == UInt8(ascii: "m") ? 4 : k == UInt8(ascii: "s") ? 5 : 0
                    f[i] = f[i] * 10 + Int(c - 0x30)
                default:
                    guard c == k else { return nil }
                }
            }
            guard let m = months.firstIndex(of: String(decoding: month, as: UTF8.self)) else { return nil }
            f[1] = m + 1
            return f
        }
        """#)
    }
}
