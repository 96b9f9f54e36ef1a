// Compiled by GeneratorCompileTests together with Generated/Kotlin/PlaybackPolicy.kt and a
// generated HostilePolicy.kt: runs the reference vectors, checks a policy with other values,
// and prints what the hostile policy's strings hold, UTF-16 unit by unit.
import wandura.policies.HostilePolicy
import wandura.policies.PlaybackPolicy
import java.io.File

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
    if (!ok) fail("hostile: " + what)
}

fun main(args: Array<String>) {
    if (args.size != 1) {
        println("usage: Main VECTORS.tsv")
        System.exit(2)
    }
    for (line in File(args[0]).readLines()) {
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
            }
            "budget" -> {
                var now = f[1].toLong()
                val budget = PlaybackPolicy.RetryBudget { now }
                val answers = StringBuilder()
                for (op in f[2].split(",")) {
                    now = op.substring(0, op.length - 1).toLong()
                    if (op.endsWith("r")) budget.noteRequest() else answers.append(if (budget.tryRetry()) "1" else "0")
                }
                val expected = if (f[3] == "-") "" else f[3]
                if (answers.toString() != expected) fail(line.take(60) + "...: got " + answers)
            }
            else -> fail("unknown line $line")
        }
    }

    val slow = HostilePolicy.ALL_PROFILES.getValue("slow")
    expect(!HostilePolicy.isRetryable(null, null), "network errors are not retried")
    expect(HostilePolicy.isRetryable(429, null), "429 is retried")
    expect(!HostilePolicy.isRetryable(500, null), "500 is not retried")
    expect(!HostilePolicy.isRetryable(503, "not_ready"), "503 not_ready is not retried")
    expect(HostilePolicy.isRetryable(503, "busy"), "503 busy is retried")
    expect(HostilePolicy.backoffMs(0, 2.0, slow) { 0.5 } == 2125.0, "jitter 250 ms")
    expect(HostilePolicy.backoffMs(2, -1.0, slow) { 0.5 } == 1000.0, "negative Retry-After")
    expect(HostilePolicy.backoffMs(Int.MAX_VALUE, null, slow) { 0.5 } == 2500.0, "huge attempt gives the cap")
    var clock = 0L
    val budget = HostilePolicy.RetryBudget { clock }
    repeat(200) { budget.noteRequest() }
    var granted = 0
    while (budget.tryRetry()) granted += 1
    expect(granted == 5, "200 requests at 2.5 % allow 5 retries, got $granted")
    clock = 60001L
    granted = 0
    while (budget.tryRetry()) granted += 1
    expect(granted == 3, "a new minute allows the floor of 3, got $granted")

    println("description: " + units(HostilePolicy.POLICY_DESCRIPTION))
    println("codes: " + HostilePolicy.NEVER_RETRY.map { units(it.code) }.joinToString(" | "))
    println("checked $checked, failed $failures")
    System.exit(if (failures == 0) 0 else 1)
}
