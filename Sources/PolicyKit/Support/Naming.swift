/// The one place that turns policy and profile names into identifiers, and knows which
/// identifiers are taken: keywords of each language and the members every generated file has.
public enum Naming {
    /// `ios-player` → `IosPlayer`; `ticketPlay` → `TicketPlay`.
    public static func upperCamel(_ name: String) -> String {
        if let fast = ASCIIName.convert(name, .upperCamel) { return fast }
        return upperCamelByCharacters(name)
    }

    static func upperCamelByCharacters(_ name: String) -> String {
        name.split(separator: "-").map { capitalizeFirst(String($0)) }.joined()
    }

    /// `ticket-play` → `ticketPlay`; `ticketPlay` stays.
    public static func lowerCamel(_ name: String) -> String {
        // A name of dashes only has no parts: it stays as it is.
        if let fast = ASCIIName.convert(name, .lowerCamel) { return fast.isEmpty ? name : fast }
        return lowerCamelByCharacters(name)
    }

    static func lowerCamelByCharacters(_ name: String) -> String {
        let parts = name.split(separator: "-").map(String.init)
        guard let first = parts.first else { return name }
        return first + parts.dropFirst().map(capitalizeFirst).joined()
    }

    /// `ticket-play` and `ticketPlay` → `TICKET_PLAY`; `myURL` → `MY_URL`.
    public static func screamingSnake(_ name: String) -> String {
        if let fast = ASCIIName.convert(name, .screamingSnake) { return fast }
        return screamingSnakeByCharacters(name)
    }

    static func screamingSnakeByCharacters(_ name: String) -> String {
        var words: [String] = []
        for part in name.split(separator: "-") {
            words += humps(Array(part))
        }
        return words.map { $0.uppercased() }.joined(separator: "_")
    }

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
    static func enumCase(_ value: String) -> String { screamingSnake(value) }

    static func capitalizeFirst(_ s: String) -> String {
        guard let f = s.first else { return s }
        return f.uppercased() + s.dropFirst()
    }

    /// Splits camelCase: a new word starts at an uppercase letter after a lowercase letter or digit,
    /// and at the last uppercase letter of a run that a lowercase letter follows (`URLFast`).
    static func humps(_ chars: [Character]) -> [String] {
        var words: [String] = []
        var current = ""
        for (i, c) in chars.enumerated() {
            if c.isUppercase, !current.isEmpty {
                let prev = chars[i - 1]
                let nextIsLower = i + 1 < chars.count && chars[i + 1].isLowercase
                if prev.isLowercase || prev.isNumber || (prev.isUppercase && nextIsLower) {
                    words.append(current)
                    current = ""
                }
            }
            current.append(c)
        }
        if !current.isEmpty { words.append(current) }
        return words
    }

    /// Members that every generated Swift type declares; a profile constant may not take one.
    public static let swiftMembers: Set<String> = [
        "RetryProfile", "RetryBudget", "NeverRetry", "allProfiles", "policyName", "policyDescription",
        "retryOnNetworkError", "retryableStatuses", "neverRetry", "retryAfterHonored", "retryAfterMaxJitterMs",
        "backoffStrategy", "budgetRatio", "budgetMinPerMinute", "prefetchAhead", "prefetchOnlyUnlocked",
        "retryRefusedPrefetch", "ticketReuseKey", "ticketStopReuseBeforeMs", "viewerRef",
        "isRetryable", "backoffMs",
    ]

