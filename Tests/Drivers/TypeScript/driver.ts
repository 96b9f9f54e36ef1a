// Compiled by GeneratorCompileTests with tsc --strict (as CommonJS) together with the generated
// PlaybackPolicy.ts, HostilePolicy.ts, ExoticPolicy.ts, CrowdedPolicy.ts and index.ts, and guide.ts: the
// guide's own TypeScript, cut out of the guide by the test. Run with node.
//
//   driver.js VECTORS.tsv        runs the reference vectors against the generated module AND the
//                                guide's code (both must answer as expected), checks policies with
//                                other values, and prints what the hostile policy's strings hold,
//                                UTF-16 unit by unit
//   driver.js --answers CASES    answers every case for each policy and for the guide's code, for
//                                comparison with the other languages (see GeneratorCompileTests.cases)
//   driver.js --retry-after CASES  reads every Retry-After case with parseRetryAfter
//   driver.js --calls CALLS      runs every scripted call through PlaybackPolicy's callWithRetries
//                                (see CallTranscripts for the format and what is printed)
//   driver.js --batches CASES    runs every batch case through the named policy's itemsToRetry
//                                (see GeneratorCompileTests.batchCases)
import * as guide from "./guide";
import * as playback from "./PlaybackPolicy";
import * as hostile from "./HostilePolicy";
import * as exotic from "./ExoticPolicy";
import * as crowded from "./CrowdedPolicy";
import * as policies from "./index";

// No @types/node here: what the driver uses of node, declared.
declare function require(id: "fs"): { readFileSync(path: string, encoding: "utf8"): string };
declare const process: { argv: string[]; exitCode?: number; stdout: { write(text: string): boolean } };

const fs = require("fs");
let out = "";
function print(line: string): void {
    out += line + "\n";
}

/** One policy behind functions, so that the cases run against each alike. */
type Face = {
    name: string;
    isRetryable(status: number | null, errorCode?: string): boolean;
    backoffMs(attempt: number, retryAfterS: number | null, p: playback.RetryPolicy, random: () => number): number;
    /** A budget on a clock the driver sets before each step. */
    budget(now: () => number): { noteRequest(): void; tryRetry(): boolean };
};

/** The clock of every budget the driver makes: the generated ones take it, the guide's reads Date.now. */
let clock = 0;
const fakeNow = (): number => clock;
const realDateNow = Date.now;

const faces: Face[] = [
    { name: "playback", isRetryable: playback.isRetryable, backoffMs: playback.backoffMs, budget: (now) => new playback.RetryBudget(now) },
    { name: "hostile", isRetryable: hostile.isRetryable, backoffMs: hostile.backoffMs, budget: (now) => new hostile.RetryBudget(now) },
    { name: "exotic", isRetryable: exotic.isRetryable, backoffMs: exotic.backoffMs, budget: (now) => new exotic.RetryBudget(now) },
];
// The guide's RetryBudget takes no clock: it reads Date.now, which the driver replaces meanwhile.
const guideFace: Face = { name: "guide", isRetryable: guide.isRetryable, backoffMs: guide.backoffMs, budget: () => new guide.RetryBudget() };

function hex8(n: number): string {
    const h = n.toString(16);
    return "00000000".slice(h.length) + h;
}
const view = new DataView(new ArrayBuffer(8));
function bits(d: number): string {
    view.setFloat64(0, d);
    return hex8(view.getUint32(0)) + hex8(view.getUint32(4));
}
function fromBits(h: string): number {
    view.setUint32(0, parseInt(h.slice(0, 8), 16));
    view.setUint32(4, parseInt(h.slice(8), 16));
    return view.getFloat64(0);
}

/** The ops of a budget line on a fresh budget whose clock starts at t0: one 1 or 0 per tryRetry. */
function runBudget(face: Face, t0: number, ops: string): string {
    clock = t0;
    Date.now = fakeNow;
    try {
        const budget = face.budget(fakeNow);
        let answers = "";
        for (const op of ops.split(",")) {
            clock = Number(op.slice(0, -1));
            if (op.charAt(op.length - 1) === "r") budget.noteRequest();
            else answers += budget.tryRetry() ? "1" : "0";
        }
        return answers;
    } finally {
        Date.now = realDateNow;
    }
}

