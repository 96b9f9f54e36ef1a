extension Rule {
    static let missingKey = Rule(
        .missingKey, .error,
        summary: "a required key is absent (reported at the key of the mapping that lacks it)",
        reference: nil,
        examples: [
            .canonical(replacing: "  retryAfter:\n    honor: true\n    maxJitter: 1s\n",
                       with: "  ↓retryAfter:\n    honor: true\n", triggers: true,
                       note: "retryAfter lacks maxJitter: reported at 'retryAfter'"),
            .canonical([("      timeout: 15s\n", ""), ("    background:", "    ↓background:")], triggers: true,
                       note: "a profile without a timeout: reported at the profile's key"),
            .canonical(replacing: "version: 1\npolicy: playback", with: "↓policy: playback", triggers: true,
                       note: "the root lacks version: reported at its start"),
            Example("↓", triggers: true, note: "an empty file lacks every key"),
            .canonical(replacing: "  neverRetry:\n    - status: 503\n      code: not_ready\n", with: "", triggers: false,
                       note: "neverRetry is optional (here its absence breaks another rule)",
                       alsoFinds: [.notReadyNeverRetried]),
        ])
}
