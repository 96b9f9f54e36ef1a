import PolicySource
import PolicyCheck

/// Kotlin for one policy: the API of SPEC §4 as an `object`, with `Long` milliseconds and
/// SCREAMING_SNAKE constants, and what Android code reaches for beside it: enums beside the
/// strings, `kotlin.random.Random`, whole milliseconds for `delay`. Compiles with Debian's kotlinc
/// 1.3 on JDK 17 with `-Werror`, so it avoids JDK members that pairing warns about
/// (`CharSequence.isEmpty()` and the like) and `kotlin.time`. Free text reaches the output only
/// through `Literal` and `CodeWriter.docText`; the code below writes the file from top to bottom,
/// the profiles and constants, and their doc strings, from `PolicyModule`.
enum KotlinGenerator {
    static func source(for policy: Policy, package: String) -> String {
        String(decoding: bytes(for: policy, PolicyModule(policy), package: package), as: UTF8.self)
    }

    static func bytes(for policy: Policy, _ module: PolicyModule, package: String) -> [UInt8] {
        let w = CodeWriter(.kotlin)
        Generator.writeHeader(for: policy, limits: module.limits, to: w)
        w.line()
        w.line("package ", package)
        w.line()
        w.line("import kotlin.random.Random")
        w.line()
        w.doc {
            w.docLine("Retry policy `", policy.name, "`: the values and functions an app retries its ticket requests with.")
            // One comment of both texts, a blank line between (the line above ends in "with.",
            // never a line break that could join the next).
            if let description = policy.description {
                w.docText("")
                w.docText(description)
            }
        }
        w.line("object ", module.type, " {")
        w.indent {
            w.emit(Self.types)
            for p in module.profiles {
                w.line()
                PolicyModule.writeProfileDoc(p, to: w)
                w.begin()
                w.put("@JvmField val ", Naming.kotlinProfile(p.name), ": RetryProfile = RetryProfile(maxRetries = ", p.maxRetries, ", baseMs = ")
                w.put("", p.baseMs, "L, capMs = ", p.capMs, "L, timeoutMs = ")
                w.put("", p.timeoutMs, "L, deadlineMs = ", p.deadlineMs, "L, kind = RetryProfile.Kind.")
                w.put("", Naming.enumCase(p.kind.rawValue), ")")
                w.end()
            }
            w.line()
            w.doc("Every profile, by its name in the policy, in the policy's order (`retry.profiles`).")
            w.begin()
            w.put("@JvmField val ALL_PROFILES: Map<String, RetryProfile> = mapOf(")
            w.list(module.profiles) { w.put("", quoted($0.name), " to ", Naming.kotlinProfile($0.name)) }
            w.put(")")
            w.end()
            w.line()
            for constant in module.constants { write(constant, to: w) }
            w.line()
            w.doc("""
                Whether a failed request may be retried: network errors (`status` null) as `retryOn` says, \
                never a `neverRetry` pair, else the statuses of `retryOn` (`retryOn`, `neverRetry`).
                """)
            w.emit(Self.isRetryable)
            w.line()
            w.doc("""
                Milliseconds to wait before retry number `attempt` (0-based): a positive Retry-After plus up to \
                `RETRY_AFTER_MAX_JITTER_MS` of jitter when `RETRY_AFTER_HONORED`, else 
                """, PolicyModule.strategyDoc(module.backoff), " (`backoff`, `retryAfter`).")
            w.emit(Self.backoffMs[module.backoff]!)
            w.line()
            w.emit(Self.backoffVariants)
            w.line()
            w.doc("""
                Retries may be at most `BUDGET_RATIO` of the requests of the last minute and never fewer than \
                `BUDGET_MIN_PER_MINUTE` a minute (`budget`). Safe to share between threads. `now` is the clock in milliseconds: by default \
                `defaultNowMs`, which setting the device clock back cannot move, as that must not stop retries for an hour.
                """)
            w.emit(Self.retryBudget)
            w.line()
            w.emit(Self.clientTypes)
            w.line()
            w.emit(Self.client)
            w.line()
            w.emit(Self.batch)
        }
        w.line("}")
        return w.bytes
    }

