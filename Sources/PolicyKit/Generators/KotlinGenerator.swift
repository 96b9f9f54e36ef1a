/// Kotlin for one policy: the API of SPEC §4 as an `object`, with `Long` milliseconds and
/// SCREAMING_SNAKE constants. Compiles with Debian's kotlinc 1.3 on JDK 17 with `-Werror`, so it
/// avoids JDK members that pairing warns about (`CharSequence.isEmpty()` and the like).
enum KotlinGenerator {
    /// Words that cannot name a package segment (or anything else) without backticks.
    static let hardKeywords: Set<String> = [
        "as", "break", "class", "continue", "do", "else", "false", "for", "fun", "if", "in", "interface",
        "is", "null", "object", "package", "return", "super", "this", "throw", "true", "try", "typealias",
        "typeof", "val", "var", "when", "while",
    ]

    static func source(for policy: Policy, package: String) -> String {
        let type = Naming.typeName(policy: policy.name)
        let w = CodeWriter()
        func at(_ key: String) -> String { SwiftGenerator.at(policy, key) }
        w.line(Generator.header(for: policy))
        w.line()
        w.line("package \(package)")
        w.line()
        var top = "Retry policy `\(policy.name)`\(at("policy")): the values and functions an app retries its ticket requests with."
        if let description = policy.description { top += "\n\n" + description }
        w.lines(doc(top))
        w.block("object \(type)") {
            w.emit(Self.types)
            for p in policy.profiles {
                w.line()
                w.lines(doc("Profile `\(p.name)` (line \(p.line)): \(p.kind), \(p.isInteractive ? "a viewer is waiting" : "no viewer is waiting")."))
                w.line("@JvmField val \(Naming.kotlinProfile(p.name)): RetryProfile = RetryProfile("
                    + "maxRetries = \(p.maxRetries), baseMs = \(p.baseMs)L, capMs = \(p.capMs)L, timeoutMs = \(p.timeoutMs)L, deadlineMs = \(p.deadlineMs)L)")
            }
            w.line()
            w.lines(doc("Every profile, by its name in the policy, in the policy's order (`retry.profiles`)."))
            let all = policy.profiles.map { "\(literal($0.name)) to \(Naming.kotlinProfile($0.name))" }
            w.line("@JvmField val ALL_PROFILES: Map<String, RetryProfile> = mapOf(\(all.joined(separator: ", ")))")
            w.line()
            w.lines(doc("The policy's name (`policy`\(at("policy")))."))
            w.line("const val POLICY_NAME: String = \(literal(policy.name))")
            w.lines(doc("The policy's description, exactly as written (`description`\(at("description")))."))
            w.line("@JvmField val POLICY_DESCRIPTION: String? = \(policy.description.map(literal) ?? "null")")
            w.lines(doc("Whether network errors (no status at all) are retried (`retryOn`\(at("retry.retryOn")))."))
            w.line("const val RETRY_ON_NETWORK_ERROR: Boolean = \(policy.retryOnNetwork)")
            w.lines(doc("The HTTP statuses that are retried (`retryOn`\(at("retry.retryOn")))."))
            w.line("@JvmField val RETRYABLE_STATUSES: Set<Int> = setOf<Int>(\(policy.retryStatuses.map(String.init).joined(separator: ", ")))")
            w.lines(doc("Status and error code pairs that are never retried (`neverRetry`\(at("retry.neverRetry")))."))
            let never = policy.neverRetry.map { "NeverRetry(\($0.status), \(literal($0.code)))" }
            w.line("@JvmField val NEVER_RETRY: List<NeverRetry> = listOf<NeverRetry>(\(never.joined(separator: ", ")))")
            w.lines(doc("Whether a Retry-After header sets the wait (`retryAfter.honor`\(at("retry.retryAfter.honor")))."))
            w.line("const val RETRY_AFTER_HONORED: Boolean = \(policy.retryAfterHonor)")
            w.lines(doc("Largest random wait added to Retry-After, in milliseconds (`retryAfter.maxJitter`\(at("retry.retryAfter.maxJitter")))."))
            w.line("const val RETRY_AFTER_MAX_JITTER_MS: Long = \(policy.retryAfterMaxJitterMs)L")
            w.lines(doc("How the wait between retries grows (`backoff`\(at("retry.backoff")))."))
            w.line("const val BACKOFF_STRATEGY: String = \(literal(policy.backoff))")
            w.lines(doc("Retries may be at most this share of the requests of the last minute (`budget.ratio`\(at("retry.budget.ratio")): \(policy.budgetRatio.canonical)%)."))
            w.line("const val BUDGET_RATIO: Double = \(SwiftGenerator.doubleLiteral(policy.budgetRatio.ratio))")
            w.lines(doc("Retries always allowed per minute, whatever the ratio (`budget.minPerMinute`\(at("retry.budget.minPerMinute")))."))
            w.line("const val BUDGET_MIN_PER_MINUTE: Int = \(policy.budgetMinPerMinute)")
            w.lines(doc("Next episodes asked for in the same request (`prefetch.ahead`\(at("prefetch.ahead")))."))
            w.line("const val PREFETCH_AHEAD: Int = \(policy.prefetchAhead)")
            w.lines(doc("Whether only unlocked next episodes are prefetched (`prefetch.onlyUnlocked`\(at("prefetch.onlyUnlocked")))."))
            w.line("const val PREFETCH_ONLY_UNLOCKED: Boolean = \(policy.prefetchOnlyUnlocked)")
            w.lines(doc("Whether a refused prefetch is retried (`prefetch.retryRefused`\(at("prefetch.retryRefused")))."))
            w.line("const val RETRY_REFUSED_PREFETCH: Boolean = \(policy.prefetchRetryRefused)")
            w.lines(doc("What a ticket is reused for: the same of each of these (`tickets.reuseKey`\(at("tickets.reuseKey")))."))
            w.line("@JvmField val TICKET_REUSE_KEY: List<String> = listOf<String>(\(policy.reuseKey.map(literal).joined(separator: ", ")))")
            w.lines(doc("Stop reusing a ticket this long before it expires, in milliseconds (`tickets.stopReuseBefore`\(at("tickets.stopReuseBefore")))."))
            w.line("const val TICKET_STOP_REUSE_BEFORE_MS: Long = \(policy.stopReuseBeforeMs)L")
            w.lines(doc("How viewer_ref is made (`tickets.viewerRef`\(at("tickets.viewerRef")))."))
            w.line("const val VIEWER_REF: String = \(literal(policy.viewerRef))")
            w.line()
            w.lines(doc("Whether a failed request may be retried: network errors (`status` null) as `retryOn` says, "
                + "never a `neverRetry` pair, else the statuses of `retryOn` (`retryOn`\(at("retry.retryOn")), `neverRetry`\(at("retry.neverRetry")))."))
            w.emit(Self.isRetryable)
            w.line()
            w.lines(doc("Milliseconds to wait before retry number `attempt` (0-based): a positive Retry-After plus up to "
                + "`RETRY_AFTER_MAX_JITTER_MS` of jitter wins, else full jitter under `profile.capMs` "
                + "(`backoff`\(at("retry.backoff")), `retryAfter`\(at("retry.retryAfter.honor"))). Calls `random` (0 until 1) once."))
            w.emit(Self.backoffMs)
            w.line()
            w.lines(doc("Retries may be at most `BUDGET_RATIO` of the requests of the last minute and never fewer than "
                + "`BUDGET_MIN_PER_MINUTE` a minute (`budget`\(at("retry.budget.ratio"))). Safe to share between threads; "
                + "`now` is the clock in milliseconds (the wall clock by default)."))
            w.emit(Self.retryBudget)
        }
        return w.text
    }

