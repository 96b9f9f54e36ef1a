import PolicySource

/// The rule catalog, in the order of SPEC §2. Each rule lives in its own file under `Catalog/`.
public enum Catalog {
    public static let rules: [Rule] = [
        .yamlSyntax,
        .yamlUnsupported,
        .yamlDuplicateKey,
        .inputLimit,
        .unknownKey,
        .missingKey,
        .typeMismatch,
        .unsupportedVersion,
        .badName,
        .nameCollision,
        .extendsParent,
        .timeoutMin,
        .interactiveRetriesMax,
        .backgroundRetriesMax,
        .backoffOrder,
        .timeoutWithinDeadline,
        .interactiveDeadline,
        .fullJitter,
        .retryStatuses,
        .notReadyNeverRetried,
        .retryAfterHonored,
        .retryAfterJitter,
        .retryBudgetMax,
        .retryBudgetFloor,
        .prefetchAheadMax,
        .prefetchLocked,
        .prefetchRefusedRetry,
        .ticketReuseMargin,
        .ticketReuseKey,
        .viewerRefStable,
        .waiverExpired,
        .waiverExpiring,
        .waiverTooLong,
        .waiverUnused,
        .waiverNotAllowed,
        .baselineStale,
    ]

    public static func rule(_ id: RuleID) -> Rule? { byID[id] }

    public static func rule(named id: String) -> Rule? { rule(RuleID(rawValue: id)) }

    private static let byID: [RuleID: Rule] = Dictionary(rules.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
}
