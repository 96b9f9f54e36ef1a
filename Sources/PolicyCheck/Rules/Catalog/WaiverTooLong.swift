import PolicySource

extension RuleID {
    public static let waiverTooLong: RuleID = "waiver-too-long"
}

extension Rule {
    static let waiverTooLong = Rule(
        .waiverTooLong, .error,
        summary: "a waiver expires more than 180 days after today (the project file's waiverMaxDays, at most 365)",
        reference: nil,
        examples: [
            .waiving([Example.waiver("interactive-retries-max", expires: "↓2027-12-31")], edits: [("maxRetries: 3", "maxRetries: 4")],
                     triggers: true, note: "almost a year is no longer an exception", alsoFinds: [.interactiveRetriesMax]),
            .waiving([Example.waiver("interactive-retries-max", expires: "2027-07-14")], edits: [("maxRetries: 3", "maxRetries: 4")],
                     triggers: false, note: "180 days ahead is the most", alsoFinds: [.interactiveRetriesMax]),
        ])
}
