extension Rule {
    static let notReadyNeverRetried = Rule(
        .notReadyNeverRetried, .error,
        summary: "503 is retried but {status: 503, code: not_ready} is not in neverRetry",
        reference: Reference("Retry 429 and 503 the right way", quote: "503 (except 503 `not_ready`)"),
        examples: [
            .canonical([("retryOn: [network, 429, 500, 502, 503]", "retryOn: [network, 429, 500, 502, ↓503]"),
                        ("  neverRetry:\n    - status: 503\n      code: not_ready\n", "")],
                       triggers: true, note: "no exceptions at all: a not_ready episode would be retried"),
            .canonical([("retryOn: [network, 429, 500, 502, 503]", "retryOn: [network, 429, 500, 502, ↓503]"),
                        ("code: not_ready", "code: not-ready")],
                       triggers: true, note: "the code is not_ready, with an underscore"),
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
                         help: "add '- {status: 503, code: not_ready}' to neverRetry")
        })
}
