import PolicySource

extension RuleID {
    public static let backgroundRetriesMax: RuleID = "background-retries-max"
}

extension Rule {
    static let backgroundRetriesMax = Rule(
        .backgroundRetriesMax, .error,
        summary: "a background profile's maxRetries is over the project's limits.backgroundMaxRetries "
            + "(only when policyc.yaml sets it: the guide sets none)",
        reference: Reference("Retry 429 and 503 the right way",
                             quote: "How hard to try. INTERACTIVE = a viewer is waiting; BACKGROUND = a sync job."),
        fixes: [.unsafe],
        examples: [
            .canonical(replacing: "maxRetries: 5", with: "maxRetries: ↓5", triggers: true,
                       note: "with backgroundMaxRetries: 4 in policyc.yaml, five retries are one too many; the unsafe fix writes 4",
                       unsafeFixed: "maxRetries: 4", limits: Rule.exampleLimits),
            .canonical(replacing: "maxRetries: 5", with: "maxRetries: 4", triggers: false,
                       note: "with backgroundMaxRetries: 4 in policyc.yaml, four retries are allowed", limits: Rule.exampleLimits),
            .canonical(replacing: "maxRetries: 5", with: "maxRetries: 50", triggers: false,
                       note: "without backgroundMaxRetries the rule checks nothing"),
        ],
        check: { doc, findings in
            let limits = findings.limits
            guard let limit = limits.count(.backgroundMaxRetries) else { return }
            let note = limits.note(.backgroundMaxRetries)
            for profile in doc.profiles where profile.kind?.value == .background {
                guard let retries = profile.maxRetries, retries.value > limit else { continue }
                let fix = findings.replacing(retries.span, key: "maxRetries", with: String(limit))
                findings.add(at: retries.span,
                             "background profile '\(excerpt(profile.name.value))' allows \(retries.value) retries; at most \(limit) are allowed\(note)",
                             related: limits.related(.backgroundMaxRetries), fix: fix)
            }
        })

    /// The project limits of the examples that need one: `limits: {backgroundMaxRetries: 4}` in
    /// a `policyc.yaml`, first line.
    static let exampleLimits: Limits = {
        var limits = Limits.guide
        limits.set(.backgroundMaxRetries, .count(4),
                   from: .init(file: "policyc.yaml", span: Span(start: Mark(line: 3, column: 25), end: Mark(line: 3, column: 26))))
        return limits
    }()
}