    /// One constant of the module: its doc, then `const val NAME: Type = value` (`@JvmField val`
    /// where Kotlin has no constant of the type), and after it what Android code reaches for: an
    /// enum beside a string of the language's choices.
    private static func write(_ c: PolicyModule.Constant, to w: CodeWriter) {
        w.doc(c.doc)
        w.begin()
        switch c.value {
        case .text(let text), .backoff(let text), .viewerRef(let text):
            w.put("const val ", c.name, ": String = ", quoted(text))
        case .optionalText(let text):
            w.put("@JvmField val ", c.name, ": String? = ")
            if let text { w.write(quoted(text)) } else { w.put("null") }
        case .bool(let b):
            w.put("const val ", c.name, ": Boolean = ", b)
        case .int(let n):
            w.put("const val ", c.name, ": Int = ", n)
        case .milliseconds(let n):
            w.put("const val ", c.name, ": Long = ", n, "L")
        case .ratio(let literal):
            w.put("const val ", c.name, ": Double = ", literal)
        case .statuses(let statuses):
            w.put("@JvmField val ", c.name, ": Set<Int> = setOf<Int>(")
            w.list(statuses) { w.write($0) }
            w.put(")")
        case .neverRetry(let pairs):
            w.put("@JvmField val ", c.name, ": List<NeverRetry> = listOf<NeverRetry>(")
            w.list(pairs) { w.put("NeverRetry(", $0.status, ", ", quoted($0.code), ")") }
            w.put(")")
        case .reuseKey(let items):
            w.put("@JvmField val ", c.name, ": List<String> = listOf<String>(")
            w.list(items) { w.write(quoted($0)) }
            w.put(")")
        }
        w.end()
        let d = c.doc
        switch c.value {
        case .backoff(let value):
            w.doc("`", c.name, "` as an enum (`", d.key, "`).")
            w.line("@JvmField val ", c.name, "_KIND: BackoffStrategy = BackoffStrategy.", Naming.enumCase(value))
        case .viewerRef(let value):
            w.doc("`", c.name, "` as an enum (`", d.key, "`).")
            w.line("@JvmField val ", c.name, "_KIND: ViewerRefKind = ViewerRefKind.", Naming.enumCase(value))
        case .reuseKey(let items):
            w.doc("`", c.name, "` as enums (`", d.key, "`).")
            w.begin()
            w.put("@JvmField val ", c.name, "_ITEMS: List<ReuseKeyItem> = listOf<ReuseKeyItem>(")
            w.list(items) { w.put("ReuseKeyItem.", Naming.enumCase($0)) }
            w.put(")")
            w.end()
        default:
            break
        }
    }

    // The fixed parts of every file (see `FixedLines`), at the depth they stand at.
    static let types = FixedLines(.kotlin, depth: 1) { w, _ in
        w.doc {
            w.docText("""
                How hard to try for one kind of caller: one entry of `retry.profiles`.

                @property maxRetries Retries after the first attempt (`maxRetries`).
                @property baseMs First backoff step, in milliseconds (`base`).
                @property capMs Largest backoff step, in milliseconds (`cap`).
                @property timeoutMs Timeout of one attempt, in milliseconds (`timeout`).
                @property deadlineMs The whole call, retries included, in milliseconds (`deadline`).
                @property kind The kind of caller (`kind`): interactive unless given.
                """)
        }
        w.line("data class RetryProfile @JvmOverloads constructor(")
        w.indent {
            w.line("val maxRetries: Int, val baseMs: Long, val capMs: Long, val timeoutMs: Long, val deadlineMs: Long,")
            w.line("val kind: Kind = Kind.INTERACTIVE")
        }
        w.block(")") {
            w.doc("The kinds of caller (`kind`), by their spelling in the policy.")
            enumClass(w, "Kind", Language.profileKinds)
        }
        w.line()
        w.doc {
            w.docText("""
                An answer that is never retried, whatever its status (`retry.neverRetry`).

                @property status The HTTP status of the answer.
                @property code The error code in the answer's body.
                """)
        }
        w.line("data class NeverRetry(val status: Int, val code: String)")
        w.line()
        w.doc("How the wait between retries grows: the values of `retry.backoff`, by their spelling in the policy.")
        enumClass(w, "BackoffStrategy", Language.backoffs)
        w.line()
        w.doc("How viewer_ref is made: the values of `tickets.viewerRef`, by their spelling in the policy.")
        enumClass(w, "ViewerRefKind", Language.viewerRefs)
        w.line()
        w.doc("What a reused ticket must have in common: the items of `tickets.reuseKey`, by their spelling in the policy.")
        enumClass(w, "ReuseKeyItem", Language.reuseKeyParts)
    }

    /// `enum class Name(val value: String) { A("a"), B("b") }`, a case a line.
    private static func enumClass(_ w: CodeWriter, _ name: StaticString, _ values: [String]) {
        w.line("enum class ", name, "(val value: String) {")
        w.indent {
            for (i, value) in values.enumerated() {
                w.line("", Naming.enumCase(value), "(", quoted(value), i + 1 < values.count ? ")," : ")")
            }
        }
        w.line("}")
    }

    static let isRetryable = FixedLines(.kotlin, depth: 1) { w, _ in
        w.line("@JvmStatic")
        w.line("@JvmOverloads")
        w.block("fun isRetryable(status: Int?, errorCode: String? = null): Boolean") {
            w.line("if (status == null) return RETRY_ON_NETWORK_ERROR")
            w.line("for (never in NEVER_RETRY) if (never.status == status && never.code == errorCode) return false")
            w.line("return RETRYABLE_STATUSES.contains(status)")
        }
    }

