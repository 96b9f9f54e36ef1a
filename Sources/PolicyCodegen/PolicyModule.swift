import PolicySource
import PolicyCheck

/// What a policy's generated module holds, language-neutral: its type, its profiles and its
/// constants, each with its value and its doc string, in the order every language writes them.
/// Built once per policy; `SwiftGenerator`, `KotlinGenerator` and `TypeScriptGenerator` each
/// render it in their language (names, types and literals are theirs; what a member is, what it
/// holds and what its doc says are decided here). The functions and fixed types of a module are
/// code of each language, not members, and stay with the renderers.
struct PolicyModule {
    /// A constant's value, by what it is: each language gives each case its type and literal.
    enum Value {
        /// A name (`policy`).
        case text(String)
        /// Free text that may be absent (`description`).
        case optionalText(String?)
        case bool(Bool)
        case int(Int)
        /// A duration: `Int` in Swift, `Long` in Kotlin.
        case milliseconds(Int)
        /// A share, as a literal every language reads back as the same double.
        case ratio(String)
        /// HTTP statuses (`retryOn`).
        case statuses([Int])
        case neverRetry([Policy.NeverRetry])
        /// One of `Language.backoffs`.
        case backoff(String)
        /// One of `Language.viewerRefs`.
        case viewerRef(String)
        /// Items of `Language.reuseKeyParts`.
        case reuseKey([String])
    }

    /// A doc string of the form "<text> (`<key>` on line N[: <detail>])." — what the member is,
    /// and where its value stands in the policy.
    struct Doc {
        var text: StaticString
        var key: StaticString
        var line: OnLine
        /// Shown after the line: the value as the policy writes it, where the member's differs.
        var detail: String? = nil
    }

    struct Constant {
        /// The Swift name (lowerCamel).
        var swiftName: StaticString
        /// The Kotlin and TypeScript name (SCREAMING_SNAKE).
        var name: StaticString
        var doc: Doc
        var value: Value
    }

    /// The generated type: `PlaybackPolicy`.
    var type: String
    /// Where each documented key stands, for the doc strings of the functions.
    var at: SourceLines
    /// One constant per profile, in the policy's order (see `writeProfileDoc`).
    var profiles: [Policy.Profile]
    /// The policy's backoff strategy: `backoffMs` is written for it alone.
    var backoff: Backoff
    var constants: [Constant]
    /// The limits the policy was checked against, named in every file's header.
    var limits = PolicyCheck.Limits.guide

