// A small Android-style client of the generated policy: it compiles only against the API that
// `policyc generate` produces, and checks a few answers of the canonical retry rules.
import com.example.player.policies.AndroidPlayerPolicy

fun check(condition: Boolean, what: String) {
    if (!condition) {
        System.err.println("FAILED: " + what)
        System.exit(1)
    }
}

fun main() {
    val p = AndroidPlayerPolicy
    check(p.INTERACTIVE.maxRetries == 3, "interactive retries")
    check(p.INTERACTIVE.timeoutMs == 8_000L, "interactive timeout")
    check(p.isRetryable(null, null), "network errors are retried")
    check(p.isRetryable(503, null), "503 is retried")
    check(!p.isRetryable(503, "not_ready"), "503 not_ready is never retried")
    check(!p.isRetryable(404, null), "404 is not retried")
    check(p.backoffMs(2, null, p.INTERACTIVE, { 0.5 }) == 1000.0, "full jitter under the cap")
    check(p.backoffMs(0, 2.5, p.INTERACTIVE, { 0.5 }) == 3000.0, "Retry-After plus jitter")

    // What coroutine code hands to delay(): whole milliseconds, rounded up (never before Retry-After).
    val waits = mutableListOf<Long>()
    fun delay(ms: Long) { waits.add(ms) }
    for (attempt in 0 until p.INTERACTIVE.maxRetries) {
        delay(p.backoffDelayMs(attempt, if (attempt == 0) 2.0005 else null, p.INTERACTIVE, kotlin.random.Random(1)))
    }
    check(waits.size == 3 && waits[0] in 2001L..3001L && waits[1] in 0L..1000L && waits[2] in 0L..2000L, "delays: $waits")
    check(p.INTERACTIVE.kind == AndroidPlayerPolicy.RetryProfile.Kind.INTERACTIVE, "the profile's kind")
    check(p.BACKOFF_STRATEGY_KIND == AndroidPlayerPolicy.BackoffStrategy.FULL_JITTER, "the backoff strategy as an enum")
    check(!p.RETRY_REFUSED_PREFETCH, "a refused prefetch is not retried")

    // One ticket call through the generated retry loop: 503 with Retry-After 2 s, then the tickets.
    var now = 1_000_000L
    val answers = listOf(AndroidPlayerPolicy.AttemptResult(503, "overloaded", "2"), AndroidPlayerPolicy.AttemptResult(200))
    val call = p.callWithRetries(p.INTERACTIVE, AndroidPlayerPolicy.RetryBudget { now }, { now }, { now }, { ms -> now += Math.ceil(ms).toLong() },
                                 { 0.5 }) { n, timeoutMs ->
        check(timeoutMs == 8_000L, "each attempt gets the profile's timeout: $timeoutMs")
        answers[n]
    }
    check(call.reason == AndroidPlayerPolicy.Reason.SUCCEEDED && call.attempts == 2 && call.waitsMs == listOf(2500.0), "the call: $call")

    var clock = 0L
    val budget = AndroidPlayerPolicy.RetryBudget { clock }
    var granted = 0
    repeat(20) { if (budget.tryRetry()) granted++ }
    check(granted == 10, "at least 10 retries a minute: got $granted")
    clock = 60_001L
    check(budget.tryRetry(), "a new minute gives a new budget")
    localServerCall()
    println("KotlinConsumer: ok (" + p.POLICY_NAME + ")")
}

/**
 * The same call over real HTTP against a small Wandura on 127.0.0.1 (the JDK's own server): busy
 * once (503 with Retry-After: 1), then the tickets, with the default clock and sleep.
 */
fun localServerCall() {
    val p = AndroidPlayerPolicy
    var served = 0
    val server = com.sun.net.httpserver.HttpServer.create(java.net.InetSocketAddress("127.0.0.1", 0), 0)
    server.createContext("/v1/tickets") { exchange ->
        served++
        val busy = served == 1
        if (busy) exchange.responseHeaders.add("Retry-After", "1")
        val body = (if (busy) "{\"code\":\"overloaded\"}" else "{\"tickets\":[\"t4\"]}").toByteArray()
        exchange.sendResponseHeaders(if (busy) 503 else 200, body.size.toLong())
        exchange.responseBody.use { it.write(body) }
    }
    server.start()
    try {
        val url = java.net.URL("http://127.0.0.1:" + server.address.port + "/v1/tickets")
        val call = p.callWithRetries(p.INTERACTIVE, AndroidPlayerPolicy.RetryBudget()) { _, timeoutMs ->
            val connection = url.openConnection() as java.net.HttpURLConnection
            connection.connectTimeout = timeoutMs.toInt()
            connection.readTimeout = timeoutMs.toInt()
            connection.requestMethod = "POST"
            connection.doOutput = true
            connection.outputStream.use { it.write("{\"episodes\":[{\"film_ref\":\"f1\",\"episode_no\":4,\"intent\":\"play\"}]}".toByteArray()) }
            val status = connection.responseCode
            val code = if (status == 503) "overloaded" else null
            AndroidPlayerPolicy.AttemptResult(status, code, connection.getHeaderField("Retry-After"))
        }
        check(call.reason == AndroidPlayerPolicy.Reason.SUCCEEDED && call.attempts == 2 && served == 2, "a local server, 503 then 200: $call")
        check(call.waitsMs.size == 1 && call.waitsMs[0] >= 1000.0 && call.waitsMs[0] <= 1000.0 + p.RETRY_AFTER_MAX_JITTER_MS,
              "the wait is Retry-After plus at most the jitter: ${call.waitsMs}")
    } finally {
        server.stop(0)
    }
}
