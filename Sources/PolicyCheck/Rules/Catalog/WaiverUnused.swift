import PolicySource

extension RuleID {
    public static let waiverUnused: RuleID = "waiver-unused"
}

extension Rule {
    static let waiverUnused = Rule(
        .waiverUnused, .warning,
        summary: "a waiver matches no finding (its rule, at and allow); the safe fix deletes it",
        reference: nil,
        fixes: [.safe],
        examples: waiverUnusedExamples())

    private static func waiverUnusedExamples() -> [Example] {
        let rest = Array(Example.waiver("x", expires: "2027-03-31").dropFirst())
        let leftOver: [String] = ["↓rule: interactive-retries-max"] + rest
        let used = Example.waiver("interactive-retries-max", expires: "2027-03-31", at: "retry.profiles.interactive.maxRetries")
        let misspelled: [String] = ["↓rule: interactive-retries-max", "at: retry.profiles.interactve.maxRetries"] + rest
        let edits = [("maxRetries: 3", "maxRetries: 4")]
        return [
            .waiving([leftOver], triggers: true, note: "the policy keeps to the limit: the waiver is left over", fixedEntries: []),
            .waiving([used, misspelled], edits: edits, triggers: true,
                     note: "a misspelled key path matches nothing (help: did you mean)", alsoFinds: [.interactiveRetriesMax],
                     fixedEntries: [used]),
            .waiving([Example.waiver("interactive-retries-max", expires: "2027-03-31", allow: "4")], edits: edits,
                     triggers: false, note: "the waiver accepts the finding", alsoFinds: [.interactiveRetriesMax]),
        ]
    }
}
