// Compiled by GeneratorCompileTests with -Werror together with Generated/Kotlin/PlaybackPolicy.kt
// and the generated HostilePolicy.kt, ExoticPolicy.kt and CrowdedPolicy.kt.
//
//   Main VECTORS.tsv        runs the reference vectors, checks policies with other values, and
//                           prints what the hostile policy's strings hold, UTF-16 unit by unit
//   Main --answers CASES    answers every case for each policy, for comparison with the other
//                           languages (see GeneratorCompileTests.cases)
//   Main --retry-after CASES  reads every Retry-After case with PlaybackPolicy.parseRetryAfter
//   Main --calls CALLS      runs every scripted call through PlaybackPolicy.callWithRetries
//                           (see CallTranscripts for the format and what is printed)
//   Main --batches CASES    runs every batch case through the named policy's itemsToRetry
//                           (see GeneratorCompileTests.batchCases)
import wandura.policies.CrowdedPolicy
import wandura.policies.ExoticPolicy
import wandura.policies.HostilePolicy
import wandura.policies.PlaybackPolicy
import java.io.File
import kotlin.random.Random

var failures = 0
var checked = 0

fun fail(message: String) {
    failures += 1
    println("FAIL " + message)
}

fun units(s: String?): String {
    if (s == null) return "null"
    return s.map { Integer.toHexString(it.toInt()) }.joinToString(" ")
}

fun expect(ok: Boolean, what: String) {
    checked += 1
    if (!ok) fail(what)
}

/** A clock the test moves by hand. */
class Clock {
    var ms = 0L
}

/** One generated policy behind functions, so that the cases run against each alike. */
class Face(
    val name: String,
    val isRetryable: (Int?, String?) -> Boolean,
    /** attempt, Retry-After, base, cap, random. */
    val backoffMs: (Int, Double?, Long, Long, () -> Double) -> Double,
    /** A budget on the clock: noteRequest, tryRetry. */
    val budget: (Clock) -> Pair<() -> Unit, () -> Boolean>
)

val faces = listOf(
    Face("playback", { s, c -> PlaybackPolicy.isRetryable(s, c) },
        { a, r, b, c, random -> PlaybackPolicy.backoffMs(a, r, PlaybackPolicy.RetryProfile(0, b, c, 0L, 0L), random) },
        { clock -> val b = PlaybackPolicy.RetryBudget { clock.ms }; Pair({ b.noteRequest() }, { b.tryRetry() }) }),
    Face("hostile", { s, c -> HostilePolicy.isRetryable(s, c) },
        { a, r, b, c, random -> HostilePolicy.backoffMs(a, r, HostilePolicy.RetryProfile(0, b, c, 0L, 0L), random) },
        { clock -> val b = HostilePolicy.RetryBudget { clock.ms }; Pair({ b.noteRequest() }, { b.tryRetry() }) }),
    Face("exotic", { s, c -> ExoticPolicy.isRetryable(s, c) },
        { a, r, b, c, random -> ExoticPolicy.backoffMs(a, r, ExoticPolicy.RetryProfile(0, b, c, 0L, 0L), random) },
        { clock -> val b = ExoticPolicy.RetryBudget { clock.ms }; Pair({ b.noteRequest() }, { b.tryRetry() }) })
)

fun bits(d: Double): String = String.format("%016x", java.lang.Double.doubleToRawLongBits(d))

fun double(bits: String): Double = java.lang.Double.longBitsToDouble(java.lang.Long.parseUnsignedLong(bits, 16))

/** The ops of a budget line on a fresh budget whose clock starts at t0: one 1 or 0 per tryRetry. */
fun runBudget(face: Face, t0: Long, ops: String): String {
    val clock = Clock()
    clock.ms = t0
    val (note, tryRetry) = face.budget(clock)
    val answers = StringBuilder()
    for (op in ops.split(",")) {
        clock.ms = op.substring(0, op.length - 1).toLong()
        if (op.endsWith("r")) note() else answers.append(if (tryRetry()) "1" else "0")
    }
    return answers.toString()
}

