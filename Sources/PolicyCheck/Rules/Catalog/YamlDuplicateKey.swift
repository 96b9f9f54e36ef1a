import PolicySource

extension Rule {
    static let yamlDuplicateKey = Rule(
        .yamlDuplicateKey, .error,
        summary: "a mapping repeats a key (the second is reported, the first is related)",
        reference: nil,
        examples: [
            .canonical(replacing: "      maxRetries: 3         # retries after the first attempt\n",
                       with: "      maxRetries: 3\n      ↓maxRetries: 4\n", triggers: true,
                       note: "the second value would silently win in most YAML readers"),
            .canonical(replacing: "    background:", with: "    ↓interactive:", triggers: true,
                       note: "two profiles with one name"),
            .canonical(replacing: "  ahead: 2", with: "  ahead: 2\n  ↓\"ahead\": 2", triggers: true,
                       note: "quoting a key does not make it another key"),
            .canonical(replacing: "    maxJitter: 1s", with: "    maxJitter: 1s", triggers: false,
                       note: "the same key in different mappings is fine (timeout, deadline in each profile)"),
        ])
}
