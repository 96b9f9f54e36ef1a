import PolicySource

extension RuleID {
    public static let missingKey: RuleID = "missing-key"
}

extension Rule {
    static let missingKey = Rule(
        .missingKey, .error,
        summary: "a required key is absent (reported at the key of the mapping that lacks it)",
        reference: nil,
        fixes: [.unsafe],
        examples: [
            .canonical(replacing: "  retryAfter:\n    honor: true\n    maxJitter: 1s\n",
                       with: "  ↓retryAfter:\n    honor: true\n", triggers: true,
                       note: "retryAfter lacks maxJitter: reported at 'retryAfter'; the unsafe fix adds the canonical value",
                       unsafeFixed: "  retryAfter:\n    honor: true\n    maxJitter: 1s\n"),
            .canonical([("      timeout: 15s\n", ""), ("    background:", "    ↓background:")], triggers: true,
                       note: "a profile without a timeout: reported at the profile's key; the fix takes a background profile's",
                       unsafeFixed: []),
            .canonical([("retry:\n", "↓retry:\n"), ("  budget:\n    ratio: 10%\n    minPerMinute: 10\n", "")], triggers: true,
                       note: "a missing section: help and fix hold the whole canonical section, so one round fixes it",
                       unsafeFixed: []),
            .canonical(replacing: "  retryAfter:\n    honor: true\n    maxJitter: 1s\n",
                       with: "  ↓retryAfter: {honor: true}\n", triggers: true, note: "in a flow mapping, the fix adds to it",
                       unsafeFixed: "  retryAfter: {honor: true, maxJitter: 1s}\n"),
            .canonical(replacing: "version: 1\npolicy: playback", with: "↓policy: playback", triggers: true,
                       note: "the root lacks version: reported at its start", unsafeFixed: "version: 1\npolicy: playback"),
            Example("↓", triggers: true, note: "an empty file lacks every key; the unsafe fix writes the canonical policy, named after the file (playback.yaml here)",
                    unsafeFixed: Canonical.text),
            .canonical(replacing: "  neverRetry:\n    - status: 503\n      code: not_ready\n", with: "", triggers: false,
                       note: "neverRetry is optional (here its absence breaks another rule)",
                       alsoFinds: [.notReadyNeverRetried], unsafeFixed: "  neverRetry:\n    - status: 503\n      code: not_ready\n"),
        ])
}