    /// `backoffMs` for each strategy: only the policy's is written.
    static let backoffMs = Dictionary(uniqueKeysWithValues: Backoff.allCases.map { strategy in
        (strategy, FixedLines(.kotlin, depth: 1) { w, _ in
            w.line("@JvmStatic")
            w.line("@JvmOverloads")
            // Every wait is `baseMs`: the attempt is not needed.
            if strategy == .constant { w.line("@Suppress(\"UNUSED_PARAMETER\")") }
            w.block("fun backoffMs(attempt: Int, retryAfterS: Double?, profile: RetryProfile, random: () -> Double = { Random.nextDouble() }): Double") {
                w.block("if (RETRY_AFTER_HONORED && retryAfterS != null && retryAfterS > 0.0)") {
                    w.line("return retryAfterS * 1000.0 + random() * RETRY_AFTER_MAX_JITTER_MS.toDouble()")
                }
                if strategy == .constant {
                    w.line("return profile.baseMs.toDouble()")
                    return
                }
                w.line("// 2^attempt exactly, as a double: infinite past its range, so min() gives the cap.")
                w.line("val v = Math.min(profile.capMs.toDouble(), profile.baseMs.toDouble() * Math.pow(2.0, attempt.toDouble()))")
                switch strategy {
                case .fullJitter: w.line("return random() * v")
                case .equalJitter: w.line("return v / 2.0 + random() * (v / 2.0)")
                case .exponential, .constant: w.line("return v")
                }
            }
        })
    })

    static let backoffVariants = FixedLines(.kotlin, depth: 1) { w, _ in
        w.doc("`backoffMs` with a `Random` for the jitter (`Random(seed)` in tests).")
        w.line("@JvmStatic")
        w.line("fun backoffMs(attempt: Int, retryAfterS: Double?, profile: RetryProfile, random: Random): Double =")
        w.line("    backoffMs(attempt, retryAfterS, profile) { random.nextDouble() }")
        w.line()
        w.doc {
            w.docText("""
                `backoffMs` rounded up to whole milliseconds, as `delay` takes them: never shorter than the exact \
                wait, so never before Retry-After (`Long.MAX_VALUE` past the range of a `Long`).
                """)
        }
        w.line("@JvmStatic")
        w.line("@JvmOverloads")
        w.line("fun backoffDelayMs(attempt: Int, retryAfterS: Double?, profile: RetryProfile, random: () -> Double = { Random.nextDouble() }): Long =")
        w.line("    Math.ceil(backoffMs(attempt, retryAfterS, profile, random)).toLong()")
        w.line()
        w.doc("`backoffDelayMs` with a `Random` for the jitter.")
        w.line("@JvmStatic")
        w.line("fun backoffDelayMs(attempt: Int, retryAfterS: Double?, profile: RetryProfile, random: Random): Long =")
        w.line("    backoffDelayMs(attempt, retryAfterS, profile) { random.nextDouble() }")
    }

    static let retryBudget = FixedLines(.kotlin, depth: 1) { w, _ in
        w.block("class RetryBudget @JvmOverloads constructor(private val now: () -> Long = { defaultNowMs() })") {
            w.line("private var sent: Long = 0L")
            w.line("private var retries: Long = 0L")
            w.line("private var since: Long = now()")
            w.line()
            w.doc("Counts one request sent.")
            w.line("@Synchronized")
            w.block("fun noteRequest()") {
                w.line("roll()")
                w.line("sent += 1")
            }
            w.line()
            w.doc("Takes one retry from the budget: false, and nothing taken, when the budget is spent.")
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
            w.line()
            w.block("companion object") {
                w.line("private val wallBaseMs: Long = System.currentTimeMillis()")
                w.line("private val nanoBase: Long = System.nanoTime()")
                w.line()
                w.doc {
                    w.docText("""
                        The default clock, in milliseconds since 1970: the wall clock read once, then advanced by \
                        a monotonic clock (`System.nanoTime`), so that setting the device clock back cannot move it.
                        """)
                }
                w.line("@JvmStatic")
                w.line("fun defaultNowMs(): Long = wallBaseMs + (System.nanoTime() - nanoBase) / 1_000_000L")
            }
        }
    }

    /// A Kotlin string literal of `text`: written by `Literal`, the one way text becomes one.
    static func literal(_ text: String) -> String {
        let w = CodeWriter(.kotlin, capacity: text.utf8.count + 2)
        w.write(quoted(text))
        return w.text
    }

    static func quoted(_ text: String) -> Literal { Literal(text: text) }

    /// The one way text becomes a Kotlin string literal: printable ASCII as is (but `"`, `\` and
    /// `$` escaped, so no template can run), every other UTF-16 unit as `\uXXXX`.
    struct Literal: Fragment {
        var text: String

        func write(to w: CodeWriter) {
            w.appendQuoted(text, backslashing: 0x24) { w, scalar in w.appendUTF16Escapes(scalar) }
        }
    }

    /// The lines of the KDoc comment of `text` (see `CodeWriter.docText`).
    static func doc(_ text: String) -> [String] {
        let w = CodeWriter(.kotlin, capacity: 2 * text.utf8.count + 16)
        w.doc { w.docText(text) }
        return w.lines
    }
}
