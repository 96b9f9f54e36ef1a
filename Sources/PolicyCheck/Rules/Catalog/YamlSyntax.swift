import PolicySource

extension Rule {
    package static let yamlSyntax = Rule(
        .yamlSyntax, .error,
        summary: "the file is not well-formed YAML (position and problem from the parser)",
        reference: nil,
        examples: [
            Example("version: 1\npolicy: [playback\n↓", triggers: true,
                    note: "an unclosed flow sequence; the parser notices at the end of the file"),
            Example("version: 1\npolicy: playback\n  retry↓: {}\n", triggers: true,
                    note: "a key indented deeper than its siblings; the parser notices at its ':'"),
            .canonical(replacing: "policy: playback", with: "policy: \"playback\"", triggers: false,
                       note: "quoted scalars are fine"),
        ])
}
