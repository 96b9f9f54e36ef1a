import PolicySource

/// The policy language, version 1, as data: its keys in canonical order (`Shape`, `Field`), its
/// choices and its bounds.
public enum Language {
    public static let version = 1

    /// The largest counts a policy may hold (a clear finding past them): far beyond what any
    /// client needs, and small enough that every figure made from them (retries times a day of
    /// waiting) is an exact `Int`.
    public static let maxRetries = 100
    public static let maxPrefetchAhead = 100
    public static let maxMinPerMinute = 1000

    public static let backoffs = Backoff.allCases.map(\.rawValue)
    public static let profileKinds = ProfileKind.allCases.map(\.rawValue)
    public static let reuseKeyParts = ReuseKeyPart.allCases.map(\.rawValue)
    public static let viewerRefs = ViewerRef.allCases.map(\.rawValue)

    public static let profile: [Field] = [
        Field("kind", .choice(profileKinds), title: "Kind of caller",
              help: "interactive: a viewer is waiting (at most 3 retries); background: a sync job."),
        Field("maxRetries", .integer(min: 0, max: Language.maxRetries), title: "Retries after the first attempt",
              help: "How many times a failed request is retried. At most 3 for interactive profiles."),
        Field("base", .duration, title: "First backoff step",
              help: "The largest wait before the first retry; doubles with each retry up to cap. More than 0 and at most cap."),
        Field("cap", .duration, title: "Largest backoff step",
              help: "No backoff step is longer than this."),
        Field("timeout", .duration, title: "Timeout per attempt",
              help: "Client timeout of one attempt: at least 5s, and at most the deadline."),
        Field("deadline", .duration, title: "Deadline of the whole call",
              help: "The whole call, retries included. Interactive: about 15s before the viewer sees Retry."),
    ]

    public static let neverRetryItem: [Field] = [
        Field("status", .status, title: "HTTP status", help: "The status of the answer that must not be retried."),
        Field("code", .string, title: "Error code", help: "The error code in the answer's body, such as not_ready."),
    ]

    public static let retry: [Field] = [
        Field("profiles", .namedMap(.object(profile), what: "profile names to profiles"), title: "Retry profiles",
              help: "How hard to try, by name. Each becomes a constant in the generated code."),
        Field("retryOn", .list(.statusOrNetwork, unique: true), title: "What is retried",
              help: "network and the HTTP statuses that can succeed later: 429, 500, 502 and 503, with 429 and 503 required."),
        Field("neverRetry", .list(.object(neverRetryItem), unique: true), required: false, title: "Exceptions never retried",
              help: "Status and error code pairs never retried, such as {status: 503, code: not_ready}."),
        Field("backoff", .choice(backoffs), title: "Backoff strategy",
              help: "How the wait between retries grows; must be full-jitter."),
        Field("retryAfter", .object([
            Field("honor", .boolean, title: "Honor Retry-After",
                  help: "Always read Retry-After instead of assuming a number; must be true."),
            Field("maxJitter", .duration, title: "Jitter added to Retry-After",
                  help: "Up to this much random wait on top of Retry-After: more than 0 and at most 1s."),
        ]), title: "Retry-After handling", help: "How a Retry-After header is honored."),
        Field("budget", .object([
            Field("ratio", .percent, title: "Retry budget ratio",
                  help: "Retries may be at most this share of the requests of the last minute: at most 10%."),
            Field("minPerMinute", .integer(min: 0, max: Language.maxMinPerMinute), title: "Retry budget floor",
                  help: "Retries always allowed per minute, whatever the ratio: at most 10."),
        ]), title: "Retry budget", help: "Caps retries so that an outage is not made worse."),
    ]

    /// An entry of `waivers`: an exception to a limit of the guide, owned and bounded in time.
    public static let waiver: [Field] = [
        Field("rule", .string, title: "Rule waived",
              help: "The id of a rule of the guide's limits, such as interactive-retries-max (rules of the language cannot be waived)."),
        Field("at", .string, required: false, title: "Key path",
              help: "The key path the finding points at, such as retry.profiles.checkout.maxRetries. Default: every finding of the rule."),
        Field("allow", .string, required: false, title: "Value accepted",
              help: "The value accepted, as a policy writes it (4, 12s, 15%); a finding of another value is not waived."),
        Field("reason", .string, title: "Reason",
              help: "Why the exception is needed and what ends it; not empty."),
        Field("owner", .string, title: "Owner",
              help: "Who answers for the exception, such as @payments-platform; not empty."),
        Field("expires", .string, title: "Expiry",
              help: "The last day the waiver holds, YYYY-MM-DD; at most waiverMaxDays (180 by default) ahead."),
    ]

    public static let root: [Field] = [
        Field("version", .integer(min: Int.min, max: Int.max), title: "Language version",
              help: "The version of the policy language; must be 1."),
        Field("policy", .name, title: "Policy name",
              help: "Becomes the generated type <UpperCamel>Policy; lowercase, camelCase or dash-separated."),
        Field("description", .string, required: false, title: "Description",
              help: "Free text, copied into the generated documentation."),
        Field("extends", .paths, required: false, title: "Parent policies",
              help: "A policy file (path relative to this one) or a list of them, applied in order: this file's values replace theirs key by key (mappings merge, lists and scalars replace)."),
        Field("abstract", .boolean, required: false, title: "Base only",
              help: "true: a base that other policies extend; it may leave required keys to them, and is not generated, simulated or explained alone."),
        Field("retry", .object(retry), title: "Retry policy",
              help: "Which failures are retried, how long to wait, and the retry budget."),
        Field("prefetch", .object([
            Field("ahead", .integer(min: 0, max: Language.maxPrefetchAhead), title: "Episodes prefetched",
                  help: "Next episodes that ride along in the same request: at most 2 (three tickets in one request)."),
            Field("onlyUnlocked", .boolean, title: "Prefetch only unlocked episodes",
                  help: "Prefetch only the unlocked next episodes; must be true."),
            Field("retryRefused", .boolean, title: "Retry refused prefetches",
                  help: "A refused prefetch is not a failure and is never retried; must be false."),
        ]), title: "Prefetch", help: "Which next episodes are asked for together with the current one."),
        Field("tickets", .object([
            Field("reuseKey", .list(.choice(reuseKeyParts), unique: true), title: "Ticket reuse key",
                  help: "A ticket is reused only for the same viewer, device, episode and intent; all four are required."),
            Field("stopReuseBefore", .duration, title: "Stop reuse before expiry",
                  help: "Stop reusing a ticket this long before expires_at: at least 5m."),
            Field("viewerRef", .choice(viewerRefs), title: "viewer_ref scheme",
                  help: "A stable viewer_ref per viewer and device, without personal data; must be per-viewer-device."),
        ]), title: "Tickets", help: "When a playback ticket may be reused."),
        Field("waivers", .list(.object(waiver), unique: false), required: false, title: "Waivers",
              help: "Accepted exceptions to the guide's limits, each with a rule, a reason, an owner and an expiry."),
    ]
}
