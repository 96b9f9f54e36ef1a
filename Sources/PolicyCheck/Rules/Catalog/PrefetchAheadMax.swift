import PolicySource

extension Rule {
    package static let prefetchAheadMax = Rule(
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
            guard let ahead = doc.prefetchAhead, ahead.value > 2 else { return }
            let fix = findings.replacing(ahead.span, key: "ahead", with: "2")
            findings.add(at: ahead.span,
                         "prefetch.ahead is \(ahead.value), \(ahead.value + 1) tickets in one request; at most 2 episodes ride along (three tickets)",
                         help: "write ahead: 2", fix: fix)
        })
}
