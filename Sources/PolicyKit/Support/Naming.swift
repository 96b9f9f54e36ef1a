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

/// A name's fold: a 64-bit hash of its bytes with '-' and '_' left out and ASCII letters
/// lowercased. Every identifier made from a valid name (ASCII, no '_') by `Naming` folds as the name
/// does, so two names with one identifier in any language have one fold, and a name whose fold
/// no taken word has cannot become one. Rules compare folds first, a few instructions a name,
/// and make identifiers only for the names that share one (PerfFastPathTests checks the property).
///
/// The folded bytes are hashed eight at a time (`Folder`), and read eight at a time where no
/// byte needs a look of its own: byte by byte, through FNV-1a, `bad-name` and `name-collision`
/// spent some 1,100 instructions on each name of 62 characters (8 % of linting 15,000 of them).
enum NameFold {
    /// `Values.isName(text) ? of(text) : nil`, in one pass over the bytes: `name-collision` asks
    /// both of every profile, and two passes were a quarter of its cost on 65,000 names.
    static func ofName(_ text: String) -> UInt64? {
        var text = text
        return text.withUTF8 { u -> UInt64? in
            guard !u.isEmpty, u.count <= Values.maxNameLength, Values.isLower(u[0]) else { return nil }
            var folder = Folder()
            var i = 0
            // The first part: a lowercase letter, then letters and digits.
            while i + 8 <= u.count {
                let w = Bytes8.load(u, at: i)
                guard Bytes8.allLettersOrDigits(w) else { break }
                folder.add8(w | Bytes8.each(0x20))
                i += 8
            }
            while i < u.count, Values.isLower(u[i]) || Values.isUpper(u[i]) || Values.isDigit(u[i]) {
                folder.add(ASCIIName.lower(u[i]))
                i += 1
            }
            // Then parts of lowercase letters and digits, each after one '-' (left out of the fold).
            while i < u.count {
                guard u[i] == 0x2D else { return nil }
                i += 1
                let start = i
                while i + 8 <= u.count {
                    let w = Bytes8.load(u, at: i)
                    guard Bytes8.allLowercaseOrDigits(w) else { break }
                    folder.add8(w)
                    i += 8
                }
                while i < u.count, Values.isLower(u[i]) || Values.isDigit(u[i]) {
                    folder.add(u[i])
                    i += 1
                }
                if i == start { return nil }
            }
            return folder.value
        }
    }

    static func of(_ text: String) -> UInt64 {
        var text = text
        return text.withUTF8 { b in
            var folder = Folder()
            var i = 0
            while i + 8 <= b.count {
                let w = Bytes8.load(b, at: i)
                if !Bytes8.has(w, 0x2D) && !Bytes8.has(w, 0x5F) {
                    folder.add8(Bytes8.lowercased(w))
                } else {
                    for c in b[i..<i + 8] where c != 0x2D && c != 0x5F { folder.add(ASCIIName.lower(c)) }
                }
                i += 8
            }
            for c in b[i...] where c != 0x2D && c != 0x5F { folder.add(ASCIIName.lower(c)) }
            return folder.value
        }
    }

    /// The hash of a sequence of folded bytes, however they are given: eight at a time through
    /// splitmix64's mixer (`mix64`), the count last, so that a fold is one value whether its bytes
    /// came one by one or eight at once, across dashes or not. Not `keyedHash`, which takes its
    /// bytes whole and puts the length into its keyed start: a fold's length is known only at the
    /// end, and folds need no key (names that share one are then compared by their bytes).
    struct Folder {
        private var hash: UInt64 = 0x243F_6A88_85A3_08D3
        /// The bytes not yet mixed in, the first in the low byte, and how many.
        private var pending: UInt64 = 0
        private var filled = 0
        private var count = 0

        @inline(__always)
        mutating func add(_ c: UInt8) {
            pending |= UInt64(c) << UInt64(filled &* 8)
            filled &+= 1
            count &+= 1
            if filled == 8 {
                hash = mix64(hash ^ pending)
                pending = 0
                filled = 0
            }
        }

        /// Eight bytes, the first in the low byte.
        @inline(__always)
        mutating func add8(_ w: UInt64) {
            count &+= 8
            if filled == 0 {
                hash = mix64(hash ^ w)
            } else {
                hash = mix64(hash ^ (pending | w << UInt64(filled &* 8)))
                pending = w >> UInt64(64 &- filled &* 8)
            }
        }

