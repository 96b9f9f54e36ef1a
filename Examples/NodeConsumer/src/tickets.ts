// A backend endpoint's call to Wandura for tickets, retried as the guide says ("While your backend
// retries, keep the loading state"). It is the guide's retry code with one import changed: the
// values and functions come from the module that `policyc generate --targets typescript` writes.
import { INTERACTIVE, RetryBudget, RetryPolicy, backoffMs, isRetryable } from "../build/generated/TypeScript/PlaybackPolicy";

/** What one attempt gives back; a network error throws instead. */
export type Answer = { status: number; retryAfterS: number | null; errorCode?: string; tickets?: string[] };

/** What the call needs from the outside world, injected so that tests control time and chance. */
export type World = {
    send(timeoutMs: number): Promise<Answer>;
    sleep(ms: number): Promise<void>;
    now(): number;
    random(): number;
};

/** The answer to show, and how hard the call tried for it. */
export type Outcome = { answer: Answer | null; attempts: number; waitedMs: number };

/**
 * Asks for tickets until an answer is final, a retry is not allowed (the status, the retry budget,
 * the policy's retries or its deadline), or Wandura answers: at most `maxRetries` retries, waiting
 * `backoffMs` between attempts (Retry-After when Wandura sends one).
 */
export async function requestTickets(world: World, budget: RetryBudget, policy: RetryPolicy = INTERACTIVE): Promise<Outcome> {
    const start = world.now();
    let waitedMs = 0;
    for (let attempt = 0; ; attempt++) {
        budget.noteRequest();
        let answer: Answer | null = null;
        try {
            answer = await world.send(policy.timeoutMs);
        } catch {
            answer = null; // a network error: no status at all
        }
        if (answer !== null && answer.status < 400) return { answer, attempts: attempt + 1, waitedMs };
        const status = answer === null ? null : answer.status;
        if (attempt >= policy.maxRetries || !isRetryable(status, answer?.errorCode)) return { answer, attempts: attempt + 1, waitedMs };
        const waitMs = backoffMs(attempt, answer === null ? null : answer.retryAfterS, policy, world.random);
        if (world.now() - start + waitMs > policy.deadlineMs || !budget.tryRetry()) return { answer, attempts: attempt + 1, waitedMs };
        await world.sleep(waitMs);
        waitedMs += waitMs;
    }
}