function units(s: string | null): string {
    if (s === null) return "null";
    const u: string[] = [];
    for (let i = 0; i < s.length; i++) u.push(s.charCodeAt(i).toString(16));
    return u.join(" ");
}

/** Status, the answer's code, and whether ExoticPolicy retries it (see the Swift driver). */
const exoticCases: [number, string, boolean][] = [
    [503, "\u0958", false], [503, "\u0915\u093C", true],
    [503, "\u00E9", false], [503, "e\u0301", true],
    [429, "\u212A", false], [429, "K", true],
    [500, "\u0430", false], [500, "a", true],
    [503, "A\u030A", false], [503, "\u00C5", true], [503, "\u212B", true],
    [503, "not_ready", false], [503, "NOT_READY", true],
];

// The generated module is the guide's, type for type, so that a backend switches by changing one
// import: each export can stand for the other's (tsc checks these lines).
type Budget = new () => { noteRequest(): void; tryRetry(): boolean };
const guideTypes: [typeof guide.isRetryable, typeof guide.backoffMs, guide.RetryPolicy, guide.RetryPolicy, Budget] =
    [playback.isRetryable, playback.backoffMs, playback.INTERACTIVE, playback.BACKGROUND, playback.RetryBudget];
// (The generated functions take more than the guide's, undefined too: only the values go both ways.)
const generatedTypes: [playback.RetryPolicy, playback.RetryPolicy, Budget] = [guide.INTERACTIVE, guide.BACKGROUND, guide.RetryBudget];

