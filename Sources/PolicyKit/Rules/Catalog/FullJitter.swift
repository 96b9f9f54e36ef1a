extension Rule {
    static let fullJitter = Rule(
        .fullJitter, .error,
        summary: "backoff is not full-jitter",
        reference: Reference("Checklist", quote: "exponential backoff with full jitter"),
        examples: [
            .canonical(replacing: "backoff: full-jitter", with: "backoff: ↓exponential", triggers: true,
                       note: "without jitter, clients retry in lockstep"),
            .canonical(replacing: "backoff: full-jitter", with: "backoff: ↓equal-jitter", triggers: true,
                       note: "equal jitter keeps half of each step fixed"),
            .canonical(replacing: "backoff: full-jitter", with: "backoff: full-jitter", triggers: false,
                       note: "full jitter"),
        ],
        check: { doc, findings in
            guard let backoff = doc.backoff, backoff.value != "full-jitter" else { return }
            findings.add(at: backoff.span,
                         "backoff is '\(backoff.value)'; the guide requires full-jitter",
                         help: "write backoff: full-jitter")
        })
}