/** Status, the answer's code, and whether ExoticPolicy retries it (see the Swift driver). */
val exoticCases = listOf(
    Triple(503, "\u0958", false), Triple(503, "\u0915\u093C", true),
    Triple(503, "\u00E9", false), Triple(503, "e\u0301", true),
    Triple(429, "\u212A", false), Triple(429, "K", true),
    Triple(500, "\u0430", false), Triple(500, "a", true),
    Triple(503, "A\u030A", false), Triple(503, "\u00C5", true), Triple(503, "\u212B", true),
    Triple(503, "not_ready", false), Triple(503, "NOT_READY", true)
)

fun runVectors(path: String) {
    val playback = faces[0]
    for (line in File(path).readLines()) {
        if (line.length == 0 || line.startsWith("#")) continue
        val f = line.split("\t")
        checked += 1
        when (f[0]) {
            "retryable" -> {
                val status: Int? = if (f[1] == "-") null else f[1].toInt()
                val code: String? = if (f[2] == "-") null else f[2]
                val got = PlaybackPolicy.isRetryable(status, code)
                if (got.toString() != f[3]) fail("$line: got $got")
            }
            "backoff" -> {
                val profile = PlaybackPolicy.ALL_PROFILES.getValue(f[1])
                val retryAfter: Double? = if (f[3] == "-") null else f[3].toDouble()
                val r = f[4].toDouble()
                var calls = 0
                val got = PlaybackPolicy.backoffMs(f[2].toInt(), retryAfter, profile) { calls += 1; r }
                if (got != f[5].toDouble() || calls != 1) fail("$line: got $got with $calls calls of random()")
                val whole = PlaybackPolicy.backoffDelayMs(f[2].toInt(), retryAfter, profile) { r }
                if (whole != Math.ceil(f[5].toDouble()).toLong()) fail("$line: backoffDelayMs gave $whole")
            }
            "budget" -> {
                val answers = runBudget(playback, f[1].toLong(), f[2])
                val expected = if (f[3] == "-") "" else f[3]
                if (answers != expected) fail(line.take(60) + "...: got " + answers)
            }
            else -> fail("unknown line $line")
        }
    }

    // What 0.2 added for Android code, and the default clock: monotonic, so a budget made now starts full.
    val p = PlaybackPolicy
    expect(p.INTERACTIVE == PlaybackPolicy.RetryProfile(3, 500L, 8000L, 8000L, 15000L), "interactive profile values (kind interactive by default)")
    expect(p.BACKGROUND.kind == PlaybackPolicy.RetryProfile.Kind.BACKGROUND && p.BACKGROUND.kind.value == "background", "profile kinds")
    expect(!p.RETRY_REFUSED_PREFETCH, "a refused prefetch is not retried (the name of SPEC 4, as in Swift)")
    expect(p.BACKOFF_STRATEGY_KIND == PlaybackPolicy.BackoffStrategy.FULL_JITTER && p.BACKOFF_STRATEGY_KIND.value == p.BACKOFF_STRATEGY, "backoff enum")
    expect(p.VIEWER_REF_KIND == PlaybackPolicy.ViewerRefKind.PER_VIEWER_DEVICE && p.VIEWER_REF_KIND.value == p.VIEWER_REF, "viewer-ref enum")
    expect(p.TICKET_REUSE_KEY_ITEMS.map { it.value } == p.TICKET_REUSE_KEY, "reuse-key enums")
    expect(p.backoffDelayMs(0, 2.5, p.INTERACTIVE) { 0.0001 } == 2501L, "whole milliseconds round up")
    expect(p.backoffDelayMs(2000, null, p.BACKGROUND) { 0.5 } == 15000L, "whole milliseconds under the cap")
    expect(p.backoffDelayMs(0, 1e300, p.INTERACTIVE) { 0.5 } == Long.MAX_VALUE, "whole milliseconds past a Long")
    val seeded = p.backoffMs(3, null, p.INTERACTIVE, Random(7))
    expect(seeded == p.backoffMs(3, null, p.INTERACTIVE, Random(7)) && seeded >= 0.0 && seeded < 4000.0, "a seeded Random")
    expect(p.backoffDelayMs(3, null, p.INTERACTIVE, Random(7)) == Math.ceil(seeded).toLong(), "a seeded Random, whole milliseconds")
    val defaultBudget = PlaybackPolicy.RetryBudget()
    var granted = 0
    repeat(20) { if (defaultBudget.tryRetry()) granted += 1 }
    expect(granted == 10, "a budget on the default clock allows the floor of 10, got $granted")

    val slow = HostilePolicy.ALL_PROFILES.getValue("slow")
    expect(!HostilePolicy.isRetryable(null, null), "hostile: network errors are not retried")
    expect(HostilePolicy.isRetryable(429, null), "hostile: 429 is retried")
    expect(HostilePolicy.isRetryable(429) && !HostilePolicy.isRetryable(500) && PlaybackPolicy.isRetryable(null),
           "isRetryable without an error code, as the guide's errorCode?")
    expect(!HostilePolicy.isRetryable(500, null), "hostile: 500 is not retried")
    expect(!HostilePolicy.isRetryable(503, "not_ready"), "hostile: 503 not_ready is not retried")
    expect(HostilePolicy.isRetryable(503, "busy"), "hostile: 503 busy is retried")
    expect(!HostilePolicy.isRetryable(429, "\"); exit(1); //*/ \${x} \$y \\(z) \u2028"), "hostile: its own 429 code is not retried")
    expect(HostilePolicy.backoffMs(0, 2.0, slow) { 0.5 } == 2125.0, "hostile: jitter 250 ms")
    expect(HostilePolicy.backoffMs(2, -1.0, slow) { 0.5 } == 2000.0, "hostile: negative Retry-After, exponential")
    expect(HostilePolicy.backoffMs(Int.MAX_VALUE, null, slow) { 0.5 } == 5000.0, "hostile: huge attempt gives the cap")
    var clock = 0L
    val budget = HostilePolicy.RetryBudget { clock }
    repeat(200) { budget.noteRequest() }
    granted = 0
    while (budget.tryRetry()) granted += 1
    expect(granted == 5, "hostile: 200 requests at 2.5 % allow 5 retries, got $granted")
    clock = 60001L
    granted = 0
    while (budget.tryRetry()) granted += 1
    expect(granted == 3, "hostile: a new minute allows the floor of 3, got $granted")

    val wait = ExoticPolicy.ALL_PROFILES.getValue("wait")
    expect(ExoticPolicy.backoffMs(3, 30.0, wait) { 0.5 } == 1500.0, "exotic: Retry-After is not honored; equal jitter")
    expect(ExoticPolicy.backoffMs(10, null, wait) { 0.25 } == 3750.0, "exotic: the cap of 6 s, equal jitter")
    val exoticClock = Clock()
    val exoticBudget = ExoticPolicy.RetryBudget { exoticClock.ms }
    expect(!exoticBudget.tryRetry(), "exotic: a floor of 0 allows no retry before any request")
    repeat(40) { exoticBudget.noteRequest() }
    granted = 0
    while (exoticBudget.tryRetry()) granted += 1
    expect(granted == 3, "exotic: 40 requests at 7.5 % allow 3 retries, got $granted")
    for ((status, code, retryable) in exoticCases) {
        expect(ExoticPolicy.isRetryable(status, code) == retryable, "exotic: $status ${units(code)} retryable $retryable")
    }

    println("description: " + units(HostilePolicy.POLICY_DESCRIPTION))
    println("codes: " + HostilePolicy.NEVER_RETRY.map { units(it.code) }.joinToString(" | "))
    println("checked $checked, failed $failures")
}

