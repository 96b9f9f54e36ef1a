import PolicySource

/// A limit of the guide that a number sets, and that a project may tighten (`limits:` in
/// `policyc.yaml`). The rules read the number from `Limits`, never from a constant of their own.
public enum LimitKey: String, Sendable, Hashable, CaseIterable {
    case interactiveMaxRetries
    case backgroundMaxRetries
    case timeoutMin
    case interactiveDeadlineMax
    case retryAfterMaxJitter
    case budgetRatioMax
    case budgetFloorMax
    case prefetchAheadMax
    case ticketReuseMarginMin

    public enum Kind: Sendable { case count, duration, percent }

    public var kind: Kind {
        switch self {
        case .interactiveMaxRetries, .backgroundMaxRetries, .budgetFloorMax, .prefetchAheadMax: return .count
        case .timeoutMin, .interactiveDeadlineMax, .retryAfterMaxJitter, .ticketReuseMarginMin: return .duration
        case .budgetRatioMax: return .percent
        }
    }

    /// The largest count the limit may be, as the key it bounds.
    public var largestCount: Int {
        switch self {
        case .interactiveMaxRetries, .backgroundMaxRetries: return Language.maxRetries
        case .prefetchAheadMax: return Language.maxPrefetchAhead
        default: return Language.maxMinPerMinute
        }
    }

    /// A least value (tightening raises it) rather than a most (tightening lowers it).
    public var isMinimum: Bool { self == .timeoutMin || self == .ticketReuseMarginMin }

    /// The rule that checks the limit.
    public var rule: RuleID {
        switch self {
        case .interactiveMaxRetries: return .interactiveRetriesMax
        case .backgroundMaxRetries: return .backgroundRetriesMax
        case .timeoutMin: return .timeoutMin
        case .interactiveDeadlineMax: return .interactiveDeadline
        case .retryAfterMaxJitter: return .retryAfterJitter
        case .budgetRatioMax: return .retryBudgetMax
        case .budgetFloorMax: return .retryBudgetFloor
        case .prefetchAheadMax: return .prefetchAheadMax
        case .ticketReuseMarginMin: return .ticketReuseMargin
        }
    }

    /// What the limit bounds, for `policyc rules` and the project file's schema.
    public var meaning: String {
        switch self {
        case .interactiveMaxRetries: return "most retries of an interactive profile"
        case .backgroundMaxRetries: return "most retries of a background profile"
        case .timeoutMin: return "least timeout of a profile"
        case .interactiveDeadlineMax: return "longest deadline of an interactive profile"
        case .retryAfterMaxJitter: return "most jitter after Retry-After"
        case .budgetRatioMax: return "largest retry budget ratio"
        case .budgetFloorMax: return "largest retry budget floor per minute"
        case .prefetchAheadMax: return "most episodes prefetched"
        case .ticketReuseMarginMin: return "least margin before a ticket expires"
        }
    }
}

/// A limit's number: a count, a duration in milliseconds or a percent.
public enum LimitValue: Sendable, Hashable, CustomStringConvertible {
    case count(Int)
    case duration(Int)
    case percent(Percent)

    /// As a policy writes it: `3`, `5s`, `10%`.
    public var description: String {
        switch self {
        case .count(let n): return String(n)
        case .duration(let ms): return Format.duration(ms)
        case .percent(let p): return Format.percent(p)
        }
    }

    /// -1, 0 or 1 as `self` is less than, equal to or more than `other` (values of one kind).
    public func compare(_ other: LimitValue) -> Int {
        switch (self, other) {
        case (.count(let a), .count(let b)), (.duration(let a), .duration(let b)):
            return a < b ? -1 : (a == b ? 0 : 1)
        case (.percent(let a), .percent(let b)):
            return Percent.compare(a, b)
        default:
            return 0
        }
    }
}

extension Percent {
    /// -1, 0 or 1, exactly on the written digits (`canonical` has no leading or trailing zeros).
    public static func compare(_ a: Percent, _ b: Percent) -> Int {
        func split(_ p: Percent) -> (String, String) {
            let parts = p.canonical.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
            return (String(parts.first ?? "0"), parts.count > 1 ? String(parts[1]) : "")
        }
        var (wa, fa) = split(a)
        var (wb, fb) = split(b)
        while wa.count < wb.count { wa = "0" + wa }
        while wb.count < wa.count { wb = "0" + wb }
        while fa.count < fb.count { fa += "0" }
        while fb.count < fa.count { fb += "0" }
        let x = wa + fa, y = wb + fb
        return x < y ? -1 : (x == y ? 0 : 1)
    }
}