        var value: UInt64 { mix64(hash ^ pending ^ UInt64(truncatingIfNeeded: count) &* 0x9E37_79B9_7F4A_7C15) }
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
        guard let name = b.baseAddress, !b.isEmpty else { return start }
        precondition(start >= 0 && out.count - start >= 2 * b.count, "no room for the identifier")
        let to = out.baseAddress! + start
        if kind == .screamingSnake { return start + screamingSnake(name, b.count, to: to) }
        guard Bytes8.contains(b, 0x2D) else {
            // The camel-case identifier of a name without dashes is the name, its first letter
            // raised for upper camel case: copied, not made a byte at a time.
            to.update(from: name, count: b.count)
            if kind == .upperCamel { to[0] = upper(name[0]) }
            return start + b.count
        }
        return start + camelCase(b, upperFirst: kind == .upperCamel, to: to)
    }

    /// `write`'s camel case: dashes left out, the first letter of each part raised but the first
    /// part's (lower camel case) or of every part (upper).
    private static func camelCase(_ b: UnsafeBufferPointer<UInt8>, upperFirst: Bool, to out: UnsafeMutablePointer<UInt8>) -> Int {
        var n = 0
        var partStart = true  // at the first byte of a part (parts lie between dashes)
        var anyPart = false
        for c in b {
            if c == 0x2D {
                partStart = true
                continue
            }
            out[n] = partStart && (upperFirst || anyPart) ? upper(c) : c
            n &+= 1
            partStart = false
            anyPart = true
        }
        return n
    }

    /// `write`'s SCREAMING_SNAKE, through pointers and without a branch on the bytes. Written with
    /// branches it took 27 instructions a byte, and names of random capitals (an attacker's case
    /// variants) mispredicted about every other byte; it is made for every name of a group
    /// `name-collision` compares, and for every name whose constants may be taken. Each byte's
    /// class (`snakeClass`) and its neighbours' say whether an underscore goes before it
    /// (`snakeUnderscores`); an underscore is always stored and kept only then, and a dash is
    /// stored and not kept. Room for 2·count bytes at `out`: before byte i at most 2·i are
    /// written, so the two stores for it land below 2·count.
    private static func screamingSnake(_ b: UnsafePointer<UInt8>, _ count: Int, to out: UnsafeMutablePointer<UInt8>) -> Int {
        // Leading dashes make nothing, and the first part has no underscore before it.
        var i = 0
        while i < count && b[i] == 0x2D { i &+= 1 }
        guard i < count else { return 0 }
        out[0] = upper(b[i])
        var n = 1
        let underscores = snakeUnderscores
        // The classes of the previous, this and the next byte, two bits each; past the end a dash.
        var window = snakeClass(b[i]) << 2 | (i &+ 1 < count ? snakeClass(b[i &+ 1]) : 0)
        i &+= 1
        while i < count {
            let c = b[i]
            window = (window << 2 | (i &+ 1 < count ? snakeClass(b[i &+ 1]) : 0)) & 63
            out[n] = 0x5F
            n &+= Int(truncatingIfNeeded: underscores >> window & 1)
            let k = window >> 2 & 3
            out[n] = c &- UInt8(truncatingIfNeeded: (k &+ 1) & 4) << 3  // a lowercase letter (3) raised
            n &+= Int(truncatingIfNeeded: (k &+ 3) >> 2)  // all but a dash (0) kept
            i &+= 1
        }
        return n
    }

    /// The class of a byte of an ASCII name, in the order of their codes: 0 a dash, 1 a digit, 2 a
    /// capital, 3 a lowercase letter. From its bits, not by comparisons, which the compiler makes
    /// branches: 0x40 is set in letters only; then 0x20 tells a lowercase letter (0x61–0x7A)
    /// from a capital (0x41–0x5A), else 0x10 a digit (0x30–0x39) from a dash (0x2D).
    @inline(__always)
    private static func snakeClass(_ c: UInt8) -> UInt64 {
        let letter = UInt64(c >> 6 & 1)
        return letter << 1 | UInt64(c) >> (4 &+ letter) & 1
    }