fun runAnswers(path: String) {
    val cases = File(path).readLines().filter { it.length > 0 && !it.startsWith("#") }.map { it.split("\t") }
    val out = StringBuilder()
    for (face in faces) {
        for ((i, f) in cases.withIndex()) {
            val answer = when (f[0]) {
                "retryable" -> {
                    val status: Int? = if (f[1] == "-") null else f[1].toInt()
                    val code: String? = if (f[2] == "-") null else java.net.URLDecoder.decode(f[2], "UTF-8")
                    face.isRetryable(status, code).toString()
                }
                "backoff" -> {
                    val r = double(f[5])
                    var calls = 0
                    val d = face.backoffMs(f[3].toInt(), if (f[4] == "-") null else double(f[4]), f[1].toLong(), f[2].toLong()) { calls += 1; r }
                    bits(d) + "/" + calls
                }
                "budget" -> "=" + runBudget(face, f[1].toLong(), f[2])
                else -> "unknown"
            }
            out.append(face.name).append('\t').append(i).append('\t').append(answer).append('\n')
        }
    }
    print(out)
}

/** Runs one transcript line through `PlaybackPolicy.callWithRetries` (see CallTranscripts). */
fun runCall(f: List<String>): String {
    val t0 = f[2].toLong()
    val wall0 = f[3].toLong()
    val tick = f[4].toLong()
    val clock = Clock()
    clock.ms = t0
    var drawn = 0
    var sleeps = 0
    val timeouts = ArrayList<Long>()
    val budget = PlaybackPolicy.RetryBudget { clock.ms }
    repeat(f[5].toInt()) { budget.noteRequest() }
    repeat(f[6].toInt()) { budget.tryRetry() }
    val cancel = f[7]
    val randoms = f[8].split(",").map { double(it) }
    val steps = f[9].split(";").map { it.split(",") }
    fun text(s: String): String? = if (s == "-") null else java.net.URLDecoder.decode(s, "UTF-8")
    val profile = if (f[1] == "interactive") PlaybackPolicy.INTERACTIVE else PlaybackPolicy.BACKGROUND
    val outcome = PlaybackPolicy.callWithRetries(
        profile, budget,
        now = { val t = clock.ms; clock.ms += tick; t },
        wallNow = { wall0 + (clock.ms - t0) },
        sleep = { ms ->
            if (cancel == "s$sleeps") Thread.currentThread().interrupt()
            sleeps += 1
            // As Thread.sleep does: an interrupted thread does not sleep.
            if (Thread.interrupted()) throw InterruptedException()
            clock.ms += Math.ceil(ms).toLong()
        },
        random = { val r = randoms[drawn % randoms.size]; drawn += 1; r }
    ) { n, timeout ->
        timeouts.add(timeout)
        val step = steps[Math.min(n, steps.size - 1)]
        clock.ms += step[0].toLong()
        if (cancel == "a$n") Thread.currentThread().interrupt()
        PlaybackPolicy.AttemptResult(if (step[1] == "-") null else step[1].toInt(), text(step[2]), text(step[3]))
    }
    Thread.interrupted()  // the next call starts on a thread that is not interrupted
    val reason = when (outcome.reason) {
        PlaybackPolicy.Reason.SUCCEEDED -> "succeeded"
        PlaybackPolicy.Reason.NOT_RETRYABLE -> "notRetryable"
        PlaybackPolicy.Reason.RETRIES_USED -> "retriesUsed"
        PlaybackPolicy.Reason.DEADLINE -> "deadline"
        PlaybackPolicy.Reason.BUDGET -> "budget"
        PlaybackPolicy.Reason.CANCELLED -> "cancelled"
    }
    return listOf(reason, outcome.attempts.toString(), outcome.waitsMs.joinToString(",") { bits(it) }, timeouts.joinToString(","),
                  drawn.toString()).joinToString("\t")
}

