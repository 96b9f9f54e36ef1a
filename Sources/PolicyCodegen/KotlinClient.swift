/// The client of SPEC 7.1 in Kotlin, the same in every file: `AttemptResult`, `CallOutcome`,
/// `callWithRetries` (the guide's retry loop, in its exact order) and `parseRetryAfter`. Written
/// once as text: it holds nothing of a policy but the names of the module's own members.
extension KotlinGenerator {
    /// The types of a call's attempts and outcome.
    static let clientTypes = FixedLines(.kotlin, depth: 1) { w, _ in
        w.code(#"""
        /**
         * What one attempt of a call gave: the answer's HTTP status (null for a network error: no answer
         * at all), the error code of its body and its Retry-After header, as the server sent them.
         */
        data class AttemptResult @JvmOverloads constructor(val status: Int?, val errorCode: String? = null, val retryAfter: String? = null)

        /** Why a call of `callWithRetries` ended. */
        enum class Reason {
            /** An attempt was answered with a 2xx status. */
            SUCCEEDED,
            /** The last answer is not to be retried (`isRetryable`). */
            NOT_RETRYABLE,
            /** The profile's `maxRetries` retries were made. */
            RETRIES_USED,
            /** No time was left for another attempt, or the wait would have reached the deadline. */
            DEADLINE,
            /** The retry budget was spent. */
            BUDGET,
            /** The thread was interrupted, before an attempt or during a wait. */
            CANCELLED
        }

        /**
         * How a call of `callWithRetries` ended.
         *
         * @property reason Why the call ended.
         * @property attempts The attempts made, the first one included.
         * @property waitsMs The waits before each retry, in milliseconds, in order.
         * @property last The result of the last attempt, null when none was made.
         */
        data class CallOutcome(val reason: Reason, val attempts: Int, val waitsMs: List<Double>, val last: AttemptResult?)
        """#)
    }

    /// `callWithRetries`, `parseRetryAfter` and the HTTP-date reader behind it.
    static let client = FixedLines(.kotlin, depth: 1) { w, _ in
        w.code(#"""
        /**
         * Makes the attempts of one call through `attempt` (given the attempt's number from 0 and its
         * timeout in milliseconds) and follows the policy exactly: every attempt is counted with
         * `budget.noteRequest()`; each gets `min(profile.timeoutMs, the time left to the deadline)`; after
         * a failure, in this order: not retryable, retries used, the wait (`backoffMs`, with Retry-After
         * when honored), a retry that would start at or after the deadline is not sent, `budget.tryRetry()`,
         * then `sleep`. Ends `CANCELLED` when the thread is interrupted, before an attempt or during a wait.
         *
         * Every time is in milliseconds: `now` is a monotonic clock (`RetryBudget.defaultNowMs`), `wallNow` the time since 1970 that an
         * HTTP-date Retry-After is read against, `sleep` waits (`Thread.sleep` by default; from a
         * coroutine, pass one that blocks as it should there, or call this on `Dispatchers.IO`).
         */
        @JvmStatic
        @JvmOverloads
        fun callWithRetries(
            profile: RetryProfile,
            budget: RetryBudget,
            now: () -> Long = { RetryBudget.defaultNowMs() },
            wallNow: () -> Long = { System.currentTimeMillis() },
            sleep: (Double) -> Unit = { ms -> if (ms > 0.0) Thread.sleep(Math.ceil(Math.min(ms, 1e12)).toLong()) },
            random: () -> Double = { Random.nextDouble() },
            attempt: (Int, Long) -> AttemptResult
        ): CallOutcome {
            val start = now()
            val deadline = start + profile.deadlineMs
            val waits = ArrayList<Double>()
            var last: AttemptResult? = null
            var n = 0
            while (true) {
                if (Thread.currentThread().isInterrupted) return CallOutcome(Reason.CANCELLED, n, waits.toList(), last)
                val timeout = Math.min(profile.timeoutMs, deadline - now())
                if (timeout <= 0L) return CallOutcome(Reason.DEADLINE, n, waits.toList(), last)
                budget.noteRequest()
                val result = attempt(n, timeout)
                last = result
                val status = result.status
                if (status != null && status >= 200 && status < 300) return CallOutcome(Reason.SUCCEEDED, n + 1, waits.toList(), last)
                if (!isRetryable(status, result.errorCode)) return CallOutcome(Reason.NOT_RETRYABLE, n + 1, waits.toList(), last)
                if (n >= profile.maxRetries) return CallOutcome(Reason.RETRIES_USED, n + 1, waits.toList(), last)
                val retryAfterS = if (RETRY_AFTER_HONORED) parseRetryAfter(result.retryAfter, wallNow()) else null
                val wait = backoffMs(n, retryAfterS, profile, random)
                if (now().toDouble() + wait >= deadline.toDouble()) return CallOutcome(Reason.DEADLINE, n + 1, waits.toList(), last)
                if (!budget.tryRetry()) return CallOutcome(Reason.BUDGET, n + 1, waits.toList(), last)
                waits.add(wait)
                n += 1
                try {
                    sleep(wait)
                } catch (e: InterruptedException) {
                    // Interrupted while waiting: the call ends, and the thread stays marked as interrupted.
                    Thread.currentThread().interrupt()
                    return CallOutcome(Reason.CANCELLED, n, waits.toList(), last)
                }
            }
        }

        /**
         * The seconds to wait that a Retry-After header asks for, read at `nowMs` (milliseconds since
         * 1970): delta-seconds (digits only) as they are; an HTTP-date (IMF-fixdate, RFC 850 or asctime,
         * RFC 9110 section 10.2.3) as the seconds from `nowMs` to it, 0 when it has passed; null for
         * anything else (null, empty, negative, a fraction, spaces, garbage).
         */
        @JvmStatic
        fun parseRetryAfter(value: String?, nowMs: Long): Double? {
            if (value == null) return null
            if (value.length > 0 && value.all { it in '0'..'9' }) return value.toDouble()
            val dateMs = httpDateMs(value, nowMs) ?: return null
            return Math.max(0.0, (dateMs.toDouble() - nowMs.toDouble()) / 1000.0)
        }

        /**
         * An HTTP-date's milliseconds since 1970, or null when `text` is none of its three forms or names
         * a day that does not exist. An RFC 850 two-digit year is the one nearest `nowMs` that is at most
         * 50 years ahead.
         */
        private fun httpDateMs(text: String, nowMs: Long): Long? {
            val days = listOf("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
            val longDays = listOf("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
            val comma = text.indexOf(',')
            val f: IntArray
            val imf = if (text.length == 29 && days.contains(text.substring(0, 3))) httpDateFields(text, "www, DD NNN YYYY hh:mm:ss GMT") else null
            val asctime = if (text.length == 24 && days.contains(text.substring(0, 3))) httpDateFields(text, "www NNN dD hh:mm:ss YYYY") else null
            val rfc850 = if (comma >= 0 && longDays.contains(text.substring(0, comma))) httpDateFields(text.substring(comma), ", DD-NNN-YY hh:mm:ss GMT") else null
            if (imf != null) {
                f = imf
            } else if (asctime != null) {
                f = asctime
            } else if (rfc850 != null) {
                f = rfc850
                val yearNow = 1970 + Math.floor(nowMs.toDouble() / 31556952000.0).toInt()
                f[2] += yearNow - ((yearNow % 100) + 100) % 100
                if (f[2] > yearNow + 50) f[2] -= 100 else if (f[2] + 100 <= yearNow + 50) f[2] += 100
            } else {
                return null
            }
            val day = f[0]
            val month = f[1]
            val year = f[2]
            val leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
            val monthDays = intArrayOf(31, if (leap) 29 else 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)
            if (day < 1 || day > monthDays[month - 1] || f[3] > 23 || f[4] > 59 || f[5] > 60) return null
            // Days since 1970 of the Gregorian date (days_from_civil), shifted by 400 years to stay positive.
            val y = year - (if (month <= 2) 1 else 0) + 400
            val era = y / 400
            val yoe = y - era * 400
            val doy = (153 * ((month + 9) % 12) + 2) / 5 + day - 1
            val doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
            val daysSince1970 = (era - 1) * 146097 + doe - 719468
            return (daysSince1970.toLong() * 86400L + (f[3] * 3600 + f[4] * 60 + f[5]).toLong()) * 1000L
        }

        /**
         * `[day, month 1-12, year, hour, minute, second]` of `text` laid out as `pattern`: `D`, `Y`, `h`,
         * `m`, `s` are digits (`d` a digit or a space), `N` a month's three letters, `w` any character (the
         * day's name, checked apart), and anything else stands for itself.
         */
        private fun httpDateFields(text: String, pattern: String): IntArray? {
            val months = listOf("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
            if (text.length != pattern.length) return null
            val f = IntArray(6)
            val month = StringBuilder()
            for (i in 0 until pattern.length) {
                val c = text[i]
                val k = pattern[i]
                when {
                    k == 'N' -> month.append(c)
                    k == 'w' || (k == 'd' && c == ' ') -> {}
                    k == 'd' || k == 'D' || k == 'Y' || k == 'h' || k == 'm' || k == 's' -> {
                        if (c < '0' || c > '9') return null
                        val j = if (k == 'Y') 2 else if (k == 'h') 3 else if (k == 'm') 4 else if (k == 's') 5 else 0
                        f[j] = f[j] * 10 + (c - '0')
                    }
                    c != k -> return null
                }
            }
            val m = months.indexOf(month.toString())
            if (m < 0) return null
            f[1] = m + 1
            return f
        }
        """#)
    }
}