    /// Bit `previous << 4 | this << 2 | next` (classes, `snakeClass`) is set when SCREAMING_SNAKE
    /// puts an underscore before `this`, a byte after the first part's first: a part starts after
    /// a dash, and a hump (`Naming.humps`) is a capital after a lowercase letter or a digit, or
    /// the last capital of a run before a lowercase letter.
    private static let snakeUnderscores: UInt64 = {
        var bits: UInt64 = 0
        for previous in 0..<4 as Range<UInt64> {
            for this in 1..<4 as Range<UInt64> {  // never before a dash
                for next in 0..<4 as Range<UInt64> {
                    let partStarts = previous == 0
                    let hump = this == 2 && (previous == 1 || previous == 3 || (previous == 2 && next == 3))
                    if partStarts || hump { bits |= 1 << (previous << 4 | this << 2 | next) }
                }
            }
        }
        return bits
    }()

    static func isASCIIName(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
        // Eight bytes at a time (`Bytes8`): a byte at a time it took 19 instructions a byte, asked
        // of every name whose constants may be taken.
        var i = 0
        while i + 8 <= b.count {
            guard Bytes8.allLettersDigitsOrDashes(Bytes8.load(b, at: i)) else { return false }
            i += 8
        }
        for c in b[i...] where !(isLower(c) || isUpper(c) || isDigit(c) || c == 0x2D) { return false }
        return true
    }

    static func isLower(_ b: UInt8) -> Bool { b >= 0x61 && b <= 0x7A }
    static func isUpper(_ b: UInt8) -> Bool { b >= 0x41 && b <= 0x5A }
    static func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }
    static func upper(_ b: UInt8) -> UInt8 { isLower(b) ? b - 0x20 : b }
    static func lower(_ b: UInt8) -> UInt8 { isUpper(b) ? b + 0x20 : b }
}

/// Eight bytes at a time, as one little-endian word (the first byte in the low byte): the checks
/// `NameFold` and `ASCIIName` make of every byte of every name, made of eight at once. Each byte's
/// sum below stays under 0x100, so no carry crosses into the next byte.
enum Bytes8 {
    @inline(__always)
    static func each(_ c: UInt8) -> UInt64 { 0x0101_0101_0101_0101 &* UInt64(c) }

    @inline(__always)
    static func load(_ b: UnsafeBufferPointer<UInt8>, at i: Int) -> UInt64 {
        UInt64(littleEndian: UnsafeRawPointer(b.baseAddress! + i).loadUnaligned(as: UInt64.self))
    }

    /// The high bit of each byte from `lo` through `hi` (both below 0x80), the other bits clear.
    @inline(__always)
    static func within(_ w: UInt64, _ lo: UInt8, _ hi: UInt8) -> UInt64 {
        let low7 = w & each(0x7F)
        return (low7 &+ each(0x80 - lo)) & ~(low7 &+ each(0x7F - hi)) & ~w & each(0x80)
    }

    @inline(__always)
    static func has(_ w: UInt64, _ c: UInt8) -> Bool {
        let x = w ^ each(c)
        return (x &- each(0x01)) & ~x & each(0x80) != 0
    }

    @inline(__always)
    static func allLettersOrDigits(_ w: UInt64) -> Bool {
        within(w, 0x30, 0x39) | within(w, 0x41, 0x5A) | within(w, 0x61, 0x7A) == each(0x80)
    }

    @inline(__always)
    static func allLettersDigitsOrDashes(_ w: UInt64) -> Bool {
        within(w, 0x30, 0x39) | within(w, 0x41, 0x5A) | within(w, 0x61, 0x7A) | within(w, 0x2D, 0x2D) == each(0x80)
    }

    @inline(__always)
    static func allLowercaseOrDigits(_ w: UInt64) -> Bool {
        within(w, 0x30, 0x39) | within(w, 0x61, 0x7A) == each(0x80)
    }

    /// ASCII capitals lowercased; every other byte as it was.
    @inline(__always)
    static func lowercased(_ w: UInt64) -> UInt64 {
        w | within(w, 0x41, 0x5A) >> 2
    }

    static func contains(_ b: UnsafeBufferPointer<UInt8>, _ c: UInt8) -> Bool {
        var i = 0
        while i + 8 <= b.count {
            if has(load(b, at: i), c) { return true }
            i += 8
        }
        return b[i...].contains(c)
    }
}