/** What one policy's itemsToRetry answered, whatever its item type. */
class BatchParts<T>(val indices: List<Int>, val items: List<T>, val retryAfterS: Double?, val waitMs: Double?)

/**
 * One batch case's answer: the indices to ask again, then the wait's bits or `none`; `inconsistent`
 * when the items are not those at the indices or the wait is not the seconds in milliseconds.
 */
fun <T> batchAnswer(raw: List<List<String>>, make: (Boolean, Int?, String?, Double?) -> T, run: (List<T>) -> BatchParts<T>): String {
    val items = raw.map { f ->
        make(f[0] == "prefetch", if (f[1] == "-") null else f[1].toInt(), if (f[2] == "-") null else f[2], if (f[3] == "-") null else f[3].toDouble())
    }
    val r = run(items)
    val waitMs = r.waitMs
    val retryAfterS = r.retryAfterS
    val consistent = r.items == r.indices.map { items[it] } &&
        (if (retryAfterS == null) waitMs == null else waitMs != null && waitMs == retryAfterS * 1000.0)
    return r.indices.joinToString(",") + "\t" + (if (waitMs == null) "none" else bits(waitMs)) + (if (consistent) "" else "\tinconsistent")
}

/** One line per batch case: `policy<TAB>items`, items `intent,status,code,retryAfterS` split by `;`. */
fun runBatches(path: String): String {
    val out = StringBuilder()
    for (line in File(path).readLines()) {
        if (line.length == 0 || line.startsWith("#")) continue
        val f = line.split("\t")
        val raw = if (f[1].length == 0) listOf<List<String>>() else f[1].split(";").map { it.split(",") }
        out.append(when (f[0]) {
            "playback" -> batchAnswer(raw, { p, s, c, r -> PlaybackPolicy.TicketItem(if (p) PlaybackPolicy.TicketItem.Intent.PREFETCH else PlaybackPolicy.TicketItem.Intent.PLAY, s, c, r) },
                                      { val b = PlaybackPolicy.itemsToRetry(it); BatchParts(b.indices, b.items, b.retryAfterS, b.waitMs) })
            "hostile" -> batchAnswer(raw, { p, s, c, r -> HostilePolicy.TicketItem(if (p) HostilePolicy.TicketItem.Intent.PREFETCH else HostilePolicy.TicketItem.Intent.PLAY, s, c, r) },
                                     { val b = HostilePolicy.itemsToRetry(it); BatchParts(b.indices, b.items, b.retryAfterS, b.waitMs) })
            "exotic" -> batchAnswer(raw, { p, s, c, r -> ExoticPolicy.TicketItem(if (p) ExoticPolicy.TicketItem.Intent.PREFETCH else ExoticPolicy.TicketItem.Intent.PLAY, s, c, r) },
                                    { val b = ExoticPolicy.itemsToRetry(it); BatchParts(b.indices, b.items, b.retryAfterS, b.waitMs) })
            "crowded" -> batchAnswer(raw, { p, s, c, r -> CrowdedPolicy.TicketItem(if (p) CrowdedPolicy.TicketItem.Intent.PREFETCH else CrowdedPolicy.TicketItem.Intent.PLAY, s, c, r) },
                                     { val b = CrowdedPolicy.itemsToRetry(it); BatchParts(b.indices, b.items, b.retryAfterS, b.waitMs) })
            else -> "unknown policy"
        }).append('\n')
    }
    return out.toString()
}

fun main(args: Array<String>) {
    if (args.size == 2 && args[0] == "--retry-after") {
        val out = StringBuilder()
        for (line in File(args[1]).readLines()) {
            if (line.length == 0) continue
            val f = line.split("\t")
            val seconds = PlaybackPolicy.parseRetryAfter(java.net.URLDecoder.decode(f[0], "UTF-8"), f[1].toLong())
            out.append(if (seconds == null) "none" else bits(seconds)).append('\n')
        }
        print(out)
        return
    }
    if (args.size == 2 && args[0] == "--calls") {
        val out = StringBuilder()
        for (line in File(args[1]).readLines()) if (line.length > 0 && !line.startsWith("#")) out.append(runCall(line.split("\t"))).append('\n')
        print(out)
        return
    }
    if (args.size == 2 && args[0] == "--batches") {
        print(runBatches(args[1]))
        return
    }
    if (args.size == 2 && args[0] == "--answers") {
        runAnswers(args[1])
        return
    }
    if (args.size != 1) {
        println("usage: Main VECTORS.tsv | Main --answers CASES.tsv")
        System.exit(2)
    }
    runVectors(args[0])
    System.exit(if (failures == 0) 0 else 1)
}