    /// Members that every generated Kotlin object declares.
    public static let kotlinMembers: Set<String> = [
        "RetryProfile", "RetryBudget", "NeverRetry", "ALL_PROFILES", "POLICY_NAME", "POLICY_DESCRIPTION",
        "RETRY_ON_NETWORK_ERROR", "RETRYABLE_STATUSES", "NEVER_RETRY", "RETRY_AFTER_HONORED",
        "RETRY_AFTER_MAX_JITTER_MS", "BACKOFF_STRATEGY", "BUDGET_RATIO", "BUDGET_MIN_PER_MINUTE",
        "PREFETCH_AHEAD", "PREFETCH_ONLY_UNLOCKED", "RETRY_REFUSED_PREFETCH", "TICKET_REUSE_KEY",
        "TICKET_STOP_REUSE_BEFORE_MS", "VIEWER_REF", "isRetryable", "backoffMs",
        // Added in 0.2 for Android code: typed companions, one naming pattern, whole milliseconds.
        "PREFETCH_RETRY_REFUSED", "BackoffStrategy", "ViewerRefKind", "ReuseKeyItem", "BACKOFF_STRATEGY_KIND",
        "VIEWER_REF_KIND", "TICKET_REUSE_KEY_ITEMS", "backoffDelayMs",
    ]

    /// Names that every generated TypeScript module declares at its top level (exported or not).
    public static let typeScriptMembers: Set<String> = [
        "RetryPolicy", "NeverRetry", "ProfileName", "ProfileKind", "BackoffStrategy", "ViewerRefKind", "ReuseKeyItem",
        "ALL_PROFILES", "PROFILE_KINDS", "POLICY_NAME", "POLICY_DESCRIPTION", "RETRY_ON_NETWORK_ERROR",
        "RETRYABLE_STATUSES", "NEVER_RETRY", "RETRY_AFTER_HONORED", "RETRY_AFTER_MAX_JITTER_MS", "BACKOFF_STRATEGY",
        "BUDGET_RATIO", "BUDGET_MIN_PER_MINUTE", "PREFETCH_AHEAD", "PREFETCH_ONLY_UNLOCKED", "PREFETCH_RETRY_REFUSED",
        "TICKET_REUSE_KEY", "TICKET_STOP_REUSE_BEFORE_MS", "VIEWER_REF", "isRetryable", "backoffMs", "RetryBudget",
        "performance", "monotonicNow", "clockBase",
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
}

/// A name's fold: a 64-bit FNV-1a hash of its bytes with '-' and '_' left out and ASCII letters
/// lowercased. Every identifier made from a valid name (ASCII, no '_') by `Naming` folds as the name
/// does, so two names with one identifier in any language have one fold, and a name whose fold
/// no taken word has cannot become one. Rules compare folds first, a few instructions a name,
/// and make identifiers only for the names that share one (PerfFastPathTests checks the property).
enum NameFold {
    /// `Values.isName(text) ? of(text) : nil`, in one pass over the bytes: `name-collision` asks
    /// both of every profile, and two passes were a quarter of its cost on 65,000 names.
    static func ofName(_ text: String) -> UInt64? {
        var text = text
        return text.withUTF8 { u -> UInt64? in
            guard !u.isEmpty, u.count <= Values.maxNameLength, Values.isLower(u[0]) else { return nil }
            var h: UInt64 = 0xcbf2_9ce4_8422_2325
            var i = 0
            // The first part: a lowercase letter, then letters and digits.
            while i < u.count, Values.isLower(u[i]) || Values.isUpper(u[i]) || Values.isDigit(u[i]) {
                h = (h ^ UInt64(ASCIIName.lower(u[i]))) &* 0x0000_0100_0000_01B3
                i += 1
            }
            // Then parts of lowercase letters and digits, each after one '-' (left out of the fold).
            while i < u.count {
                guard u[i] == 0x2D else { return nil }
                i += 1
                let start = i
                while i < u.count, Values.isLower(u[i]) || Values.isDigit(u[i]) {
                    h = (h ^ UInt64(u[i])) &* 0x0000_0100_0000_01B3
                    i += 1
                }
                if i == start { return nil }
            }
            return h
        }
    }

    static func of(_ text: String) -> UInt64 {
        var text = text
        return text.withUTF8 { b in
            var h: UInt64 = 0xcbf2_9ce4_8422_2325
            for c in b where c != 0x2D && c != 0x5F {
                h = (h ^ UInt64(ASCIIName.lower(c))) &* 0x0000_0100_0000_01B3
            }
            return h
        }
    }

    /// A set of folds as a 4096-bit filter: `mayContain` is false only for a fold not in the set.
    struct Filter: Sendable {
        private var bits = [UInt64](repeating: 0, count: 64)

