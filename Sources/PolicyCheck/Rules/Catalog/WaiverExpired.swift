import PolicySource

extension RuleID {
    public static let waiverExpired: RuleID = "waiver-expired"
}

extension Rule {
    static let waiverExpired = Rule(
        .waiverExpired, .error,
        summary: "a waiver's expires is before today (--today, POLICYC_TODAY, else the UTC date): the findings it accepted count again",
        reference: nil,
        examples: [
            .waiving([Example.waiver("interactive-retries-max", expires: "↓2027-01-14")], triggers: true,
                     note: "expired yesterday"),
            .waiving([Example.waiver("interactive-retries-max", expires: "↓2026-12-31")], edits: [("maxRetries: 3", "maxRetries: 4")],
                     triggers: true, note: "the finding it accepted is an error again", alsoFinds: [.interactiveRetriesMax],
                     unsafeEdits: [("maxRetries: 3", "maxRetries: 3")]),
            .waiving([Example.waiver("interactive-retries-max", expires: "2027-01-15")], edits: [("maxRetries: 3", "maxRetries: 4")],
                     triggers: false, note: "a waiver holds through the day it expires", alsoFinds: [.interactiveRetriesMax, .waiverExpiring]),
        ])
}
