import PolicySource
import PolicyCheck

/// TypeScript for one policy: a module with the guide's own names and signatures (`RetryPolicy`,
/// `INTERACTIVE`, `isRetryable`, `backoffMs`, `RetryBudget`), so that a backend written against the
/// guide switches to it by changing one import, and every other value as a typed, documented,
/// read-only constant named as in Kotlin.
///
/// Compiles with `tsc --strict --noUnusedLocals --noImplicitReturns` as an ES module and as CommonJS,
/// for any target from ES3 and with or without the DOM library: it uses only ES5's library and
/// declares what it looks up at run time. Only erasable syntax (no enums, namespaces or parameter
/// properties), so runtimes that strip types run it as it is. Free text reaches the output only
/// through `Literal` and `CodeWriter.docText`; the code below writes the file from top to bottom,
/// the profiles and constants, and their doc strings, from `PolicyModule`.
package enum TypeScriptGenerator {
    static func source(for policy: Policy) -> String {
        String(decoding: bytes(for: policy, PolicyModule(policy)), as: UTF8.self)
    }

    static func bytes(for policy: Policy, _ module: PolicyModule) -> [UInt8] {
        let w = CodeWriter(.typeScript)
        Generator.writeHeader(for: policy, limits: module.limits, to: w)
        w.line()
        w.doc {
            w.docLine("Retry policy `", policy.name, "`: the values and functions a backend retries its ticket requests with.")
            if let description = policy.description {
                w.docText("")
                w.docText(description)
            }
            w.docText("")
            w.docLine("@packageDocumentation")
        }
        w.line()
        w.emit(Self.types)
        w.line()
        w.doc("The names of the profiles in the policy (`retry.profiles`).")
        w.begin()
        w.put("export type ProfileName = ")
        for (i, p) in module.profiles.enumerated() {
            if i > 0 { w.put(" | ") }
            w.write(quoted(p.name))
        }
        if module.profiles.isEmpty { w.put("never") }
        w.put(";")
        w.end()
        for p in module.profiles {
            w.line()
            PolicyModule.writeProfileDoc(p, to: w)
            w.line("export const ", Naming.typeScriptProfile(p.name), ": Readonly<RetryPolicy> = Object.freeze<RetryPolicy>({ maxRetries: ", p.maxRetries,
                   ", baseMs: ", p.baseMs, ", capMs: ", p.capMs, ", timeoutMs: ", p.timeoutMs, ", deadlineMs: ", p.deadlineMs, " });")
        }
        w.line()
        // Object.freeze is given its type: left to infer it, tsc reads a profile called toString as
        // Object's method, and the object no longer has the declared type.
        w.doc("Every profile, by its name in the policy (`retry.profiles`).")
        w.begin()
        w.put("export const ALL_PROFILES: Readonly<Record<ProfileName, Readonly<RetryPolicy>>> = Object.freeze<Record<ProfileName, Readonly<RetryPolicy>>>({ ")
        w.list(module.profiles) { w.put("", quoted($0.name), ": ", Naming.typeScriptProfile($0.name)) }
        w.put(" });")
        w.end()
        w.doc("The kind of caller of each profile (`kind`).")
        w.begin()
        w.put("export const PROFILE_KINDS: Readonly<Record<ProfileName, ProfileKind>> = Object.freeze<Record<ProfileName, ProfileKind>>({ ")
        w.list(module.profiles) { w.put("", quoted($0.name), ": ", quoted($0.kind.rawValue)) }
        w.put(" });")
        w.end()
        w.line()
        for constant in module.constants { write(constant, to: w) }
        w.line()
        w.doc("""
            Whether a failed request may be retried: network errors (`status` null or undefined) as `retryOn` says, \
            never a `neverRetry` pair (codes compared exactly, code unit by code unit), else the statuses \
            of `retryOn` (`retryOn`, `neverRetry`).
            """)
        w.emit(Self.isRetryable)
        w.line()
        w.doc("""
            Milliseconds to wait before retry number `attempt` (0-based): a positive Retry-After plus up to \
            `RETRY_AFTER_MAX_JITTER_MS` of jitter when `RETRY_AFTER_HONORED`, else 
            """, PolicyModule.strategyDoc(module.backoff), " (`backoff`, `retryAfter`).")
        w.emit(Self.backoffMs[module.backoff]!)
        w.line()
        w.emit(Self.clock)
        w.line()
        w.doc("""
            Retries may be at most `BUDGET_RATIO` of the requests of the last minute and never fewer than \
            `BUDGET_MIN_PER_MINUTE` a minute (`budget`).
            """)
        w.emit(Self.retryBudget)
        w.line()
        w.emit(Self.clientTypes)
        w.line()
        w.emit(Self.client)
        w.line()
        w.emit(Self.batch)
        return w.bytes
    }

    /// One constant of the module: its doc, then `export const NAME: type = value;`. String
    /// constants keep their literal types (`typeof POLICY_NAME` is "playback"): code that takes
    /// several policies' modules (see `indexBytes`) tells them apart by them.
    private static func write(_ c: PolicyModule.Constant, to w: CodeWriter) {
        if case .optionalText = c.value { w.doc(c.doc, orNull: true) } else { w.doc(c.doc) }
        w.begin()
        w.put("export const ", c.name)
        switch c.value {
        case .text(let text), .backoff(let text), .viewerRef(let text):
            w.put(" = ", quoted(text), " as const;")
        case .optionalText(let text):
            if let text { w.put(" = ", quoted(text), " as const;") } else { w.put(": string | null = null;") }
        case .bool(let b):
            w.put(": boolean = ", b, ";")
        case .int(let n), .milliseconds(let n):
            w.put(": number = ", n, ";")
        case .ratio(let literal):
            w.put(": number = ", literal, ";")
        case .statuses(let statuses):
            w.put(": readonly number[] = Object.freeze<number>([")
            w.list(statuses) { w.write($0) }
            w.put("]);")
        case .neverRetry(let pairs):
            w.put(": readonly NeverRetry[] = Object.freeze<NeverRetry>([")
            w.list(pairs) { w.put("Object.freeze<NeverRetry>({ status: ", $0.status, ", code: ", quoted($0.code), " })") }
            w.put("]);")
        case .reuseKey(let items):
            w.put(": readonly ReuseKeyItem[] = Object.freeze<ReuseKeyItem>([")
            w.list(items) { w.write(quoted($0)) }
            w.put("]);")
        }
        w.end()
    }

    /// The path of `indexBytes`' file.
    package static let indexPath = "TypeScript/index.ts"

    /// `index.ts`: each policy's module as a namespace named after its type
    /// (`export * as PlaybackPolicy from "./PlaybackPolicy.js";`), so that one import serves a
    /// backend with several policies. `modules` are the policies' types and source files, in the
    /// order of their files; a type given twice is exported once. The `.js` specifier is what tsc
    /// resolves to the `.ts` module under every `moduleResolution` (ES modules in Node need it)
    /// and what the compiled modules are called.
    static func indexBytes(for modules: [(type: String, file: String)]) -> [UInt8] {
        let w = CodeWriter(.typeScript, capacity: 512 + 96 * modules.count)
        w.line(Generator.headerStart, "the policies named below", ". DO NOT EDIT.")
        w.line()
        w.doc {
            w.docLine("Every policy's module as a namespace named after its type, so that one import serves them all:")
            w.docLine("`import { PlaybackPolicy } from \"./index.js\";` and then `PlaybackPolicy.INTERACTIVE`.")
            w.docText("")
            w.docLine("@packageDocumentation")
        }
        w.line()
        var seen: Set<String> = []
        for module in modules where seen.insert(module.type).inserted {
            w.line("// ", printable(module.file))
            w.line("export * as ", module.type, " from \"./", module.type, ".js\";")
        }
        return w.bytes
    }

    // The fixed parts of every file (see `FixedLines`).
    static let types = FixedLines(.typeScript, depth: 0) { w, _ in
        w.doc("How hard to try for one kind of caller: one entry of `retry.profiles`, as the guide declares it.")
        w.line("export type RetryPolicy = {")
        w.indent {
            let fields: [(StaticString, StaticString)] = [
                ("maxRetries", "Retries after the first attempt (`maxRetries`)."),
                ("baseMs", "First backoff step, in milliseconds (`base`)."),
                ("capMs", "Largest backoff step, in milliseconds (`cap`)."),
                ("timeoutMs", "Timeout of one attempt, in milliseconds (`timeout`)."),
                ("deadlineMs", "The whole call, retries included, in milliseconds (`deadline`)."),
            ]
            for (name, text) in fields {
                w.doc(text)
                w.line("", name, ": number;")
            }
        }
        w.line("};")
        w.line()
        w.doc("An answer that is never retried, whatever its status (`retry.neverRetry`).")
        w.line("export type NeverRetry = {")
        w.indent {
            w.doc("The HTTP status of the answer.")
            w.line("readonly status: number;")
            w.doc("The error code in the answer's body.")
            w.line("readonly code: string;")
        }
        w.line("};")
        w.line()
        w.doc("The kinds of caller (`kind`): interactive when a viewer is waiting, background for a sync job.")
        union(w, "ProfileKind", Language.profileKinds)
        w.doc("How the wait between retries grows: the values of `retry.backoff`.")
        union(w, "BackoffStrategy", Language.backoffs)
        w.doc("How viewer_ref is made: the values of `tickets.viewerRef`.")
        union(w, "ViewerRefKind", Language.viewerRefs)
        w.doc("What a reused ticket must have in common: the items of `tickets.reuseKey`.")
        union(w, "ReuseKeyItem", Language.reuseKeyParts)
    }

    /// `export type Name = "a" | "b";`
    private static func union(_ w: CodeWriter, _ name: StaticString, _ values: [String]) {
        w.begin()
        w.put("export type ", name, " = ")
        for (i, value) in values.enumerated() {
            if i > 0 { w.put(" | ") }
            w.write(quoted(value))
        }
        w.put(";")
        w.end()
    }

    static let isRetryable = FixedLines(.typeScript, depth: 0) { w, _ in
        w.block("export function isRetryable(status?: number | null, errorCode?: string | null): boolean") {
            w.line("if (status === null || status === undefined) return RETRY_ON_NETWORK_ERROR;")
            w.block("for (const entry of NEVER_RETRY)") {
                w.line("if (entry.status === status && entry.code === errorCode) return false;")
            }
            w.line("return RETRYABLE_STATUSES.indexOf(status) >= 0;")
        }
    }

    /// `backoffMs` for each strategy: only the policy's is written.
    static let backoffMs = Dictionary(uniqueKeysWithValues: Backoff.allCases.map { strategy in
        (strategy, FixedLines(.typeScript, depth: 0) { w, _ in
            w.block("export function backoffMs(attempt: number, retryAfterS: number | null | undefined, p: RetryPolicy, random: () => number = Math.random): number") {
                w.block("if (RETRY_AFTER_HONORED && retryAfterS !== null && retryAfterS !== undefined && retryAfterS > 0)") {
                    w.line("return retryAfterS * 1000 + random() * RETRY_AFTER_MAX_JITTER_MS;")
                }
                if strategy == .constant {
                    w.line("void attempt; // every wait is the base, whatever the attempt")
                    w.line("return p.baseMs;")
                    return
                }
                w.line("// 2 ** attempt is infinite past the range of a double, so Math.min gives the cap.")
                w.line("const v = Math.min(p.capMs, p.baseMs * 2 ** attempt);")
                switch strategy {
                case .fullJitter: w.line("return random() * v;")
                case .equalJitter: w.line("return v / 2 + random() * (v / 2);")
                case .exponential, .constant: w.line("return v;")
                }
            }
        })
    })

    static let clock = FixedLines(.typeScript, depth: 0) { w, _ in
        w.line("// Declared, not imported: the module needs neither the DOM library nor @types/node, and")
        w.line("// looks before it uses it.")
        w.line("declare const performance: { now(): number } | undefined;")
        w.line()
        w.line("const clockBase = { wallMs: Date.now(), monoMs: typeof performance !== \"undefined\" ? performance.now() : 0 };")
        w.line()
        w.doc {
            w.docText("""
                The default clock of `RetryBudget`, in milliseconds since 1970: the wall clock read once, then \
                advanced by `performance.now()`, which is monotonic (setting the system clock does not move it, \
                so a clock set back an hour cannot stop retries for an hour); `Date.now()` where there is no \
                `performance`.
                """)
        }
        w.block("function monotonicNow(): number") {
            w.line("return typeof performance !== \"undefined\" ? clockBase.wallMs + Math.floor(performance.now() - clockBase.monoMs) : Date.now();")
        }
    }

    static let retryBudget = FixedLines(.typeScript, depth: 0) { w, _ in
        w.block("export class RetryBudget") {
            w.line("private sent = 0;")
            w.line("private retries = 0;")
            w.line("private since: number;")
            w.line("private readonly now: () => number;")
            w.line()
            w.doc("""
                A budget whose first minute starts now; `now` is the clock in milliseconds (monotonic by default, \
                see `monotonicNow`; inject one in tests).
                """)
            w.block("constructor(now: () => number = monotonicNow)") {
                w.line("this.now = now;")
                w.line("this.since = now();")
            }
            w.line()
            w.doc("Counts one request sent.")
            w.block("noteRequest(): void") {
                w.line("this.roll();")
                w.line("this.sent++;")
            }
            w.line()
            w.doc("Takes one retry from the budget: false, and nothing taken, when the budget is spent.")
            w.block("tryRetry(): boolean") {
                w.line("this.roll();")
                w.line("if (this.retries >= Math.max(BUDGET_MIN_PER_MINUTE, this.sent * BUDGET_RATIO)) return false;")
                w.line("this.retries++;")
                w.line("return true;")
            }
            w.line()
            w.line("// A new minute once more than 60 000 ms have passed; the clock is read again for its start,")
            w.line("// exactly as the guide's reference code does.")
            w.block("private roll(): void") {
                w.block("if (this.now() - this.since > 60000)") {
                    w.line("this.sent = 0;")
                    w.line("this.retries = 0;")
                    w.line("this.since = this.now();")
                }
            }
        }
    }

    /// A TypeScript string literal of `text`: written by `Literal`, the one way text becomes one.
    static func literal(_ text: String) -> String {
        let w = CodeWriter(.typeScript, capacity: text.utf8.count + 2)
        w.write(quoted(text))
        return w.text
    }

    static func quoted(_ text: String) -> Literal { Literal(text: text) }

    /// The one way text becomes a TypeScript string literal: double quotes (never a template, so
    /// `${` and backticks are plain characters), printable ASCII as is but `"` and `\` escaped,
    /// every other UTF-16 unit as `\uXXXX` — so nothing ends the literal, and no line separator,
    /// NUL or bidi control stands in the file as itself.
    struct Literal: Fragment {
        var text: String

        func write(to w: CodeWriter) {
            w.appendQuoted(text) { w, scalar in w.appendUTF16Escapes(scalar) }
        }
    }

    /// The lines of the TSDoc comment of `text` (see `CodeWriter.docText`).
    static func doc(_ text: String) -> [String] {
        let w = CodeWriter(.typeScript, capacity: 2 * text.utf8.count + 16)
        w.doc { w.docText(text) }
        return w.lines
    }
}
