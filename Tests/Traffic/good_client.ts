// The good client of Tests/Traffic: the guide's client as a backend team writes it with the module
// `policyc generate --targets typescript` writes from Policies/ — one request for an episode and its
// prefetches, `itemsToRetry` picks what to ask for again, `callWithRetries` decides whether and when.
// Usage: node good_client.js URL   (compiled by test_recorded_traffic.py with tsc --strict)
import { INTERACTIVE, RetryBudget, callWithRetries, itemsToRetry } from "./generated/TypeScript/PlaybackPolicy";

declare const process: { argv: string[]; exitCode?: number };

type Ask = { episode: number; intent: "play" | "prefetch" };
type Item = { intent: "play" | "prefetch"; status?: number; retry_after?: number; error?: { code?: string } };

const FILM = "the-heiress-returns";
const DEVICE = "pixel-8-a41c";
const VIEWER = "Qm9vS2Vy:7f3a91c2e4b8";

async function post(url: string, asks: Ask[], timeoutMs: number): Promise<{ status: number; retryAfter: string | null; body: any }> {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    try {
        const response = await fetch(url, {
            method: "POST",
            headers: { "Content-Type": "application/json" },
            body: JSON.stringify({
                episodes: asks.map((a) => ({ film_ref: FILM, episode_no: a.episode, intent: a.intent })),
                union_info: DEVICE, drm_kek: "pk-" + DEVICE, viewer_ref: VIEWER,
            }),
            signal: controller.signal,
        });
        const body = await response.json().catch(() => ({}));
        return { status: response.status, retryAfter: response.headers.get("Retry-After"), body: body };
    } finally {
        clearTimeout(timer);
    }
}

/** One call: asks again only for the items `itemsToRetry` names, with the wait their `retry_after` asks for. */
async function call(url: string, budget: RetryBudget, episodes: Ask[]): Promise<string> {
    let asks = episodes;
    const outcome = await callWithRetries(INTERACTIVE, budget, async (_n, timeoutMs) => {
        let answer;
        try {
            answer = await post(url, asks, timeoutMs);
        } catch {
            return { status: null }; // no answer: a network error or the attempt's timeout
        }
        const code: string | null = answer.body?.error?.code ?? null;
        if (answer.status < 200 || answer.status >= 300) return { status: answer.status, errorCode: code, retryAfter: answer.retryAfter };
        const items: Item[] = answer.body.items ?? [];
        const again = itemsToRetry(items.map((i) => ({
            intent: i.intent, status: i.status ?? null, errorCode: i.error?.code ?? null, retryAfterS: i.retry_after ?? null,
        })));
        if (again.indices.length === 0) return { status: answer.status };
        asks = again.indices.map((i) => asks[i]);
        // The batch failed for the items still needed: the call goes on as a failed attempt would.
        const first = again.items[0];
        return { status: first.status, errorCode: first.errorCode, retryAfter: again.retryAfterS === null ? null : String(again.retryAfterS) };
    });
    return outcome.reason;
}

async function main(): Promise<void> {
    const url = process.argv[2];
    const budget = new RetryBudget();
    const calls: Ask[][] = [
        [{ episode: 1, intent: "play" }, { episode: 2, intent: "prefetch" }, { episode: 3, intent: "prefetch" }],
        [{ episode: 4, intent: "play" }, { episode: 5, intent: "prefetch" }, { episode: 6, intent: "prefetch" }],
        [{ episode: 7, intent: "play" }, { episode: 8, intent: "prefetch" }, { episode: 9, intent: "prefetch" }],
        [{ episode: 9, intent: "play" }, { episode: 10, intent: "prefetch" }],
    ];
    for (const episodes of calls) console.log(await call(url, budget, episodes));
}

main().catch((error) => {
    console.error(error);
    process.exitCode = 1;
});
