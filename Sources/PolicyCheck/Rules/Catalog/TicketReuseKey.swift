import PolicySource

extension RuleID {
    public static let ticketReuseKey: RuleID = "ticket-reuse-key"
}

extension Rule {
    static let ticketReuseKey = Rule(
        .ticketReuseKey, .error,
        summary: "tickets.reuseKey lacks any of viewer, device, episode and intent",
        reference: Reference("Request tickets early", quote: "Never share a ticket across devices."),
        fixes: [.unsafe],
        examples: [
            .canonical(replacing: "reuseKey: [viewer, device, episode, intent]",
                       with: "reuseKey: ↓[viewer, episode, intent]", triggers: true,
                       note: "without device a ticket is shared across devices; the unsafe fix adds it",
                       unsafeFixed: "reuseKey: [viewer, episode, intent, device]"),
            .canonical(replacing: "reuseKey: [viewer, device, episode, intent]",
                       with: "reuseKey:\n    ↓- episode", triggers: true,
                       note: "three parts missing: one finding naming them",
                       unsafeFixed: "reuseKey:\n    - episode\n    - viewer\n    - device\n    - intent"),
            .canonical(replacing: "reuseKey: [viewer, device, episode, intent]",
                       with: "reuseKey: [intent, episode, device, viewer]", triggers: false,
                       note: "order does not matter"),
            .canonical(replacing: "reuseKey: [viewer, device, episode, intent]",
                       with: "reuseKey: [viewer, devise, episode, intent]", triggers: false,
                       note: "a misspelled part is a type mismatch, not a missing part", alsoFinds: [.typeMismatch],
                       unsafeFixed: "reuseKey: [viewer, device, episode, intent]"),
        ],
        check: { doc, findings in
            guard let key = doc.reuseKey, doc.reuseKeyComplete else { return }
            // Each part looked for in the list: making a set of the list cost more than the rule.
            let missing = ReuseKeyPart.allCases.filter { part in !key.value.contains { $0.value == part } }.map(\.rawValue)
            guard !missing.isEmpty else { return }
            var fix: Fix?
            if let editor = findings.editor(), let list = editor.node(at: ["tickets", "reuseKey"]),
               let edits = editor.appendItems(missing.map { ($0, [$0]) }, to: list) {
                fix = Fix(.unsafe, "add \(Wording.list(missing)) to reuseKey", edits: edits)
            }
            findings.add(at: key.span,
                         "tickets.reuseKey lacks \(Wording.list(missing)); a ticket is reused only for the same viewer, device, episode and intent",
                         help: "write reuseKey: [\(Language.reuseKeyParts.joined(separator: ", "))]", fix: fix)
        })
}
