import PolicySource

extension RuleID {
    public static let ticketReuseMargin: RuleID = "ticket-reuse-margin"
}

extension Rule {
    static let ticketReuseMargin = Rule(
        .ticketReuseMargin, .error,
        summary: "tickets.stopReuseBefore is under 5 minutes",
        reference: Reference("Request tickets early", quote: "only until 5 minutes before expires_at"),
        fixes: [.unsafe],
        examples: [
            .canonical(replacing: "stopReuseBefore: 5m", with: "stopReuseBefore: ↓4m", triggers: true,
                       note: "a reused ticket may expire during playback", unsafeFixed: "stopReuseBefore: 5m"),
            .canonical(replacing: "stopReuseBefore: 5m", with: "stopReuseBefore: ↓299999ms", triggers: true,
                       note: "a millisecond short", unsafeFixed: "stopReuseBefore: 5m"),
            .canonical(replacing: "stopReuseBefore: 5m", with: "stopReuseBefore: 300s", triggers: false,
                       note: "5 minutes in seconds"),
            .canonical(replacing: "stopReuseBefore: 5m", with: "stopReuseBefore: 1h", triggers: false,
                       note: "a wider margin"),
        ],
        check: { doc, findings in
            let limits = findings.limits
            guard let least = limits.duration(.ticketReuseMarginMin),
                  let margin = doc.stopReuseBefore, margin.value < least else { return }
            let shown = Format.duration(least)
            let fix = findings.replacing(margin.span, key: "stopReuseBefore", with: shown)
            findings.add(at: margin.span,
                         "tickets.stopReuseBefore is \(Format.duration(margin.value)); tickets are reused only until \(shown) before they expire\(limits.note(.ticketReuseMarginMin))",
                         help: "write stopReuseBefore: \(shown)", related: limits.related(.ticketReuseMarginMin), fix: fix)
        })
}