        init<S: Sequence>(_ words: S) where S.Element == String {
            for word in words {
                let i = Self.bit(Self.mix(NameFold.of(word)))
                bits[i >> 6] |= 1 << UInt64(i & 63)
            }
        }

        func mayContain(_ fold: UInt64) -> Bool {
            let i = Self.bit(Self.mix(fold))
            return bits[i >> 6] & (1 << UInt64(i & 63)) != 0
        }

        private static func mix(_ h: UInt64) -> UInt64 { h ^ (h >> 29) }
        private static func bit(_ h: UInt64) -> Int { Int(truncatingIfNeeded: h & 4095) }
    }
}

/// Names of ASCII letters, digits and '-' only (every valid policy and profile name), converted on
/// bytes in one pass. The Character-based conversions cost about 20,000 instructions a name, and the
/// rules convert every profile name of every file; for such names both give the same result (see
/// PerfFastPathTests).
enum ASCIIName {
    enum Kind { case upperCamel, lowerCamel, screamingSnake }

    /// nil when `name` has any other character. A name without parts (only dashes) gives "".
    static func convert(_ name: String, _ kind: Kind) -> String? {
        var name = name
        return name.withUTF8 { b -> String? in
            guard isASCIIName(b) else { return nil }
            // Made in a scratch buffer, then copied: a String made with room for the longest
            // result is a heap string even when the name fits the 15 bytes of a small one, and a
            // rule that keeps 50 000 profile constants kept 64 bytes of heap for each.
            return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 2 * b.count + 1) { out -> String in
                let n = write(b, kind, to: out, at: 0)
                return String(decoding: UnsafeBufferPointer(rebasing: out[..<n]), as: UTF8.self)
            }
        }
    }

    /// `convert`'s bytes of a name already known to be ASCII (`isASCIIName`), written to `out`
    /// from `start` (room for 2·count bytes there), with no String made: `name-collision`
    /// compares 65 000 profiles' identifiers so. Where they end.
    static func write(_ b: UnsafeBufferPointer<UInt8>, _ kind: Kind, to out: UnsafeMutableBufferPointer<UInt8>, at start: Int) -> Int {
        var n = start
        write(b, kind) {
            out[n] = $0
            n += 1
        }
        return n
    }

    static func isASCIIName(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
        for c in b where !(isLower(c) || isUpper(c) || isDigit(c) || c == 0x2D) { return false }
        return true
    }

    /// Gives the identifier of `b` (an ASCII name) to `emit`, byte by byte (at most 2·count).
    @inline(__always)
    private static func write(_ b: UnsafeBufferPointer<UInt8>, _ kind: Kind, _ emit: (UInt8) -> Void) {
        var partStart = true  // at the first byte of a part (parts lie between dashes)
        var anyPart = false
        for i in b.indices {
            let c = b[i]
            if c == 0x2D {
                partStart = true
                continue
            }
            switch kind {
            case .upperCamel:
                emit(partStart ? upper(c) : c)
            case .lowerCamel:
                emit(partStart && anyPart ? upper(c) : c)
            case .screamingSnake:
                // Words: each part, split at humps as `Naming.humps` splits them.
                if partStart {
                    if anyPart { emit(0x5F) }
                } else if isUpper(c) {
                    let prev = b[i - 1]
                    let nextIsLower = i + 1 < b.count && isLower(b[i + 1])
                    if isLower(prev) || isDigit(prev) || (isUpper(prev) && nextIsLower) { emit(0x5F) }
                }
                emit(upper(c))
            }
            partStart = false
            anyPart = true
        }
    }

    static func isLower(_ b: UInt8) -> Bool { b >= 0x61 && b <= 0x7A }
    static func isUpper(_ b: UInt8) -> Bool { b >= 0x41 && b <= 0x5A }
    static func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }
    static func upper(_ b: UInt8) -> UInt8 { isLower(b) ? b - 0x20 : b }
    static func lower(_ b: UInt8) -> UInt8 { isUpper(b) ? b + 0x20 : b }
}
