import PolicySource

extension RuleID {
    public static let retryAfterJitter: RuleID = "retry-after-jitter"
}

extension Rule {
    static let retryAfterJitter = Rule(
        .retryAfterJitter, .error,
        summary: "retryAfter.maxJitter is 0 or over 1 s",
        reference: Reference("Retry 429 and 503 the right way", quote: "Retry-After (+ up to 1 s jitter)"),
        fixes: [.unsafe],
        examples: [
            .canonical(replacing: "maxJitter: 1s", with: "maxJitter: ↓0s", triggers: true,
                       note: "without jitter every client comes back at the same instant", unsafeFixed: "maxJitter: 1s"),
            .canonical(replacing: "maxJitter: 1s", with: "maxJitter: ↓1001ms", triggers: true,
                       note: "a millisecond over the limit", unsafeFixed: "maxJitter: 1s"),
            .canonical(replacing: "maxJitter: 1s", with: "maxJitter: 250ms", triggers: false,
                       note: "some jitter, under 1 s"),
        ],
        check: { doc, findings in
            let limits = findings.limits
            guard let most = limits.duration(.retryAfterMaxJitter),
                  let jitter = doc.retryAfterMaxJitter, jitter.value == 0 || jitter.value > most else { return }
            let shown = Format.duration(most)
            let over = jitter.value > most
            let fix = findings.replacing(jitter.span, key: "maxJitter", with: shown)
            findings.add(at: jitter.span,
                         jitter.value == 0
                            ? "retryAfter.maxJitter is 0ms; Retry-After needs some jitter, up to \(shown)"
                            : "retryAfter.maxJitter is \(Format.duration(jitter.value)); the jitter after Retry-After is at most \(shown)\(limits.note(.retryAfterMaxJitter))",
                         help: "write maxJitter: \(shown)",
                         related: over ? limits.related(.retryAfterMaxJitter) : [], fix: fix)
        })
}
