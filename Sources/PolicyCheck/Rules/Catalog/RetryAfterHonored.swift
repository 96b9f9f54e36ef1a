import PolicySource

extension RuleID {
    public static let retryAfterHonored: RuleID = "retry-after-honored"
}

extension Rule {
    static let retryAfterHonored = Rule(
        .retryAfterHonored, .error,
        summary: "retryAfter.honor is false",
        reference: Reference("What Wandura does when it is busy",
                             quote: "always read Retry-After instead of assuming a number"),
        fixes: [.unsafe],
        examples: [
            .canonical(replacing: "honor: true", with: "honor: ↓false", triggers: true,
                       note: "ignoring Retry-After retries before the server is ready", unsafeFixed: "honor: true"),
            .canonical(replacing: "honor: true", with: "honor: true", triggers: false, note: "Retry-After is honored"),
        ],
        check: { doc, findings in
            guard let honor = doc.retryAfterHonor, !honor.value else { return }
            let fix = findings.replacing(honor.span, key: "honor", with: "true")
            findings.add(at: honor.span,
                         "retryAfter.honor is false; the guide requires reading Retry-After instead of assuming a number",
                         help: "write honor: true", fix: fix)
        })
}
