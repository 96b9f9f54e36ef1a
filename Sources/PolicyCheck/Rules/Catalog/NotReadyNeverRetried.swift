import PolicySource

extension RuleID {
    public static let notReadyNeverRetried: RuleID = "not-ready-never-retried"
}

extension Rule {
    static let notReadyNeverRetried = Rule(
        .notReadyNeverRetried, .error,
        summary: "503 is retried but {status: 503, code: not_ready} is not in neverRetry",
        reference: Reference("Retry 429 and 503 the right way", quote: "503 (except 503 `not_ready`)"),
        fixes: [.unsafe],
        examples: [
            .canonical([("retryOn: [network, 429, 500, 502, 503]", "retryOn: [network, 429, 500, 502, ↓503]"),
                        ("  neverRetry:\n    - status: 503\n      code: not_ready\n", "")],
                       triggers: true, note: "no exceptions at all: a not_ready episode would be retried; the unsafe fix adds neverRetry",
                       unsafeFixed: []),
            .canonical([("retryOn: [network, 429, 500, 502, 503]", "retryOn: [network, 429, 500, 502, ↓503]"),
                        ("code: not_ready", "code: not-ready")],
                       triggers: true, note: "the code is not_ready, with an underscore; the unsafe fix adds the pair",
                       unsafeFixed: [("code: not_ready", "code: not-ready\n    - status: 503\n      code: not_ready")]),
            .canonical([("retryOn: [network, 429, 500, 502, 503]", "retryOn: [network, 429, 500, 502, ↓503]"),
                        ("  neverRetry:\n    - status: 503\n      code: not_ready\n", "  neverRetry: [{status: 404, code: gone}]\n")],
                       triggers: true, note: "a flow list gets the pair in flow style",
                       unsafeFixed: [("  neverRetry:\n    - status: 503\n      code: not_ready\n",
                                      "  neverRetry: [{status: 404, code: gone}, {status: 503, code: not_ready}]\n")]),
            .canonical(replacing: "  neverRetry:\n    - status: 503\n      code: not_ready\n",
                       with: "  neverRetry: [{status: 404, code: gone}, {status: 503, code: not_ready}]\n",
                       triggers: false, note: "the exception among others, in flow style"),
            .canonical(replacing: "    - status: 503\n", with: "    - status: five-oh-three\n", triggers: false,
                       note: "an exception that did not decode is not judged", alsoFinds: [.typeMismatch]),
        ],
        check: { doc, findings in
            guard let retryOn = doc.retryOn, doc.neverRetryComplete,
                  let item503 = retryOn.value.first(where: { $0.value == .status(503) }) else { return }
            let excepted = (doc.neverRetry?.value ?? []).contains {
                $0.status?.value == 503 && $0.code.map { sameText($0.value, "not_ready") } == true
            }
            guard !excepted else { return }
            findings.add(at: item503.span,
                         "503 is retried but 503 not_ready is not in neverRetry; an episode that is not ready yet would be retried in vain",
                         help: "add '- {status: 503, code: not_ready}' to neverRetry", fix: addingNotReady(&findings))
        })

    /// The pair appended to neverRetry, or neverRetry added to retry as the canonical policy has it.
    private static func addingNotReady(_ findings: inout Findings) -> Fix? {
        guard let editor = findings.editor() else { return nil }
        if let list = editor.node(at: ["retry", "neverRetry"]) {
            return editor.appendItems([("{status: 503, code: not_ready}", ["status: 503", "code: not_ready"])], to: list)
                .map { Fix(.unsafe, "add {status: 503, code: not_ready} to neverRetry", edits: $0) }
        }
        guard let retry = editor.node(at: ["retry"]), let canonical = CanonicalEntry.find("neverRetry", at: ["retry"]) else { return nil }
        return editor.insertEntry("neverRetry", lines: canonical.lines, flow: canonical.flow, into: retry,
                                  order: Language.retry.map(\.key))
            .map { Fix(.unsafe, "add neverRetry with {status: 503, code: not_ready}", edits: $0) }
    }
}
