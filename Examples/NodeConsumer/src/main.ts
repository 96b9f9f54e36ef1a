// Runs the backend's ticket call against a fake Wandura, with an injected clock and random source,
// and checks what a viewer would get. Built and run by build.sh (and by Examples/test).
import { requestTickets, Answer, World } from "./tickets";
import { BACKGROUND, INTERACTIVE, POLICY_NAME, RETRY_AFTER_MAX_JITTER_MS, RetryBudget } from "../build/generated/TypeScript/PlaybackPolicy";

// No @types/node in this example: the things it uses of node, declared.
declare const console: { log(text: string): void; error(text: string): void };
declare const process: { exitCode?: number };
declare function require(name: "http"): {
    createServer(handler: (req: unknown, res: { writeHead(status: number, headers: Record<string, string>): void; end(body: string): void }) => void): {
        listen(port: number, host: string, done: () => void): void;
        address(): { port: number };
        close(): void;
    };
};
declare function fetch(url: string, init: { method: string; body: string; headers: Record<string, string>; signal: unknown }):
    Promise<{ status: number; headers: { get(name: string): string | null }; json(): Promise<{ code?: string; tickets?: string[] }> }>;
declare const AbortSignal: { timeout(ms: number): unknown };

/**
 * A small Wandura on 127.0.0.1: busy once (503 with Retry-After: 1), then the tickets. The world
 * that talks to it sends real HTTP with the attempt's timeout, and really sleeps.
 */
async function localWandura(): Promise<{ world: World; served: () => number; close: () => void }> {
    let served = 0;
    const server = require("http").createServer((_req, res) => {
        served++;
        if (served === 1) {
            res.writeHead(503, { "Retry-After": "1", "Content-Type": "application/json" });
            res.end(JSON.stringify({ code: "overloaded" }));
        } else {
            res.writeHead(200, { "Content-Type": "application/json" });
            res.end(JSON.stringify({ tickets: ["t4", "t5", "t6"] }));
        }
    });
    await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
    const url = "http://127.0.0.1:" + server.address().port + "/v1/tickets";
    const world: World = {
        async send(timeoutMs: number): Promise<Answer> {
            const response = await fetch(url, {
                method: "POST", body: JSON.stringify({ episodes: [{ film_ref: "f1", episode_no: 4, intent: "play" }] }),
                headers: { "Content-Type": "application/json" }, signal: AbortSignal.timeout(timeoutMs),
            });
            const body = await response.json();
            return { status: response.status, retryAfter: response.headers.get("retry-after"), errorCode: body.code, tickets: body.tickets };
        },
        sleep: (ms: number) => new Promise<void>((done) => setTimeout(done, ms)),
        now: () => Date.now(),
        random: () => Math.random(),
    };
    return { world, served: () => served, close: () => server.close() };
}
declare function setTimeout(callback: () => void, ms: number): unknown;

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

    // The same call over real HTTP against a local server: one 503 with Retry-After, then tickets,
    // after a real wait of Retry-After plus jitter.
    const local = await localWandura();
    try {
        const real = await requestTickets(local.world, new RetryBudget(local.world.now));
        check(real.reason === "succeeded" && real.attempts === 2 && local.served() === 2 && real.answer?.tickets?.length === 3,
              "a local server, 503 then 200: " + JSON.stringify(real));
        check(real.waitedMs >= 1000 && real.waitedMs <= 1000 + RETRY_AFTER_MAX_JITTER_MS,
              "the wait is Retry-After plus at most the jitter: " + real.waitedMs);
    } finally {
        local.close();
    }

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
