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

    var clock = 0L
    val budget = AndroidPlayerPolicy.RetryBudget { clock }
    var granted = 0
    repeat(20) { if (budget.tryRetry()) granted++ }
    check(granted == 10, "at least 10 retries a minute: got $granted")
    clock = 60_001L
    check(budget.tryRetry(), "a new minute gives a new budget")
    println("KotlinConsumer: ok (" + p.POLICY_NAME + ")")
}
