import PolicySource

/// The one place that turns policy and profile names into identifiers, and knows which
/// identifiers are taken: keywords of each language and the members every generated file has.
public enum Naming {
    // Identifiers are made on bytes: every valid name is ASCII letters, digits and '-'. A byte
    // past ASCII (only in an invalid name, which is never generated) passes through unchanged.

    /// `ios-player` → `IosPlayer`; `ticketPlay` → `TicketPlay`.
    public static func upperCamel(_ name: String) -> String {
        camelCase(name, raisingFirst: true)
    }

    /// `ticket-play` → `ticketPlay`; `ticketPlay` stays. A name of dashes only stays as it is.
    public static func lowerCamel(_ name: String) -> String {
        guard name.utf8.contains(dash) else { return name }
        let camel = camelCase(name, raisingFirst: false)
        return camel.isEmpty ? name : camel
    }

    /// Dashes left out, the first letter after each raised, and the very first when `raisingFirst`.
    private static func camelCase(_ name: String, raisingFirst: Bool) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(name.utf8.count)
        var raise = raisingFirst
        for b in name.utf8 {
            if b == dash {
                raise = raisingFirst || !out.isEmpty
                continue
            }
            out.append(raise ? upper(b) : b)
            raise = false
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// `ticket-play` and `ticketPlay` → `TICKET_PLAY`; `myURL` → `MY_URL`. Words start after a
    /// dash and at a hump: an uppercase letter after a lowercase letter or digit, or the last of a
    /// run of uppercase letters that a lowercase letter follows (`URLFast`).
    public static func screamingSnake(_ name: String) -> String {
        let bytes = Array(name.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(2 * bytes.count)
        for i in bytes.indices where bytes[i] != dash {
            let b = bytes[i]
            let previous = i > 0 ? bytes[i - 1] : dash
            let nextIsLower = i + 1 < bytes.count && Values.isLower(bytes[i + 1])
            let hump = Values.isUpper(b)
                && (Values.isLower(previous) || Values.isDigit(previous) || (Values.isUpper(previous) && nextIsLower))
            if (previous == dash || hump) && !out.isEmpty { out.append(UInt8(ascii: "_")) }
            out.append(upper(b))
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static let dash = UInt8(ascii: "-")

    private static func upper(_ b: UInt8) -> UInt8 { Values.isLower(b) ? b - 0x20 : b }

    /// The generated Swift and Kotlin type of a policy, and the TypeScript module's file name:
    /// `ios-player` → `IosPlayerPolicy`.
    public static func typeName(policy: String) -> String { upperCamel(policy) + "Policy" }

    /// The Swift constant of a profile.
    public static func swiftProfile(_ name: String) -> String { lowerCamel(name) }

    /// The Kotlin constant of a profile.
    public static func kotlinProfile(_ name: String) -> String { screamingSnake(name) }

    /// The TypeScript constant of a profile: SCREAMING_SNAKE as in the guide (`INTERACTIVE`), the
    /// same as Kotlin's. Such an identifier (capital letters, digits, `_`) is never one of
    /// `typeScriptReservedWords`, which all have a lowercase letter; a test keeps it so.
    public static func typeScriptProfile(_ name: String) -> String { screamingSnake(name) }

    /// Kotlin and TypeScript enum cases and constants of a policy value: `full-jitter` → `FULL_JITTER`.
    package static func enumCase(_ value: String) -> String { screamingSnake(value) }

    /// `retry` → `Retry`: the first character raised.
    package static func capitalizeFirst(_ s: String) -> String {
        guard let f = s.first else { return s }
        return f.uppercased() + s.dropFirst()
    }

    /// Members that every generated Swift type declares; a profile constant may not take one.
    public static let swiftMembers: Set<String> = [
        "RetryProfile", "RetryBudget", "NeverRetry", "allProfiles", "policyName", "policyDescription",
        "retryOnNetworkError", "retryableStatuses", "neverRetry", "retryAfterHonored", "retryAfterMaxJitterMs",
        "backoffStrategy", "budgetRatio", "budgetMinPerMinute", "prefetchAhead", "prefetchOnlyUnlocked",
        "retryRefusedPrefetch", "ticketReuseKey", "ticketStopReuseBeforeMs", "viewerRef",
        "isRetryable", "backoffMs",
        // The client of SPEC 7.1.
        "AttemptResult", "CallOutcome", "Reason", "callWithRetries", "parseRetryAfter", "httpDateMs", "httpDateFields",
        // Typed values, durations and whole milliseconds, as the other languages have them.
        "BackoffStrategy", "ViewerRefKind", "ReuseKeyItem", "retryAfterMaxJitter", "ticketStopReuseBefore",
        "profileNamed", "backoffDelayMs",
        // The batch helper (issue 47, item 4).
        "TicketItem", "BatchRetry", "itemsToRetry",
    ]

    /// Members that every generated Kotlin object declares.
    public static let kotlinMembers: Set<String> = [
        "RetryProfile", "RetryBudget", "NeverRetry", "ALL_PROFILES", "POLICY_NAME", "POLICY_DESCRIPTION",
        "RETRY_ON_NETWORK_ERROR", "RETRYABLE_STATUSES", "NEVER_RETRY", "RETRY_AFTER_HONORED",
        "RETRY_AFTER_MAX_JITTER_MS", "BACKOFF_STRATEGY", "BUDGET_RATIO", "BUDGET_MIN_PER_MINUTE",
        "PREFETCH_AHEAD", "PREFETCH_ONLY_UNLOCKED", "RETRY_REFUSED_PREFETCH", "TICKET_REUSE_KEY",
        "TICKET_STOP_REUSE_BEFORE_MS", "VIEWER_REF", "isRetryable", "backoffMs",
        // Added in 0.2 for Android code: typed companions, one naming pattern, whole milliseconds.
        "BackoffStrategy", "ViewerRefKind", "ReuseKeyItem", "BACKOFF_STRATEGY_KIND",
        "VIEWER_REF_KIND", "TICKET_REUSE_KEY_ITEMS", "backoffDelayMs",
        // The client of SPEC 7.1.
        "AttemptResult", "CallOutcome", "Reason", "callWithRetries", "parseRetryAfter", "httpDateMs", "httpDateFields",
        // The batch helper (issue 47, item 4).
        "TicketItem", "BatchRetry", "itemsToRetry",
    ]

    /// Names that every generated TypeScript module declares at its top level (exported or not).
    public static let typeScriptMembers: Set<String> = [
        "RetryPolicy", "NeverRetry", "ProfileName", "ProfileKind", "BackoffStrategy", "ViewerRefKind", "ReuseKeyItem",
        "ALL_PROFILES", "PROFILE_KINDS", "POLICY_NAME", "POLICY_DESCRIPTION", "RETRY_ON_NETWORK_ERROR",
        "RETRYABLE_STATUSES", "NEVER_RETRY", "RETRY_AFTER_HONORED", "RETRY_AFTER_MAX_JITTER_MS", "BACKOFF_STRATEGY",
        "BUDGET_RATIO", "BUDGET_MIN_PER_MINUTE", "PREFETCH_AHEAD", "PREFETCH_ONLY_UNLOCKED", "RETRY_REFUSED_PREFETCH",
        "TICKET_REUSE_KEY", "TICKET_STOP_REUSE_BEFORE_MS", "VIEWER_REF", "isRetryable", "backoffMs", "RetryBudget",
        "performance", "monotonicNow", "clockBase",
        // The client of SPEC 7.1, and the globals it declares for itself.
        "AttemptResult", "CallOutcome", "AbortSignalLike", "CallOptions", "callWithRetries", "parseRetryAfter",
        "httpDateMs", "httpDateFields", "HttpDate", "Promise", "setTimeout", "clearTimeout",
        // The batch helper (issue 47, item 4).
        "TicketItem", "BatchRetry", "itemsToRetry",
    ]

    /// JavaScript's reserved words, strict mode's (modules are strict) and TypeScript's own, with
    /// the global values a module cannot rebind: what a TypeScript identifier may not be.
    public static let typeScriptReservedWords: Set<String> = [
        "break", "case", "catch", "class", "const", "continue", "debugger", "default", "delete", "do", "else",
        "enum", "export", "extends", "false", "finally", "for", "function", "if", "import", "in", "instanceof",
        "new", "null", "return", "super", "switch", "this", "throw", "true", "try", "typeof", "var", "void",
        "while", "with", "implements", "interface", "let", "package", "private", "protected", "public",
        "static", "yield", "await", "arguments", "eval", "any", "boolean", "number", "string", "symbol",
        "bigint", "unknown", "never", "object", "undefined", "NaN", "Infinity", "as", "async", "declare",
        "type", "namespace", "module", "readonly", "abstract", "constructor", "get", "set", "of", "is",
        "keyof", "infer", "unique", "global", "require", "asserts", "out", "accessor", "satisfies", "override",
    ]

    /// Swift keywords, contextual ones included: a generated name never needs backticks.
    public static let swiftKeywords: Set<String> = [
        "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "init",
        "inout", "internal", "let", "open", "operator", "private", "precedencegroup", "protocol", "public",
        "rethrows", "static", "struct", "subscript", "typealias", "var", "break", "case", "catch", "continue",
        "default", "defer", "do", "else", "fallthrough", "for", "guard", "if", "in", "repeat", "return",
        "throw", "switch", "where", "while", "as", "await", "false", "is", "nil", "self", "super", "throws",
        "true", "try", "async", "actor", "some", "any", "borrowing", "consuming", "consume", "copy",
        "discard", "each", "macro", "nonisolated", "package", "sending", "get", "set", "willSet", "didSet",
        "lazy", "mutating", "nonmutating", "optional", "override", "required", "convenience", "dynamic",
        "final", "indirect", "infix", "postfix", "prefix", "unowned", "weak", "isolated", "associativity",
        "precedence", "left", "right", "none", "unsafe", "then",
    ]

    /// Kotlin hard keywords (and the soft ones that would read badly as a constant).
    public static let kotlinKeywords: Set<String> = [
        "as", "break", "class", "continue", "do", "else", "false", "for", "fun", "if", "in", "interface",
        "is", "null", "object", "package", "return", "super", "this", "throw", "true", "try", "typealias",
        "typeof", "val", "var", "when", "while", "by", "catch", "constructor", "delegate", "dynamic",
        "field", "file", "finally", "get", "import", "init", "param", "property", "receiver", "set",
        "setparam", "value", "where",
    ]

    /// Words that cannot name a package segment (or anything else) without backticks.
    public static let kotlinHardKeywords: Set<String> = [
        "as", "break", "class", "continue", "do", "else", "false", "for", "fun", "if", "in", "interface",
        "is", "null", "object", "package", "return", "super", "this", "throw", "true", "try", "typealias",
        "typeof", "val", "var", "when", "while",
    ]

    /// The package of the generated Kotlin when neither the command line nor the project file names one.
    public static let defaultKotlinPackage = "wandura.policies"

    /// A Kotlin package name: dot-separated identifiers, none a hard keyword nor only underscores.
    public static func isKotlinPackage(_ name: String) -> Bool {
        let segments = name.split(separator: ".", omittingEmptySubsequences: false)
        return !segments.isEmpty && segments.allSatisfy { seg in
            let u = Array(seg.utf8)
            guard let first = u.first else { return false }
            let letter = { (b: UInt8) in (b >= 0x61 && b <= 0x7A) || (b >= 0x41 && b <= 0x5A) || b == 0x5F }
            let digit = { (b: UInt8) in b >= 0x30 && b <= 0x39 }
            return letter(first) && u.allSatisfy { letter($0) || digit($0) } && !u.allSatisfy { $0 == 0x5F }
                && !kotlinHardKeywords.contains(String(seg))
        }
    }
}