    init(_ policy: Policy) {
        type = Naming.typeName(policy: policy.name)
        let at = SourceLines(lines: policy.keyLines)
        self.at = at
        profiles = policy.profiles
        backoff = policy.backoff
        constants = [
            Constant(swiftName: "policyName", name: "POLICY_NAME",
                     doc: Doc(text: "The policy's name", key: "policy", line: at.policy),
                     value: .text(policy.name)),
            Constant(swiftName: "policyDescription", name: "POLICY_DESCRIPTION",
                     doc: Doc(text: "The policy's description, exactly as written", key: "description", line: at.description),
                     value: .optionalText(policy.description)),
            Constant(swiftName: "retryOnNetworkError", name: "RETRY_ON_NETWORK_ERROR",
                     doc: Doc(text: "Whether network errors (no status at all) are retried", key: "retryOn", line: at.retryOn),
                     value: .bool(policy.retryOnNetwork)),
            Constant(swiftName: "retryableStatuses", name: "RETRYABLE_STATUSES",
                     doc: Doc(text: "The HTTP statuses that are retried", key: "retryOn", line: at.retryOn),
                     value: .statuses(policy.retryStatuses)),
            Constant(swiftName: "neverRetry", name: "NEVER_RETRY",
                     doc: Doc(text: "Status and error code pairs that are never retried", key: "neverRetry", line: at.neverRetry),
                     value: .neverRetry(policy.neverRetry)),
            Constant(swiftName: "retryAfterHonored", name: "RETRY_AFTER_HONORED",
                     doc: Doc(text: "Whether a Retry-After header sets the wait", key: "retryAfter.honor", line: at.retryAfterHonor),
                     value: .bool(policy.retryAfterHonor)),
            Constant(swiftName: "retryAfterMaxJitterMs", name: "RETRY_AFTER_MAX_JITTER_MS",
                     doc: Doc(text: "Largest random wait added to Retry-After, in milliseconds", key: "retryAfter.maxJitter",
                              line: at.retryAfterMaxJitter),
                     value: .milliseconds(policy.retryAfterMaxJitterMs)),
            Constant(swiftName: "backoffStrategy", name: "BACKOFF_STRATEGY",
                     doc: Doc(text: "How the wait between retries grows", key: "backoff", line: at.backoff),
                     value: .backoff(policy.backoff.rawValue)),
            Constant(swiftName: "budgetRatio", name: "BUDGET_RATIO",
                     doc: Doc(text: "Retries may be at most this share of the requests of the last minute", key: "budget.ratio",
                              line: at.budgetRatio, detail: policy.budgetRatio.canonical + "%"),
                     value: .ratio(SwiftGenerator.doubleLiteral(policy.budgetRatio.ratio))),
            Constant(swiftName: "budgetMinPerMinute", name: "BUDGET_MIN_PER_MINUTE",
                     doc: Doc(text: "Retries always allowed per minute, whatever the ratio", key: "budget.minPerMinute",
                              line: at.budgetMinPerMinute),
                     value: .int(policy.budgetMinPerMinute)),
            Constant(swiftName: "prefetchAhead", name: "PREFETCH_AHEAD",
                     doc: Doc(text: "Next episodes asked for in the same request", key: "prefetch.ahead", line: at.prefetchAhead),
                     value: .int(policy.prefetchAhead)),
            Constant(swiftName: "prefetchOnlyUnlocked", name: "PREFETCH_ONLY_UNLOCKED",
                     doc: Doc(text: "Whether only unlocked next episodes are prefetched", key: "prefetch.onlyUnlocked",
                              line: at.prefetchOnlyUnlocked),
                     value: .bool(policy.prefetchOnlyUnlocked)),
            Constant(swiftName: "retryRefusedPrefetch", name: "PREFETCH_RETRY_REFUSED",
                     doc: Doc(text: "Whether a refused prefetch is retried", key: "prefetch.retryRefused", line: at.prefetchRetryRefused),
                     value: .bool(policy.prefetchRetryRefused)),
            Constant(swiftName: "ticketReuseKey", name: "TICKET_REUSE_KEY",
                     doc: Doc(text: "What a ticket is reused for: the same of each of these", key: "tickets.reuseKey", line: at.reuseKey),
                     value: .reuseKey(policy.reuseKey.map(\.rawValue))),
            Constant(swiftName: "ticketStopReuseBeforeMs", name: "TICKET_STOP_REUSE_BEFORE_MS",
                     doc: Doc(text: "Stop reusing a ticket this long before it expires, in milliseconds", key: "tickets.stopReuseBefore",
                              line: at.stopReuseBefore),
                     value: .milliseconds(policy.stopReuseBeforeMs)),
            Constant(swiftName: "viewerRef", name: "VIEWER_REF",
                     doc: Doc(text: "How viewer_ref is made", key: "tickets.viewerRef", line: at.viewerRef),
                     value: .viewerRef(policy.viewerRef.rawValue)),
        ]
    }

    /// What `backoffMs` does without Retry-After under `strategy`, in words for its doc string
    /// as `simulate` defines each strategy.
    static func strategyDoc(_ strategy: Backoff) -> StaticString {
        switch strategy {
        case .fullJitter: "full jitter (the policy's `backoff`): `random()` times `v`, the smaller of `capMs` and `baseMs` times 2^attempt. Calls `random` once"
        case .equalJitter: "equal jitter (the policy's `backoff`): half of `v` plus `random()` times half of `v`, `v` the smaller of `capMs` and `baseMs` times 2^attempt. Calls `random` once"
        case .exponential: "exponential (the policy's `backoff`): the smaller of `capMs` and `baseMs` times 2^attempt. Calls `random` only for Retry-After"
        case .constant: "constant (the policy's `backoff`): `baseMs` for every retry. Calls `random` only for Retry-After"
        }
    }

    /// The doc string of a profile's constant, the same in every language.
    static func writeProfileDoc(_ p: Policy.Profile, to w: CodeWriter) {
        w.doc("Profile `", p.name, "` (line ", p.line, "): ", p.kind.rawValue, p.isInteractive ? ", a viewer is waiting." : ", no viewer is waiting.")
    }
}

extension CodeWriter {
    /// A member's doc string; `orNull` adds ", or null" after its text (a value that may be
    /// absent, where the language says so in words).
    func doc(_ d: PolicyModule.Doc, orNull: Bool = false) {
        doc {
            if let detail = d.detail {
                docLine(d.text, OrNull(on: orNull), " (`", d.key, "`", d.line, ": ", detail, ").")
            } else {
                docLine(d.text, OrNull(on: orNull), " (`", d.key, "`", d.line, ").")
            }
        }
    }
}

/// ", or null", or nothing.
private struct OrNull: Fragment {
    var on: Bool
    func write(to w: CodeWriter) { if on { w.put(", or null") } }
    static var isAlwaysPlain: Bool { true }
}