    // The fixed parts of every file (see `FixedLines`), at the depth they stand at.
    static let types = FixedLines(depth: 1) { w, _ in
        w.lines(doc("How hard to try for one kind of caller: one entry of `retry.profiles`.\n\n"
            + "@property maxRetries Retries after the first attempt (`maxRetries`).\n"
            + "@property baseMs First backoff step, in milliseconds (`base`).\n"
            + "@property capMs Largest backoff step, in milliseconds (`cap`).\n"
            + "@property timeoutMs Timeout of one attempt, in milliseconds (`timeout`).\n"
            + "@property deadlineMs The whole call, retries included, in milliseconds (`deadline`)."))
        w.line("data class RetryProfile(val maxRetries: Int, val baseMs: Long, val capMs: Long, val timeoutMs: Long, val deadlineMs: Long)")
        w.line()
        w.lines(doc("An answer that is never retried, whatever its status (`retry.neverRetry`).\n\n"
            + "@property status The HTTP status of the answer.\n"
            + "@property code The error code in the answer's body."))
        w.line("data class NeverRetry(val status: Int, val code: String)")
    }

    static let isRetryable = FixedLines(depth: 1) { w, _ in
        w.line("@JvmStatic")
        w.block("fun isRetryable(status: Int?, errorCode: String?): Boolean") {
            w.line("if (status == null) return RETRY_ON_NETWORK_ERROR")
            w.line("for (never in NEVER_RETRY) if (never.status == status && never.code == errorCode) return false")
            w.line("return RETRYABLE_STATUSES.contains(status)")
        }
    }

