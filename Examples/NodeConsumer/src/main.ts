// Runs the backend's ticket call against a fake Wandura, with an injected clock and random source,
// and checks what a viewer would get. Built and run by build.sh (and by Examples/test).
import { requestTickets, Answer, World } from "./tickets";
import { BACKGROUND, INTERACTIVE, POLICY_NAME, RetryBudget } from "../build/generated/TypeScript/PlaybackPolicy";

// No @types/node in this example: the two things it uses of node, declared.
declare const console: { log(text: string): void; error(text: string): void };
declare const process: { exitCode?: number };

/** A fake Wandura that gives `answers` in turn, on a clock that only sleeping moves. */
function fakeWorld(answers: Answer[]): World & { sent: number; clock: number } {
    const world = {
        sent: 0,
        clock: 1_000_000,
        async send(timeoutMs: number): Promise<Answer> {
            if (timeoutMs < 5000) throw new Error("the guide asks for at least 5 s of client timeout");
            const answer = answers[Math.min(world.sent, answers.length - 1)];
            world.sent++;
            if (answer === undefined) throw new Error("no answer: a network error");
            return answer;
        },
        async sleep(ms: number): Promise<void> {
            world.clock += ms;
        },
        now: (): number => world.clock,
        random: (): number => 0.5,
    };
    return world;
}

let failed = false;
function check(condition: boolean, what: string): void {
    if (!condition) {
        console.error("FAILED: " + what);
        failed = true;
    }
}

async function main(): Promise<void> {
    const busy: Answer = { status: 503, retryAfter: "2", errorCode: "overloaded" };
    const ok: Answer = { status: 200, retryAfter: null, tickets: ["t4", "t5", "t6"] };

    // 503 with Retry-After: 2 s, then the tickets. The wait is Retry-After plus half the jitter.
    const world = fakeWorld([busy, ok]);
    const budget = new RetryBudget(world.now);
    const first = await requestTickets(world, budget);
    check(first.answer === ok && first.attempts === 2 && first.waitedMs === 2500, "503 then 200: " + JSON.stringify(first));

    // 503 not_ready is final: no retry at all.
    const notReady = await requestTickets(fakeWorld([{ status: 503, retryAfter: "1", errorCode: "not_ready" }, ok]), budget);
    check(notReady.attempts === 1 && notReady.answer !== null && notReady.answer.status === 503, "503 not_ready is never retried");

    // Always busy: the viewer's call gives up after 3 retries, well within 15 s.
    const gaveUp = await requestTickets(fakeWorld([busy]), budget);
    check(gaveUp.attempts === INTERACTIVE.maxRetries + 1 && gaveUp.reason === "retriesUsed" && gaveUp.waitedMs <= INTERACTIVE.deadlineMs,
          "interactive gives up: " + JSON.stringify(gaveUp));

    // Network errors, then the tickets, for a sync job: exponential full jitter (500 * 0.5, then 1000 * 0.5 ms...).
    const flaky = fakeWorld([]);
    let calls = 0;
    flaky.send = async (): Promise<Answer> => {
        calls++;
        if (calls < 3) throw new Error("connection reset");
        return ok;
    };
    const sync = await requestTickets(flaky, new RetryBudget(flaky.now), BACKGROUND);
    check(sync.answer === ok && sync.attempts === 3 && sync.waitedMs === 500 + 1000, "network errors then 200: " + JSON.stringify(sync));

    if (failed) {
        process.exitCode = 1;
        return;
    }
    console.log("NodeConsumer: ok (policy " + POLICY_NAME + ", waited " + first.waitedMs + " ms before the tickets came)");
}

main().catch((error: unknown) => {
    console.error("FAILED: " + String(error));
    process.exitCode = 1;
});