function runVectors(path: string): number {
    let failures = 0;
    let checked = 0;
    const fail = (message: string): void => {
        failures++;
        print("FAIL " + message);
    };
    const expect = (ok: boolean, what: string): void => {
        checked++;
        if (!ok) fail(what);
    };
    for (const line of fs.readFileSync(path, "utf8").split("\n")) {
        if (line.length === 0 || line.charAt(0) === "#") continue;
        const f = line.split("\t");
        checked++;
        // Both the generated module and the guide's code answer every vector, each as expected.
        for (const face of [faces[0], guideFace]) {
            if (f[0] === "retryable") {
                const status = f[1] === "-" ? null : Number(f[1]);
                const got = f[2] === "-" ? face.isRetryable(status) : face.isRetryable(status, f[2]);
                if (String(got) !== f[3]) fail(face.name + ": " + line + ": got " + got);
            } else if (f[0] === "backoff") {
                const profile = f[1] === "interactive" ? playback.INTERACTIVE : f[1] === "background" ? playback.BACKGROUND : null;
                if (profile === null || profile !== playback.ALL_PROFILES[f[1] as playback.ProfileName]) {
                    fail("unknown profile " + line);
                    continue;
                }
                const r = Number(f[4]);
                let calls = 0;
                const got = face.backoffMs(Number(f[2]), f[3] === "-" ? null : Number(f[3]), profile, () => {
                    calls++;
                    return r;
                });
                if (got !== Number(f[5]) || calls !== 1) fail(face.name + ": " + line + ": got " + got + " with " + calls + " calls of random()");
            } else if (f[0] === "budget") {
                const answers = runBudget(face, Number(f[1]), f[2]);
                if (answers !== (f[3] === "-" ? "" : f[3])) fail(face.name + ": " + line.slice(0, 60) + "...: got " + answers);
            } else {
                fail("unknown line " + line);
            }
        }
    }

    // The constants, and the default clock: monotonic (performance.now), so a budget made now
    // starts full, and a wall clock that jumps (Date.now, faked) does not move it.
    expect(guideTypes.length === 5 && generatedTypes.length === 3, "the same types");
    expect(JSON.stringify(playback.INTERACTIVE) === JSON.stringify(guide.INTERACTIVE) &&
           JSON.stringify(playback.BACKGROUND) === JSON.stringify(guide.BACKGROUND), "the guide's profile values");
    expect(playback.PROFILE_KINDS.background === "background" && playback.BACKOFF_STRATEGY === "full-jitter", "kinds and strategy");
    // Several policies through one import (index.ts), a namespace per policy; string constants
    // keep their literal types (tsc checks these lines).
    const literalName: "playback" = policies.PlaybackPolicy.POLICY_NAME;
    const literalStrategy: "full-jitter" = policies.PlaybackPolicy.BACKOFF_STRATEGY;
    expect(literalName === "playback" && literalStrategy === "full-jitter" && policies.HostilePolicy.isRetryable === hostile.isRetryable &&
           policies.CrowdedPolicy.POLICY_NAME === crowded.POLICY_NAME && policies.ExoticPolicy.ALL_PROFILES === exotic.ALL_PROFILES,
           "index.ts: one import, a namespace per policy, literal types");
    expect(playback.BUDGET_RATIO === 0.1 && playback.RETRYABLE_STATUSES.join() === "429,500,502,503", "budget and statuses");
    expect(Object.isFrozen(playback.INTERACTIVE) && Object.isFrozen(playback.NEVER_RETRY) && Object.isFrozen(playback.ALL_PROFILES), "frozen values");
    // The wall clock (Date.now, faked from before the budget is made) jumps an hour ahead once the
    // budget is spent: a budget on the wall clock would start a new minute, this one does not.
    let wall = realDateNow();
    Date.now = () => wall;
    let granted = 0;
    try {
        const budget = new playback.RetryBudget();
        for (let i = 0; i < 20; i++) if (budget.tryRetry()) granted++;
        wall += 3600000;
        expect(!budget.tryRetry(), "the default clock is not the wall clock: a wall clock an hour ahead rolls no minute");
    } finally {
        Date.now = realDateNow;
    }
    expect(granted === 10, "a budget on the default clock allows the floor of 10, got " + granted);

    // HostilePolicy has other values: no network, 429/503, jitter 250 ms, ratio 2.5 %, floor 3.
    const slow = hostile.ALL_PROFILES.slow;
    expect(!hostile.isRetryable(null), "hostile: network errors are not retried");
    expect(hostile.isRetryable(429), "hostile: 429 is retried");
    expect(!hostile.isRetryable(500), "hostile: 500 is not retried");
    expect(!hostile.isRetryable(503, "not_ready"), "hostile: 503 not_ready is not retried");
    expect(hostile.isRetryable(503, "busy"), "hostile: 503 busy is retried");
    expect(!hostile.isRetryable(429, "\"); exit(1); //*/ ${x} $y \\(z) \u2028"), "hostile: its own 429 code is not retried");
    expect(hostile.backoffMs(0, 2, slow, () => 0.5) === 2125, "hostile: jitter 250 ms");
    expect(hostile.backoffMs(2, -1, slow, () => 0.5) === 2000, "hostile: negative Retry-After, exponential");
    expect(hostile.backoffMs(2147483647, null, slow, () => 0.5) === 5000, "hostile: huge attempt gives the cap");
    let hostileClock = 0;
    const hostileBudget = new hostile.RetryBudget(() => hostileClock);
    for (let i = 0; i < 200; i++) hostileBudget.noteRequest();
    granted = 0;
    while (hostileBudget.tryRetry()) granted++;
    expect(granted === 5, "hostile: 200 requests at 2.5 % allow 5 retries, got " + granted);
    hostileClock = 60001;
    granted = 0;
    while (hostileBudget.tryRetry()) granted++;
    expect(granted === 3, "hostile: a new minute allows the floor of 3, got " + granted);

    const wait = exotic.ALL_PROFILES.wait;
    expect(exotic.backoffMs(3, 30, wait, () => 0.5) === 1500, "exotic: Retry-After is not honored; equal jitter");
    expect(exotic.backoffMs(10, null, wait, () => 0.25) === 3750, "exotic: the cap of 6 s, equal jitter");
    let exoticClock = 0;
    const exoticBudget = new exotic.RetryBudget(() => exoticClock);
    expect(!exoticBudget.tryRetry(), "exotic: a floor of 0 allows no retry before any request");
    for (let i = 0; i < 40; i++) exoticBudget.noteRequest();
    granted = 0;
    while (exoticBudget.tryRetry()) granted++;
    expect(granted === 3, "exotic: 40 requests at 7.5 % allow 3 retries, got " + granted);
    for (const [status, code, retryable] of exoticCases) {
        expect(exotic.isRetryable(status, code) === retryable, "exotic: " + status + " " + units(code) + " retryable " + retryable);
    }
    // The crowded policy's profiles take the names of what the module uses; it still works.
    expect(crowded.MATH.maxRetries === 1 && crowded.isRetryable(429) && crowded.backoffMs(1, null, crowded.RANDOM, () => 0.5) === 1000,
           "crowded: profiles named like the module's locals");

    print("description: " + units(hostile.POLICY_DESCRIPTION));
    print("codes: " + hostile.NEVER_RETRY.map((n) => units(n.code)).join(" | "));
    print("checked " + checked + ", failed " + failures);
    return failures === 0 ? 0 : 1;
}