    static let backoffMs = FixedLines(depth: 1) { w, _ in
        w.line("@JvmStatic")
        w.line("@JvmOverloads")
        w.block("fun backoffMs(attempt: Int, retryAfterS: Double?, profile: RetryProfile, random: () -> Double = { Math.random() }): Double") {
            w.block("if (RETRY_AFTER_HONORED && retryAfterS != null && retryAfterS > 0.0)") {
                w.line("return retryAfterS * 1000.0 + random() * RETRY_AFTER_MAX_JITTER_MS.toDouble()")
            }
            w.line("// 2^attempt exactly, as a double: infinite past its range, so min() gives the cap.")
            w.line("return random() * Math.min(profile.capMs.toDouble(), profile.baseMs.toDouble() * Math.pow(2.0, attempt.toDouble()))")
        }
    }

    static let retryBudget = FixedLines(depth: 1) { w, _ in
        w.block("class RetryBudget @JvmOverloads constructor(private val now: () -> Long = { System.currentTimeMillis() })") {
            w.line("private var sent: Long = 0L")
            w.line("private var retries: Long = 0L")
            w.line("private var since: Long = now()")
            w.line()
            w.lines(doc("Counts one request sent."))
            w.line("@Synchronized")
            w.block("fun noteRequest()") {
                w.line("roll()")
                w.line("sent += 1")
            }
            w.line()
            w.lines(doc("Takes one retry from the budget: false, and nothing taken, when the budget is spent."))
            w.line("@Synchronized")
            w.block("fun tryRetry(): Boolean") {
                w.line("roll()")
                w.line("if (retries.toDouble() >= Math.max(BUDGET_MIN_PER_MINUTE.toDouble(), sent.toDouble() * BUDGET_RATIO)) return false")
                w.line("retries += 1")
                w.line("return true")
            }
            w.line()
            w.line("// A new minute once more than 60 000 ms have passed; the clock is read again for its start,")
            w.line("// and compared as doubles, exactly as the guide's reference code does.")
            w.block("private fun roll()") {
                w.block("if (now().toDouble() - since.toDouble() > 60000.0)") {
                    w.line("sent = 0L")
                    w.line("retries = 0L")
                    w.line("since = now()")
                }
            }
        }
    }

    /// The one way text becomes a Kotlin string literal: printable ASCII as is (but `"`, `\` and
    /// `$` escaped, so no template can run), every other UTF-16 unit as `\uXXXX`.
    static func literal(_ s: String) -> String {
        // Printable ASCII without `"`, `\\` and `$`, the usual name or code, stands as it is.
        if allUTF8(s, { $0 >= 0x20 && $0 < 0x7F && $0 != 0x22 && $0 != 0x5C && $0 != 0x24 }) { return "\"" + s + "\"" }
        var out = "\""
        for unit in s.utf16 {
            switch unit {
            case 0x22: out += "\\\""
            case 0x5C: out += "\\\\"
            case 0x24: out += "\\$"
            case 0x20...0x7E: out.unicodeScalars.append(Unicode.Scalar(UInt8(unit)))
            default:
                let hex = String(unit, radix: 16, uppercase: true)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            }
        }
        return out + "\""
    }

    /// The one way text becomes a KDoc comment: ` * ` lines inside `/** … */`; a `*/` or `/*` in the
    /// text gets a space inside (Kotlin nests block comments, so either would change where it ends).
    static func doc(_ text: String) -> [String] {
        var out = ["/**"]
        let lines = asciiLine(text).map { [$0] } ?? commentLines(text)
        for line in lines {
            // A space between every '*' and '/' that meet, either way round, so nothing closes or
            // opens a comment. Both are ASCII: in UTF-8 their bytes stand for them alone.
            if allUTF8(line, { $0 != 0x2A }) || allUTF8(line, { $0 != 0x2F }) {
                out.append(line.isEmpty ? " *" : " * " + line)
                continue
            }
            var bytes: [UInt8] = []
            bytes.reserveCapacity(line.utf8.count)
            for c in line.utf8 {
                if let last = bytes.last, (last == 0x2A && c == 0x2F) || (last == 0x2F && c == 0x2A) {
                    bytes.append(0x20)
                }
                bytes.append(c)
            }
            let safe = String(decoding: bytes, as: UTF8.self)
            out.append(safe.isEmpty ? " *" : " * " + safe)
        }
        out.append(" */")
        return out
    }
}
