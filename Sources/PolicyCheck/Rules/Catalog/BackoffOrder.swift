import PolicySource

extension RuleID {
    public static let backoffOrder: RuleID = "backoff-order"
}

extension Rule {
    static let backoffOrder = Rule(
        .backoffOrder, .error,
        summary: "a profile's base is 0 or larger than its cap",
        reference: Reference("Retry 429 and 503 the right way", quote: "else full jitter under the cap"),
        fixes: [.unsafe],
        examples: [
            .canonical(replacing: "base: 500ms", with: "base: ↓0ms", triggers: true,
                       note: "a zero base never backs off; the unsafe fix writes the canonical step of its kind",
                       unsafeFixed: "base: 500ms"),
            .canonical(replacing: "base: 500ms", with: "base: ↓10s", triggers: true,
                       note: "a base above the cap of 8s: no fix, lowering base or raising cap is a choice"),
            .canonical(replacing: "base: 500ms", with: "base: 8s", triggers: false,
                       note: "base equal to cap: a constant step"),
        ],
        check: { doc, findings in
            for profile in doc.profiles {
                guard let base = profile.base else { continue }
                if base.value == 0 {
                    let step = profile.kind?.value == .background ? 1000 : 500
                    let fix = (profile.cap?.value ?? step) >= step
                        ? findings.replacing(base.span, key: "base", with: Format.duration(step)) : nil
                    findings.add(at: base.span,
                                 "profile '\(excerpt(profile.name.value))' has a base of 0ms; the backoff must be more than 0",
                                 help: "the canonical steps are 500ms (interactive) and 1s (background)", fix: fix)
                } else if let cap = profile.cap, base.value > cap.value {
                    findings.add(at: base.span,
                                 "profile '\(excerpt(profile.name.value))' has a base of \(Format.duration(base.value)), larger than its cap of \(Format.duration(cap.value))",
                                 help: "make base at most cap")
                }
            }
        })
}