/// One edition of the guide's numbers. Adding an edition is adding a value to `Guide.editions`.
public struct GuideEdition: Sendable, Hashable {
    /// `2026-11`: the month the guide was published.
    public var name: String
    /// The limits the edition sets; a limit it does not set (background retries) is absent.
    public var values: [LimitKey: LimitValue]

    public init(name: String, values: [LimitKey: LimitValue]) {
        self.name = name
        self.values = values
    }
}

public enum Guide {
    /// "Smooth playback under load", November 2026.
    public static let edition2026_11 = GuideEdition(name: "2026-11", values: [
        .interactiveMaxRetries: .count(3),
        .timeoutMin: .duration(5000),
        .interactiveDeadlineMax: .duration(15_000),
        .retryAfterMaxJitter: .duration(1000),
        .budgetRatioMax: .percent(Percent(canonical: "10")),
        .budgetFloorMax: .count(10),
        .prefetchAheadMax: .count(2),
        .ticketReuseMarginMin: .duration(300_000),
    ])

    /// Every edition, oldest first.
    public static let editions: [GuideEdition] = [edition2026_11]

    public static var newest: GuideEdition { editions[editions.count - 1] }

    public static func edition(named name: String, in editions: [GuideEdition] = editions) -> GuideEdition? {
        editions.first { $0.name == name }
    }
}

/// The limits a check applies: an edition's, with what the project tightened and where.
public struct Limits: Sendable, Hashable {
    public struct Origin: Sendable, Hashable {
        /// The project file, as the CLI names it.
        public var file: String
        public var span: Span

        public init(file: String, span: Span) {
            self.file = file
            self.span = span
        }
    }

    public var edition: GuideEdition
    /// The effective values: the edition's, and the project's where it set one.
    public private(set) var values: [LimitKey: LimitValue]
    /// Where the project set a limit (only tighter ones are accepted, see `ProjectConfig`).
    public private(set) var origins: [LimitKey: Origin] = [:]

    public init(edition: GuideEdition) {
        self.edition = edition
        self.values = edition.values
    }

    /// The newest edition as published.
    public static let guide = Limits(edition: Guide.newest)

    /// Sets a project's limit (the caller has checked it tightens the edition's).
    public mutating func set(_ key: LimitKey, _ value: LimitValue, from origin: Origin) {
        values[key] = value
        origins[key] = origin
    }

    public func count(_ key: LimitKey) -> Int? {
        if case .count(let n) = values[key] { return n }
        return nil
    }

    public func duration(_ key: LimitKey) -> Int? {
        if case .duration(let ms) = values[key] { return ms }
        return nil
    }

    public func percent(_ key: LimitKey) -> Percent? {
        if case .percent(let p) = values[key] { return p }
        return nil
    }

    /// Whether `value` is at least as strict as the edition's (any value is, where it sets none).
    public func tightens(_ key: LimitKey, _ value: LimitValue) -> Bool {
        guard let guide = edition.values[key] else { return true }
        let order = value.compare(guide)
        return key.isMinimum ? order >= 0 : order <= 0
    }

    /// ` (policyc.yaml:4: tightens the guide's 3)` for a limit the project set; "" otherwise, so
    /// that a message of the guide's limits reads as it always has.
    public func note(_ key: LimitKey) -> String {
        guard let origin = origins[key] else { return "" }
        return " (\(origin.file):\(origin.span.start.line): \(tightening(key)))"
    }

    /// `tightens the guide's 3`, or `the guide sets none` where the edition has no such limit.
    public func tightening(_ key: LimitKey) -> String {
        guard let guide = edition.values[key] else { return "a limit of the project; the guide \(edition.name) sets none" }
        return "tightens the guide's \(guide)"
    }

    /// The project file's line, for a finding of a limit it set.
    public func related(_ key: LimitKey) -> [Diagnostic.Related] {
        guard let origin = origins[key] else { return [] }
        return [Diagnostic.Related(file: origin.file, span: origin.span, message: tightening(key))]
    }
}
