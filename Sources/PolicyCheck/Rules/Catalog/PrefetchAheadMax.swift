import PolicySource

extension RuleID {
    public static let prefetchAheadMax: RuleID = "prefetch-ahead-max"
}

extension Rule {
    static let prefetchAheadMax = Rule(
        .prefetchAheadMax, .error,
        summary: "prefetch.ahead is over 2 (more than three tickets in one request)",
        reference: Reference("Request tickets early", quote: "One round trip, up to three tickets."),
        fixes: [.unsafe],
        examples: [
            .canonical(replacing: "ahead: 2", with: "ahead: ↓3", triggers: true,
                       note: "four tickets in one request", unsafeFixed: "ahead: 2"),
            .canonical(replacing: "ahead: 2", with: "ahead: 0", triggers: false, note: "no prefetch"),
        ],
        check: { doc, findings in
            let limits = findings.limits
            guard let most = limits.count(.prefetchAheadMax),
                  let ahead = doc.prefetchAhead, ahead.value > most else { return }
            let fix = findings.replacing(ahead.span, key: "ahead", with: String(most))
            let tickets = most == 2 ? "three tickets" : Wording.count(most + 1, "ticket")
            findings.add(at: ahead.span,
                         "prefetch.ahead is \(ahead.value), \(ahead.value &+ 1) tickets in one request; at most \(most) episode\(most == 1 ? "" : "s") ride\(most == 1 ? "s" : "") along (\(tickets))\(limits.note(.prefetchAheadMax))",
                         help: "write ahead: \(most)", related: limits.related(.prefetchAheadMax), fix: fix)
        })
}
