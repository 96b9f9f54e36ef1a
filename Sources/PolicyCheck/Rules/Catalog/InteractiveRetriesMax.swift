import PolicySource

extension RuleID {
    public static let interactiveRetriesMax: RuleID = "interactive-retries-max"
}

extension Rule {
    static let interactiveRetriesMax = Rule(
        .interactiveRetriesMax, .error,
        summary: "an interactive profile's maxRetries is over 3",
        reference: Reference("Checklist", quote: "At most 3 retries per interactive request"),
        fixes: [.unsafe],
        examples: [
            .canonical(replacing: "maxRetries: 3", with: "maxRetries: ↓4", triggers: true,
                       note: "four retries while a viewer waits; the unsafe fix writes 3", unsafeFixed: "maxRetries: 3"),
            .canonical(replacing: "maxRetries: 3", with: "maxRetries: 3", triggers: false,
                       note: "three retries is the limit"),
            .canonical(replacing: "maxRetries: 5", with: "maxRetries: 9", triggers: false,
                       note: "background profiles may retry more"),
        ],
        check: { doc, findings in
            let limits = findings.limits
            guard let limit = limits.count(.interactiveMaxRetries) else { return }
            let note = limits.note(.interactiveMaxRetries)
            for profile in doc.profiles where profile.isInteractive {
                guard let retries = profile.maxRetries, retries.value > limit else { continue }
                let fix = findings.replacing(retries.span, key: "maxRetries", with: String(limit))
                findings.add(at: retries.span,
                             "interactive profile '\(excerpt(profile.name.value))' allows \(retries.value) retries; at most \(limit) are allowed\(note)",
                             related: limits.related(.interactiveMaxRetries), fix: fix)
            }
        })
}
