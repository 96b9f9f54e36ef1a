/// The client of SPEC 7.1 in TypeScript, the same in every file: `AttemptResult`, `CallOutcome`,
/// `callWithRetries` (the guide's retry loop, in its exact order) and `parseRetryAfter`. Written
/// once as text: it holds nothing of a policy but the names of the module's own members.
extension TypeScriptGenerator {
    /// The types of a call's attempts and outcome.
    static let clientTypes = FixedLines(.typeScript, depth: 0) { w, _ in
        w.code(#"""
        /**
         * What one attempt of a call gave: the answer's HTTP status (null or absent for a network error:
         * no answer at all), the error code of its body and its Retry-After header, as the server sent them.
         */
        export type AttemptResult = { status?: number | null; errorCode?: string | null; retryAfter?: string | null };

        /** How a call of `callWithRetries` ended: why, the attempts made, the waits before each retry (milliseconds) and the last attempt's result. */
        export type CallOutcome = {
            reason: "succeeded" | "notRetryable" | "retriesUsed" | "deadline" | "budget" | "cancelled";
            attempts: number;
            waitsMs: number[];
            last: AttemptResult | null;
        };

        /** The part of an `AbortSignal` (the DOM's or Node's) that `callWithRetries` uses. */
        export type AbortSignalLike = {
            readonly aborted: boolean;
            addEventListener(type: "abort", listener: () => void): void;
            removeEventListener(type: "abort", listener: () => void): void;
        };

        /** What `callWithRetries` can be given besides the call: clocks, sleep and random numbers (for tests), and a signal to cancel it. */
        export type CallOptions = {
            /** A monotonic clock in milliseconds (`monotonicNow` by default). */
            now?: () => number;
            /** Milliseconds since 1970, that an HTTP-date Retry-After is read against (`Date.now` by default). */
            wallNow?: () => number;
            /** Waits so many milliseconds (a timer by default). */
            sleep?: (ms: number) => Promise<void>;
            /** A number in [0, 1) (`Math.random` by default). */
            random?: () => number;
            /** Cancels the call: it ends "cancelled" before the next attempt or during a wait. */
            signal?: AbortSignalLike;
        };

        // Declared, not imported, as `performance` is: the module needs no library past ES5 and no @types/node.
        declare const Promise: new <T>(executor: (resolve: (value: T) => void, reject: (reason?: unknown) => void) => void) => Promise<T>;
        declare function setTimeout(handler: () => void, ms: number): unknown;
        declare function clearTimeout(id: unknown): void;
        """#)
    }

    /// `callWithRetries`, `parseRetryAfter` and the HTTP-date reader behind it.
    static let client = FixedLines(.typeScript, depth: 0) { w, _ in
        w.code(#"""
        /**
         * Makes the attempts of one call through `attempt` (given the attempt's number from 0 and its
         * timeout in milliseconds) and follows the policy exactly: every attempt is counted with
         * `budget.noteRequest()`; each gets `min(profile.timeoutMs, the time left to the deadline)`; after a
         * failure, in this order: not retryable, retries used, the wait (`backoffMs`, with Retry-After when
         * honored), a retry that would start at or after the deadline is not sent, `budget.tryRetry()`,
         * then the wait. Every time is in milliseconds. An `attempt` that rejects rejects the call: report a
         * network error as `{ status: null }`.
         */
        export function callWithRetries(profile: RetryPolicy, budget: RetryBudget, attempt: (n: number, timeoutMs: number) => Promise<AttemptResult>,
                                        options?: CallOptions): Promise<CallOutcome> {
            const o: CallOptions = options || {};
            const now = o.now || monotonicNow;
            const wallNow = o.wallNow || Date.now;
            const random = o.random || Math.random;
            const signal = o.signal;
            const start = now();
            const deadline = start + profile.deadlineMs;
            const waitsMs: number[] = [];
            let last: AttemptResult | null = null;
            const end = (reason: CallOutcome["reason"], attempts: number): CallOutcome => ({ reason: reason, attempts: attempts, waitsMs: waitsMs, last: last });
            // Resolves true once `ms` have passed, false as soon as the signal aborts.
            const wait = (ms: number): Promise<boolean> => new Promise<boolean>((resolve, reject) => {
                if (signal && signal.aborted) return resolve(false);
                let timer: unknown = null;
                const onAbort = (): void => {
                    if (timer !== null) clearTimeout(timer);
                    resolve(false);
                };
                if (signal) signal.addEventListener("abort", onAbort);
                const done = (): void => {
                    if (signal) signal.removeEventListener("abort", onAbort);
                    resolve(true);
                };
                if (o.sleep) o.sleep(ms).then(done, reject);
                else timer = setTimeout(done, ms);
            });
            const step = (n: number): Promise<CallOutcome> => {
                if (signal && signal.aborted) return new Promise<CallOutcome>((resolve) => resolve(end("cancelled", n)));
                const timeout = Math.min(profile.timeoutMs, deadline - now());
                if (timeout <= 0) return new Promise<CallOutcome>((resolve) => resolve(end("deadline", n)));
                budget.noteRequest();
                return attempt(n, timeout).then((r: AttemptResult): CallOutcome | Promise<CallOutcome> => {
                    last = r;
                    const status = r.status;
                    if (status !== null && status !== undefined && status >= 200 && status < 300) return end("succeeded", n + 1);
                    if (!isRetryable(status, r.errorCode)) return end("notRetryable", n + 1);
                    if (n >= profile.maxRetries) return end("retriesUsed", n + 1);
                    const retryAfterS = RETRY_AFTER_HONORED ? parseRetryAfter(r.retryAfter, wallNow()) : null;
                    const ms = backoffMs(n, retryAfterS, profile, random);
                    if (now() + ms >= deadline) return end("deadline", n + 1);
                    if (!budget.tryRetry()) return end("budget", n + 1);
                    waitsMs.push(ms);
                    return wait(ms).then((slept: boolean): CallOutcome | Promise<CallOutcome> => (slept ? step(n + 1) : end("cancelled", n + 1)));
                });
            };
            return step(0);
        }

        /**
         * The seconds to wait that a Retry-After header asks for, read at `nowMs` (milliseconds since 1970,
         * `Date.now()` by default): delta-seconds (digits only) as they are; an HTTP-date (IMF-fixdate,
         * RFC 850 or asctime, RFC 9110 section 10.2.3) as the seconds from `nowMs` to it, 0 when it has
         * passed; null for anything else (null, undefined, empty, negative, a fraction, spaces, garbage).
         */
        export function parseRetryAfter(value: string | null | undefined, nowMs?: number): number | null {
            if (value === null || value === undefined) return null;
            if (/^[0-9]+$/.test(value)) return Number(value);
            const at = nowMs === undefined ? Date.now() : nowMs;
            const dateMs = httpDateMs(value, at);
            return dateMs === null ? null : Math.max(0, (dateMs - at) / 1000);
        }

        /**
         * An HTTP-date's milliseconds since 1970, or null when `text` is none of its three forms or names a
         * day that does not exist. An RFC 850 two-digit year is the one nearest `nowMs` that is at most 50
         * years ahead.
         */
        function httpDateMs(text: string, nowMs: number): number | null {
            const days = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];
            const longDays = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"];
            const comma = text.indexOf(",");
            let f: HttpDate | null = null;
            if (text.length === 29 && days.indexOf(text.slice(0, 3)) >= 0) f = httpDateFields(text, "www, DD NNN YYYY hh:mm:ss GMT");
            if (f === null && text.length === 24 && days.indexOf(text.slice(0, 3)) >= 0) f = httpDateFields(text, "www NNN dD hh:mm:ss YYYY");
            if (f === null && comma >= 0 && longDays.indexOf(text.slice(0, comma)) >= 0) {
                f = httpDateFields(text.slice(comma), ", DD-NNN-YY hh:mm:ss GMT");
                if (f !== null) {
                    const yearNow = 1970 + Math.floor(nowMs / 31556952000);
                    f.year += yearNow - (((yearNow % 100) + 100) % 100);
                    if (f.year > yearNow + 50) f.year -= 100;
                    else if (f.year + 100 <= yearNow + 50) f.year += 100;
                }
            }
            if (f === null) return null;
            const day = f.day, month = f.month, year = f.year;
            const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
            const monthDays = month === 2 ? (leap ? 29 : 28) : month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
            if (day < 1 || day > monthDays || f.hour > 23 || f.minute > 59 || f.second > 60) return null;
            // Days since 1970 of the Gregorian date (days_from_civil), shifted by 400 years to stay positive.
            const y = year - (month <= 2 ? 1 : 0) + 400;
            const era = Math.floor(y / 400);
            const yoe = y - era * 400;
            const doy = Math.floor((153 * ((month + 9) % 12) + 2) / 5) + day - 1;
            const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
            const daysSince1970 = (era - 1) * 146097 + doe - 719468;
            return (daysSince1970 * 86400 + f.hour * 3600 + f.minute * 60 + f.second) * 1000;
        }

        /** The fields of an HTTP-date. */
        type HttpDate = { day: number; month: number; year: number; hour: number; minute: number; second: number };

        /**
         * The fields of `text` laid out as `pattern`: `D`, `Y`, `h`, `m`, `s` are digits (`d` a digit or a
         * space), `N` a month's three letters, `w` any character (the day's name, checked apart), and
         * anything else stands for itself.
         */
        function httpDateFields(text: string, pattern: string): HttpDate | null {
            const months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
            if (text.length !== pattern.length) return null;
            const f: HttpDate = { day: 0, month: 0, year: 0, hour: 0, minute: 0, second: 0 };
            let month = "";
            for (let i = 0; i < pattern.length; i++) {
                const c = text.charAt(i), k = pattern.charAt(i);
                if (k === "N") {
                    month += c;
                } else if (k === "w" || (k === "d" && c === " ")) {
                    continue;
                } else if ("dDYhms".indexOf(k) >= 0) {
                    if (c < "0" || c > "9") return null;
                    const digit = text.charCodeAt(i) - 48;
                    if (k === "Y") f.year = f.year * 10 + digit;
                    else if (k === "h") f.hour = f.hour * 10 + digit;
                    else if (k === "m") f.minute = f.minute * 10 + digit;
                    else if (k === "s") f.second = f.second * 10 + digit;
                    else f.day = f.day * 10 + digit;
                } else if (c !== k) {
                    return null;
                }
            }
            const m = months.indexOf(month);
            if (m < 0) return null;
            f.month = m + 1;
            return f;
        }
        """#)
    }
}
