extension Rule {
    static let typeMismatch = Rule(
        .typeMismatch, .error,
        summary: "a value of the wrong type: a bad duration, percent, integer or boolean spelling, "
            + "an unknown choice, or a repeated list item",
        reference: nil,
        examples: [
            .canonical(replacing: "honor: true", with: "honor: ↓yes", triggers: true,
                       note: "a YAML 1.1 boolean: write true"),
            .canonical(replacing: "timeout: 8s", with: "timeout: ↓8", triggers: true,
                       note: "a bare number: its unit would be a guess"),
            .canonical(replacing: "ratio: 10%", with: "ratio: ↓0.1", triggers: true,
                       note: "a ratio where a percent belongs: write 10%"),
            .canonical(replacing: "minPerMinute: 10", with: "minPerMinute: ↓1_0", triggers: true,
                       note: "digit separators: write 10"),
            .canonical(replacing: "backoff: full-jitter", with: "backoff: ↓full_jitter", triggers: true,
                       note: "not one of the choices: did you mean 'full-jitter'?"),
            .canonical(replacing: "retryOn: [network, 429, 500, 502, 503]",
                       with: "retryOn: [network, 429, 500, 502, 503, ↓429]", triggers: true,
                       note: "a status listed twice"),
            .canonical(replacing: "    - status: 503\n      code: not_ready\n",
                       with: "    - status: 503\n      code: not_ready\n    - status: 500\n      code: no\n",
                       triggers: false, note: "a code: no is the string \"no\": scalars are typed by their key"),
            .canonical(replacing: "description: Ticket requests made by the iOS and Android players.",
                       with: "description: 2024", triggers: false, note: "a description that looks like a number is text"),
        ])
}
