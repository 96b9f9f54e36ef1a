/// The rule catalog, in the order of SPEC §2. Each rule lives in its own file under `Catalog/`.
public enum Catalog {
    public static let rules: [Rule] = [
        .yamlSyntax,
        .timeoutMin,
        .interactiveRetriesMax,
    ]

    public static func rule(_ id: RuleID) -> Rule? { byID[id] }

    public static func rule(named id: String) -> Rule? { RuleID(rawValue: id).flatMap(rule) }

    private static let byID: [RuleID: Rule] = Dictionary(uniqueKeysWithValues: rules.map { ($0.id, $0) })
}
