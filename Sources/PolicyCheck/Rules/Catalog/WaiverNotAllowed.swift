import PolicySource

extension RuleID {
    public static let waiverNotAllowed: RuleID = "waiver-not-allowed"
}

extension Rule {
    static let waiverNotAllowed = Rule(
        .waiverNotAllowed, .error,
        summary: "a waiver names a rule of the language (yaml-*, input-limit, unknown-key, missing-key, type-mismatch, "
            + "unsupported-version, bad-name, name-collision), which cannot be waived",
        reference: nil,
        examples: [
            .waiving([["rule: ↓unknown-key"] + Array(Example.waiver("x", expires: "2027-03-31").dropFirst())],
                     triggers: true, note: "a mistake in the language is corrected, not accepted"),
            .waiving([Example.waiver("interactive-deadline", expires: "2027-03-31")], edits: [("deadline: 15s", "deadline: 20s")],
                     triggers: false, note: "the guide's limits can be waived", alsoFinds: [.interactiveDeadline]),
        ])
}
