import PolicySource

extension RuleID {
    public static let fullJitter: RuleID = "full-jitter"
}

extension Rule {

    static let fullJitter = Rule(
        .fullJitter, .error,
        summary: "backoff is not full-jitter",
        reference: Reference("Checklist", quote: "exponential backoff with full jitter"),
        fixes: [.unsafe],
        examples: [
            .canonical(replacing: "backoff: full-jitter", with: "backoff: ↓exponential", triggers: true,
                       note: "without jitter, clients retry in lockstep", unsafeFixed: "backoff: full-jitter"),
            .canonical(replacing: "backoff: full-jitter", with: "backoff: ↓\"equal-jitter\"", triggers: true,
                       note: "equal jitter keeps half of each step fixed; a fix keeps the quotes",
                       unsafeFixed: "backoff: \"full-jitter\""),
            .canonical(replacing: "backoff: full-jitter", with: "backoff: full-jitter", triggers: false,
                       note: "full jitter"),
        ],
        check: { doc, findings in
            guard let backoff = doc.backoff, backoff.value != .fullJitter else { return }
            let fix = findings.replacing(backoff.span, key: "backoff", with: Backoff.fullJitter.rawValue)
            findings.add(at: backoff.span,
                         "backoff is '\(backoff.value.rawValue)'; the guide requires full-jitter",
                         help: "write backoff: full-jitter", fix: fix)
        })
}
