import PolicySource

extension RuleID {
    public static let extendsParent: RuleID = "extends-parent"
}

extension Rule {
    static let extendsParent = Rule(
        .extendsParent, .error,
        summary: "a file named by extends is missing, unreadable, part of a cycle, not a valid policy file, "
            + "or past the limits (8 levels, 32 files); reported at the extends entry that names it",
        reference: nil,
        examples: [
            .canonical(replacing: "version: 1\n", with: "version: 1\nextends: ↓missing.yaml\n", triggers: true,
                       note: "a parent that cannot be read: reported where it is named, and left out"),
            Example("version: 1\npolicy: tv\nextends: base.yaml\nprefetch:\n  ahead: 1\n", triggers: false,
                    note: "a child that names its base (base.yaml, the canonical policy) and changes one value",
                    options: .withParents(["base.yaml": Canonical.text])),
        ])
}

extension CheckOptions {
    /// The example options with parent files given by their texts.
    static func withParents(_ files: [String: String]) -> CheckOptions {
        var options = CheckOptions.example
        options.parents = .texts(files)
        return options
    }
}
