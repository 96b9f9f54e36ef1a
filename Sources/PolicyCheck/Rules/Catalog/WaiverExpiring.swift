import PolicySource

extension RuleID {
    public static let waiverExpiring: RuleID = "waiver-expiring"
}

extension Rule {
    static let waiverExpiring = Rule(
        .waiverExpiring, .warning,
        summary: "a waiver expires within 14 days of today",
        reference: nil,
        examples: [
            .waiving([Example.waiver("interactive-retries-max", expires: "↓2027-01-20")], edits: [("maxRetries: 3", "maxRetries: 4")],
                     triggers: true, note: "five days left; the finding is still accepted", alsoFinds: [.interactiveRetriesMax]),
            .waiving([Example.waiver("interactive-retries-max", expires: "2027-03-31")], edits: [("maxRetries: 3", "maxRetries: 4")],
                     triggers: false, note: "weeks left", alsoFinds: [.interactiveRetriesMax]),
        ])
}
