// A backend endpoint's call to Wandura for tickets, retried as the guide says ("While your backend
// retries, keep the loading state"): the generated `callWithRetries` makes the attempts, in the
// guide's order, with the values of the module that `policyc generate --targets typescript` writes.
import { INTERACTIVE, RetryBudget, RetryPolicy, callWithRetries } from "../build/generated/TypeScript/PlaybackPolicy";

/** What one attempt gives back; a network error throws instead. */
export type Answer = { status: number; retryAfter: string | null; errorCode?: string; tickets?: string[] };

/** What the call needs from the outside world, injected so that tests control time and chance. */
export type World = {
    send(timeoutMs: number): Promise<Answer>;
    sleep(ms: number): Promise<void>;
    now(): number;
    random(): number;
};

/** The answer to show, how hard the call tried for it, and why it stopped. */
export type Outcome = { answer: Answer | null; attempts: number; waitedMs: number; reason: string };

/**
 * Asks for tickets until an answer is final, a retry is not allowed (the status, the retry budget,
 * the policy's retries or its deadline), or Wandura answers: `callWithRetries` decides, this only
 * sends and keeps the last answer.
 */
export async function requestTickets(world: World, budget: RetryBudget, policy: RetryPolicy = INTERACTIVE): Promise<Outcome> {
    const last: { answer: Answer | null } = { answer: null };
    const outcome = await callWithRetries(policy, budget, async (_n, timeoutMs) => {
        try {
            const answer = await world.send(timeoutMs);
            last.answer = answer;
            return { status: answer.status, errorCode: answer.errorCode ?? null, retryAfter: answer.retryAfter };
        } catch {
            last.answer = null;
            return { status: null }; // a network error: no status at all
        }
    }, { now: world.now, sleep: world.sleep, random: world.random });
    return { answer: last.answer, attempts: outcome.attempts, waitedMs: outcome.waitsMs.reduce((a, b) => a + b, 0), reason: outcome.reason };
}
