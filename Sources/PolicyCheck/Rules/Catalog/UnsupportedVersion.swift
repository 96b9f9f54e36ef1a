import PolicySource

extension RuleID {
    public static let unsupportedVersion: RuleID = "unsupported-version"
}

extension Rule {
    static let unsupportedVersion = Rule(
        .unsupportedVersion, .error,
        summary: "version is not 1 (then nothing else of the file is checked)",
        reference: nil,
        examples: [
            .canonical(replacing: "version: 1", with: "version: ↓2", triggers: true,
                       note: "a later version of the language"),
            .canonical([("version: 1", "version: ↓0"), ("  backoff: full-jitter\n", "  backoff: full-jitter\n  hedge: 2\n")],
                       triggers: true, note: "another version may have other keys, so none are reported"),
            .canonical(replacing: "version: 1", with: "version: 1", triggers: false, note: "version 1"),
            .canonical(replacing: "version: 1", with: "version: \"1\"", triggers: false,
                       note: "a quoted version is a type mismatch, not another version", alsoFinds: [.typeMismatch],
                       fixed: "version: 1"),
        ],
        check: { doc, findings in
            guard let version = doc.version, version.value != Language.version else { return }
            // A later version is written by a later policyc: this one is too old, not the file wrong.
            findings.add(at: version.span,
                         "version \(version.value) of the policy language is not supported; this policyc reads version \(Language.version)",
                         help: version.value > Language.version
                            ? "upgrade policyc to read version \(version.value) policies"
                            : "write version: \(Language.version)")
        })
}
