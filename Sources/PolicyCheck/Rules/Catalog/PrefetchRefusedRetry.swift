import PolicySource

extension RuleID {
    public static let prefetchRefusedRetry: RuleID = "prefetch-refused-retry"
}

extension Rule {
    static let prefetchRefusedRetry = Rule(
        .prefetchRefusedRetry, .error,
        summary: "prefetch.retryRefused is true",
        reference: Reference("Keep the viewer watching", quote: "A refused prefetch is not a failure."),
        fixes: [.unsafe],
        examples: [
            .canonical(replacing: "retryRefused: false", with: "retryRefused: ↓true", triggers: true,
                       note: "retrying a paused prefetch adds load when the servers are busiest",
                       unsafeFixed: "retryRefused: false"),
            .canonical(replacing: "retryRefused: false", with: "retryRefused: false", triggers: false,
                       note: "a refused prefetch waits until the viewer gets there"),
        ],
        check: { doc, findings in
            guard let retry = doc.prefetchRetryRefused, retry.value else { return }
            let fix = findings.replacing(retry.span, key: "retryRefused", with: "false")
            findings.add(at: retry.span,
                         "prefetch.retryRefused is true; a refused prefetch is not a failure and is never retried",
                         help: "write retryRefused: false", fix: fix)
        })
}