function runAnswers(path: string): number {
    const cases = fs.readFileSync(path, "utf8").split("\n").filter((l) => l.length > 0 && l.charAt(0) !== "#").map((l) => l.split("\t"));
    for (const face of faces.concat([guideFace])) {
        for (let i = 0; i < cases.length; i++) {
            const f = cases[i];
            let answer: string;
            if (f[0] === "retryable") {
                const status = f[1] === "-" ? null : Number(f[1]);
                answer = String(f[2] === "-" ? face.isRetryable(status) : face.isRetryable(status, decodeURIComponent(f[2])));
            } else if (f[0] === "backoff") {
                const r = fromBits(f[5]);
                let calls = 0;
                const profile = { maxRetries: 0, baseMs: Number(f[1]), capMs: Number(f[2]), timeoutMs: 0, deadlineMs: 0 };
                const d = face.backoffMs(Number(f[3]), f[4] === "-" ? null : fromBits(f[4]), profile, () => {
                    calls++;
                    return r;
                });
                answer = bits(d) + "/" + calls;
            } else if (f[0] === "budget") {
                answer = "=" + runBudget(face, Number(f[1]), f[2]);
            } else {
                answer = "unknown";
            }
            print(face.name + "\t" + i + "\t" + answer);
        }
    }
    return 0;
}

// Node's AbortController (no @types/node here).
declare const AbortController: new () => { signal: playback.AbortSignalLike; abort(): void };

/** Runs one transcript line through `callWithRetries` (see CallTranscripts). */
function runCall(f: string[]): Promise<string> {
    const t0 = Number(f[2]), wall0 = Number(f[3]), tick = Number(f[4]);
    let clock = t0;
    let drawn = 0;
    let sleeps = 0;
    const timeouts: number[] = [];
    const budget = new playback.RetryBudget(() => clock);
    for (let i = 0; i < Number(f[5]); i++) budget.noteRequest();
    for (let i = 0; i < Number(f[6]); i++) budget.tryRetry();
    const cancel = f[7];
    const randoms = f[8].split(",").map(fromBits);
    const steps = f[9].split(";").map((s) => s.split(","));
    const controller = new AbortController();
    const text = (s: string): string | null => (s === "-" ? null : decodeURIComponent(s));
    const profile = f[1] === "interactive" ? playback.INTERACTIVE : playback.BACKGROUND;
    return playback
        .callWithRetries(profile, budget, (n, timeout) => {
            timeouts.push(timeout);
            const step = steps[Math.min(n, steps.length - 1)];
            clock += Number(step[0]);
            if (cancel === "a" + n) controller.abort();
            // A network error as axios gives it: no status at all (undefined), or null.
            const status = step[1] === "-" ? (n % 2 === 0 ? undefined : null) : Number(step[1]);
            return Promise.resolve({ status: status, errorCode: text(step[2]), retryAfter: text(step[3]) });
        }, {
            now: () => {
                const t = clock;
                clock += tick;
                return t;
            },
            wallNow: () => wall0 + (clock - t0),
            sleep: (ms) => {
                if (cancel === "s" + sleeps++) {
                    controller.abort();
                    return new Promise<void>(() => undefined);  // never ends: the abort does
                }
                clock += Math.ceil(ms);
                return Promise.resolve();
            },
            random: () => randoms[drawn++ % randoms.length],
            signal: controller.signal,
        })
        .then((o) => [o.reason, String(o.attempts), o.waitsMs.map(bits).join(","), timeouts.join(","), String(drawn)].join("\t"));
}

