import Foundation

// Uses the API that the policyc plugin generated from playback.yaml during this build.
func check(_ condition: Bool, _ what: String) {
    if !condition {
        print("FAILED: \(what)")
        exit(1)
    }
}

let interactive = PlaybackPolicy.interactive
check(interactive.maxRetries == 3, "interactive retries")
check(PlaybackPolicy.isRetryable(status: nil, errorCode: nil), "network errors are retried")
check(!PlaybackPolicy.isRetryable(status: 503, errorCode: "not_ready"), "503 not_ready is never retried")
check(PlaybackPolicy.backoffMs(attempt: 2, retryAfterS: nil, profile: interactive, random: { 0.5 }) == 1000,
      "full jitter under the cap")

nonisolated(unsafe) var clock: Int64 = 0
let budget = PlaybackPolicy.RetryBudget(now: { clock })
var granted = 0
for _ in 0..<20 where budget.tryRetry() { granted += 1 }
check(granted == 10, "at least 10 retries a minute, got \(granted)")
print("SwiftConsumer: ok (budget ratio \(PlaybackPolicy.budgetRatio))")
