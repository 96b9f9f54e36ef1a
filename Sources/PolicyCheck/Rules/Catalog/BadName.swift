import PolicySource

extension RuleID {
    public static let badName: RuleID = "bad-name"
}

extension Rule {
    static let badName = Rule(
        .badName, .error,
        summary: "a policy or profile name breaks the name pattern, or a profile name is a reserved word "
            + "in Swift or Kotlin once converted",
        reference: nil,
        examples: [
            .canonical(replacing: "policy: playback", with: "policy: ↓Playback", triggers: true,
                       note: "a name starts with a lowercase letter"),
            .canonical(replacing: "policy: playback", with: "policy: ↓ios_player", triggers: true,
                       note: "words are joined by '-' or camelCase, not '_'"),
            .canonical(replacing: "policy: playback", with: "policy: ↓p" + String(repeating: "x", count: 64),
                       triggers: true, note: "a name of 65 characters"),
            .canonical(replacing: "    background:", with: "    ↓default:", triggers: true,
                       note: "a profile whose constant would be the Swift keyword 'default'"),
            .canonical(replacing: "    background:", with: "    ↓object:", triggers: true,
                       note: "a Kotlin keyword"),
            .canonical(replacing: "    background:", with: "    ↓will-set:", triggers: true,
                       note: "a name that becomes a keyword once converted: willSet"),
            .canonical(replacing: "    background:", with: "    ↓sync-Job:", triggers: true,
                       note: "after a '-' only lowercase letters and digits"),
            .canonical(replacing: "policy: playback", with: "policy: ios-player", triggers: false,
                       note: "dash-separated words"),
            .canonical(replacing: "policy: playback", with: "policy: ticketPlay", triggers: false,
                       note: "camelCase"),
            .canonical(replacing: "policy: playback", with: "policy: default", triggers: false,
                       note: "a policy's type always ends in Policy (DefaultPolicy), so keywords are fine there"),
            .canonical(replacing: "    background:", with: "    sync-job2:", triggers: false,
                       note: "a profile name with a dash and a digit"),
        ],
        check: { doc, findings in
            if let name = doc.policy, !Values.isName(name.value) {
                findings.add(at: name.span,
                             "policy name '\(excerpt(name.value))' is not a valid name: \(Values.nameProblem(name.value))",
                             help: NameAdvice.help(for: name.value, isProfile: false))
            }
            for profile in doc.profiles {
                let name = profile.name
                if !Values.isName(name.value) {
                    findings.add(at: name.span,
                                 "profile name '\(excerpt(name.value))' is not a valid name: \(Values.nameProblem(name.value))",
                                 help: NameAdvice.help(for: name.value, isProfile: true))
                } else if let language = NameAdvice.reservedIn(name.value, targets: findings.targets) {
                    let camel = Naming.lowerCamel(name.value)
                    findings.add(at: name.span,
                                 camel == name.value
                                    ? "profile name '\(name.value)' is a reserved word in \(language)"
                                    : "profile name '\(name.value)' becomes '\(camel)', a reserved word in \(language)",
                                 help: NameAdvice.help(for: name.value, isProfile: true))
                }
            }
        })
}
