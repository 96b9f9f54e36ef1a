import PolicySource

extension RuleID {
    public static let unknownKey: RuleID = "unknown-key"
}

extension Rule {
    static let unknownKey = Rule(
        .unknownKey, .error,
        summary: "a key the language does not have there; help suggests the nearest known key, or says where a key of another mapping belongs (the safe fix moves a misplaced section there)",
        reference: nil,
        fixes: [.safe, .unsafe],
        examples: [
            .canonical(replacing: "    honor: true\n", with: "    honor: true\n    ↓honour: true\n", triggers: true,
                       note: "a misspelled key: did you mean 'honor'?"),
            .canonical(replacing: "      maxRetries: 5\n", with: "      maxRetries: 5\n      ↓max_retries: 5\n",
                       triggers: true, note: "another spelling of a known key"),
            .canonical(replacing: "prefetch:\n", with: "↓owner: playback-team\n\nprefetch:\n", triggers: true,
                       note: "a key the language does not have at all"),
            .canonical(replacing: "      maxRetries: 3", with: "      ↓maxRetires: 3", triggers: true,
                       note: "a misspelled required key is one mistake: maxRetries is not also reported missing; the unsafe fix renames it",
                       unsafeFixed: "      maxRetries: 3"),
            .canonical(replacing: "  retryOn: [", with: "  ↓retryOnStatus: [", triggers: true,
                       note: "a key built on a known one (retryOn) is taken for it: one finding", unsafeFixed: "  retryOn: ["),
            .canonical(replacing: "    maxJitter: 1s\n  budget:\n    ratio: 10%\n    minPerMinute: 10\n",
                       with: "    maxJitter: 1s\n    ↓budget:\n      ratio: 10%\n      minPerMinute: 10\n", triggers: true,
                       note: "a key indented under the wrong parent: one finding that says where it belongs"),
            .canonical([("  budget:\n    ratio: 10%\n    minPerMinute: 10\n", ""),
                        ("prefetch:\n", "↓budget:\n  ratio: 8%\n  minPerMinute: 10\n\nprefetch:\n")], triggers: true,
                       note: "a section at the wrong level: one finding (budget is not also missing), and the safe fix moves it into retry with its values",
                       fixed: [("    ratio: 10%\n", "    ratio: 8%\n")]),
            .canonical(replacing: "      cap: 8s", with: "      ↓ceiling: 8s", triggers: true,
                       note: "a key that resembles none: cap is reported missing too", alsoFinds: [.missingKey],
                       unsafeFixed: "      ceiling: 8s               # largest backoff step\n      cap: 8s"),
            .canonical(replacing: "description: Ticket requests made by the iOS and Android players.\n", with: "",
                       triggers: false, note: "description is optional"),
        ])
}
