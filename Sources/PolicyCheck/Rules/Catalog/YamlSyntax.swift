import PolicySource

extension Rule {
    static let yamlSyntax = Rule(
        .yamlSyntax, .error,
        summary: "the file is not well-formed YAML (position and problem from the parser)",
        reference: nil,
        fixes: [.safe],
        examples: [
            Example("version: 1\npolicy: [playback\n↓", triggers: true,
                    note: "an unclosed flow sequence; the parser notices at the end of the file"),
            Example("version: 1\npolicy: playback\n  retry↓: {}\n", triggers: true,
                    note: "a key indented deeper than its siblings; the parser notices at its ':'"),
            .canonical(replacing: "    honor: true", with: "↓\thonor: true", triggers: true,
                       note: "a tab indents a line; the safe fix indents it with spaces, as its siblings",
                       fixed: "    honor: true"),
            .canonical(replacing: "      maxRetries: 3         # retries after the first attempt\n      base: 500ms           # first backoff step",
                       with: "↓\tmaxRetries: 3\n\tbase: 500ms", triggers: true,
                       note: "every line a tab indents is fixed at once, each as its siblings",
                       fixed: "      maxRetries: 3\n      base: 500ms"),
            .canonical(replacing: "policy: playback", with: "policy: \"playback\"", triggers: false,
                       note: "quoted scalars are fine"),
        ])
}
