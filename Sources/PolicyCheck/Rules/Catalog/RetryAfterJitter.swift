import PolicySource

extension Rule {
    package static let retryAfterJitter = Rule(
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
            guard let jitter = doc.retryAfterMaxJitter, jitter.value == 0 || jitter.value > 1000 else { return }
            let fix = findings.replacing(jitter.span, key: "maxJitter", with: "1s")
            findings.add(at: jitter.span,
                         jitter.value == 0
                            ? "retryAfter.maxJitter is 0ms; Retry-After needs some jitter, up to 1s"
                            : "retryAfter.maxJitter is \(Format.duration(jitter.value)); the jitter after Retry-After is at most 1s",
                         help: "write maxJitter: 1s", fix: fix)
        })
}
