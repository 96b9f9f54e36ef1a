import PolicySource

extension RuleID {
    public static let retryStatuses: RuleID = "retry-statuses"
}

extension Rule {
    static let retryStatuses = Rule(
        .retryStatuses, .error,
        summary: "retryOn lists a status other than 429, 500, 502 and 503, or lacks 429 or 503",
        reference: Reference("Retry 429 and 503 the right way",
                             quote: "Retry only what can succeed later: network errors, 429, 500, 502 and 503"),
        fixes: [.unsafe],
        examples: [
            .canonical(replacing: "retryOn: [network, 429, 500, 502, 503]",
                       with: "retryOn: [network, 429, 500, 502, 503, ↓404]", triggers: true,
                       note: "a 404 will not succeed later; the unsafe fix removes it",
                       unsafeFixed: "retryOn: [network, 429, 500, 502, 503]"),
            .canonical(replacing: "retryOn: [network, 429, 500, 502, 503]",
                       with: "retryOn: ↓[network, 500, 502, 503]", triggers: true,
                       note: "429 is missing: reported at the list; the unsafe fix adds it",
                       unsafeFixed: "retryOn: [network, 500, 502, 503, 429]"),
            .canonical(replacing: "retryOn: [network, 429, 500, 502, 503]",
                       with: "retryOn:\n    ↓- network\n    - 429\n    - ↓400", triggers: true,
                       note: "a block list without 503 and with 400: one finding each; fixes keep it a block list",
                       unsafeFixed: "retryOn:\n    - network\n    - 429\n    - 503"),
            .canonical(replacing: "retryOn: [network, 429, 500, 502, 503]",
                       with: "retryOn: ↓[↓404]", triggers: true,
                       note: "only a 404: removed, and 429 and 503 added, over two rounds of fixes",
                       unsafeFixed: "retryOn: [429, 503]"),
            .canonical(replacing: "retryOn: [network, 429, 500, 502, 503]",
                       with: "retryOn: [429, 503]", triggers: false,
                       note: "only the two that are required"),
            .canonical(replacing: "retryOn: [network, 429, 500, 502, 503]",
                       with: "retryOn: [network, 429, 500, 502, \"503\"]", triggers: false,
                       note: "a quoted status is a type mismatch; the list is not judged twice",
                       alsoFinds: [.typeMismatch], fixed: "retryOn: [network, 429, 500, 502, 503]"),
        ],
        check: { doc, findings in
            guard let retryOn = doc.retryOn else { return }
            // Only whether 429 and 503 are listed counts: sets of the statuses cost more than the rule.
            var lists429 = false, lists503 = false
            for item in retryOn.value {
                guard case .status(let status) = item.value else { continue }
                switch status {
                case 429: lists429 = true
                case 503: lists503 = true
                case 500, 502: break
                default:
                    let fix = removing(item.span, from: &findings).map { Fix(.unsafe, "remove \(status) from retryOn", edits: $0) }
                    findings.add(at: item.span,
                                 "retryOn lists \(status), which will not succeed later; only 429, 500, 502 and 503 may be retried",
                                 help: "remove \(status) from retryOn", fix: fix)
                }
            }
            // An item that did not decode may be the 429 or 503 the list seems to lack.
            guard doc.retryOnComplete else { return }
            var missing: [Int] = []
            if !lists429 { missing.append(429) }
            if !lists503 { missing.append(503) }
            guard !missing.isEmpty else { return }
            let names = missing.map(String.init)
            var fix: Fix?
            if let editor = findings.editor(), let list = editor.node(at: ["retry", "retryOn"]),
               let edits = editor.appendItems(names.map { ($0, [$0]) }, to: list) {
                fix = Fix(.unsafe, "add \(Wording.list(names)) to retryOn", edits: edits)
            }
            findings.add(at: retryOn.span,
                         "retryOn lacks \(Wording.list(names)); busy servers answer 429 and 503 and both must be retried",
                         help: "add \(Wording.list(names)) to retryOn", fix: fix)
        })

    /// The edits that take the item written at `span` out of retryOn.
    private static func removing(_ span: Span, from findings: inout Findings) -> [TextEdit]? {
        guard let editor = findings.editor(), let list = editor.node(at: ["retry", "retryOn"]), case .sequence(let items) = list.kind,
              let index = items.firstIndex(where: { $0.span.start == span.start }) else { return nil }
        return editor.removeItem(at: index, of: list)
    }
}