function runCalls(path: string): Promise<number> {
    const lines = fs.readFileSync(path, "utf8").split("\n").filter((l) => l.length > 0 && l.charAt(0) !== "#");
    let chain: Promise<void> = Promise.resolve();
    for (const line of lines) chain = chain.then(() => runCall(line.split("\t")).then((answer) => print(answer)));
    return chain.then(() => 0);
}

/**
 * One line per batch case: `policy<TAB>items`, items `intent,status,code,retryAfterS` split by `;`;
 * answers the indices to ask again, then the wait's bits or `none`, and `inconsistent` when the
 * items are not those at the indices or the wait is not the seconds in milliseconds.
 */
function runBatches(path: string): number {
    const modules: { [name: string]: (items: playback.TicketItem[]) => playback.BatchRetry } = {
        playback: playback.itemsToRetry, hostile: hostile.itemsToRetry, exotic: exotic.itemsToRetry, crowded: crowded.itemsToRetry,
    };
    for (const line of fs.readFileSync(path, "utf8").split("\n")) {
        if (line.length === 0 || line.charAt(0) === "#") continue;
        const f = line.split("\t");
        const items: playback.TicketItem[] = (f[1] === "" ? [] : f[1].split(";")).map((text) => {
            const g = text.split(",");
            return { intent: g[0] === "prefetch" ? "prefetch" : "play", status: g[1] === "-" ? null : Number(g[1]),
                     errorCode: g[2] === "-" ? null : g[2], retryAfterS: g[3] === "-" ? null : Number(g[3]) };
        });
        const r = modules[f[0]](items);
        const consistent = r.items.length === r.indices.length && r.indices.every((i, k) => r.items[k] === items[i])
            && r.waitMs === (r.retryAfterS === null ? null : r.retryAfterS * 1000);
        print(r.indices.join(",") + "\t" + (r.waitMs === null ? "none" : bits(r.waitMs)) + (consistent ? "" : "\tinconsistent"));
    }
    return 0;
}

const args = process.argv.slice(2);
let status = 2;
if (args.length === 2 && args[0] === "--retry-after") {
    for (const line of fs.readFileSync(args[1], "utf8").split("\n")) {
        if (line.length === 0) continue;
        const f = line.split("\t");
        const seconds = playback.parseRetryAfter(decodeURIComponent(f[0]), Number(f[1]));
        print(seconds === null ? "none" : bits(seconds));
    }
    status = 0;
} else if (args.length === 2 && args[0] === "--calls") {
    runCalls(args[1]).then((code) => {
        process.stdout.write(out);
        process.exitCode = code;
    });
    status = -1;
} else if (args.length === 2 && args[0] === "--batches") status = runBatches(args[1]);
else if (args.length === 2 && args[0] === "--answers") status = runAnswers(args[1]);
else if (args.length === 1) status = runVectors(args[0]);
else print("usage: driver.js VECTORS.tsv | driver.js --answers CASES.tsv");
if (status >= 0) {
    process.stdout.write(out);
    process.exitCode = status;
}
