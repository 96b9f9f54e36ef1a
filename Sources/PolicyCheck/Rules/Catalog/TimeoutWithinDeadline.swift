import PolicySource

extension RuleID {
    public static let timeoutWithinDeadline: RuleID = "timeout-within-deadline"
}

extension Rule {
    static let timeoutWithinDeadline = Rule(
        .timeoutWithinDeadline, .error,
        summary: "a profile's timeout is longer than its deadline",
        reference: Reference("Retry 429 and 503 the right way", quote: "the whole call, retries included"),
        examples: [
            .canonical(replacing: "timeout: 8s", with: "timeout: ↓20s", triggers: true,
                       note: "one attempt may outlast the whole call's deadline of 15s"),
            .canonical(replacing: "timeout: 8s", with: "timeout: 15s", triggers: false,
                       note: "a timeout equal to the deadline"),
        ],
        check: { doc, findings in
            for profile in doc.profiles {
                guard let timeout = profile.timeout, let deadline = profile.deadline, timeout.value > deadline.value
                else { continue }
                findings.add(at: timeout.span,
                             "profile '\(excerpt(profile.name.value))' has a timeout of \(Format.duration(timeout.value)), longer than its deadline of \(Format.duration(deadline.value))",
                             help: "make timeout at most deadline")
            }
        })
}
