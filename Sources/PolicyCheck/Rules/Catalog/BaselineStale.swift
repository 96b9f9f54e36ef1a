import PolicySource

extension RuleID {
    public static let baselineStale: RuleID = "baseline-stale"
}

extension Rule {
    static let baselineStale = Rule(
        .baselineStale, .warning,
        summary: "an entry of the baseline for the policy (reported at its name) (lint --baseline FILE) holds a finding no longer found; lint --fix removes it from the baseline file",
        reference: nil,
        examples: [
            Example.baselined(Canonical.text.replacingFirst("policy: playback", with: "policy: ↓playback"), triggers: true,
                              note: "the policy was fixed: the baseline's entry for 4 retries holds nothing"),
            Example.baselined(Canonical.text.replacingFirst("maxRetries: 3", with: "maxRetries: 4"), triggers: false,
                              note: "the recorded finding is still there (a note), whatever lines moved",
                              alsoFinds: [.interactiveRetriesMax]),
        ])
}

extension Example {
    /// `text` checked with a baseline that holds four interactive retries of policy playback.
    static func baselined(_ text: String, triggers: Bool, note: String, alsoFinds: [RuleID] = []) -> Example {
        var example = Example(text, triggers: triggers, note: note, alsoFinds: alsoFinds)
        example.options.baseline = Baseline(file: "policyc-baseline.json", entries: [
            Baseline.Entry(policy: "playback", rule: "interactive-retries-max", at: "retry.profiles.interactive.maxRetries", value: "4"),
        ])
        return example
    }
}
