import PolicySource

extension RuleID {
    public static let nameCollision: RuleID = "name-collision"
}

extension Rule {
    static let nameCollision = Rule(
        .nameCollision, .error,
        summary: "two profiles convert to one identifier, a profile takes a generated member's name, "
            + "or two files share a policy name",
        reference: nil,
        examples: [
            .canonical([("    interactive:", "    ticketPlay:"), ("    background:", "    ↓ticket-play:")], triggers: true,
                       note: "both become the Swift constant ticketPlay and the Kotlin and TypeScript constant TICKET_PLAY"),
            .canonical([("    interactive:", "    myURL:"), ("    background:", "    ↓my-url:")], triggers: true,
                       note: "different in Swift (myURL, myUrl) but both MY_URL in Kotlin and TypeScript"),
            .canonical(replacing: "    background:", with: "    ↓budget-ratio:", triggers: true,
                       note: "every generated policy already has a member budgetRatio"),
            .canonical(replacing: "    background:", with: "    ↓policyNAME:", triggers: true,
                       note: "the Kotlin and TypeScript constant POLICY_NAME is taken (Swift has policyName, not policyNAME)"),
            .canonical(replacing: "    background:", with: "    ↓profile-kinds:", triggers: true,
                       note: "a member of the TypeScript module only: PROFILE_KINDS"),
            .canonical(replacing: "    background:", with: "    ticket-play:", triggers: false,
                       note: "profiles with distinct identifiers"),
            .canonical(replacing: "    background:", with: "    budget:", triggers: false,
                       note: "close to a member's name is fine"),
        ],
        check: { doc, findings in
            // Who has each Swift constant, and each Kotlin (and TypeScript) one: a word generated
            // code already has, else the first profile that became it.
            var swiftOwners = NameOwner.swiftWords, kotlinOwners = NameOwner.kotlinWords
            swiftOwners.reserveCapacity(swiftOwners.count + doc.profiles.count)
            kotlinOwners.reserveCapacity(kotlinOwners.count + doc.profiles.count)
            for (p, profile) in doc.profiles.enumerated() {
                let name = profile.name
                guard Values.isName(name.value) else { continue }
                let swift = Naming.swiftProfile(name.value), kotlin = Naming.kotlinProfile(name.value)
                let swiftOwner = swiftOwners.firstValue(for: swift, else: .profile(p))
                // A reserved word is bad-name's finding (one mistake, one finding): it shares nothing.
                if case .word(let taken) = swiftOwner, NameAdvice.reservedIn(taken) != nil { continue }
                let kotlinOwner = kotlinOwners.firstValue(for: kotlin, else: .profile(p))
                let members = (swift: swiftOwner.members, kotlin: kotlinOwner.members)
                if !members.swift.isEmpty || !members.kotlin.isEmpty {
                    findings.add(at: name.span,
                                 "profile '\(name.value)' becomes \(declared(swift, kotlin, members)), which every generated policy already declares",
                                 help: "rename the profile, e.g. '\(name.value)-profile'")
                } else if let earlier = swiftOwner.profile(before: p) ?? kotlinOwner.profile(before: p) {
                    let first = doc.profiles[earlier].name
                    findings.add(at: name.span,
                                 "profiles '\(first.value)' and '\(name.value)' both become \(shared(first.value, swift, kotlin))",
                                 help: "rename one of the two profiles",
                                 related: [.init(file: "", span: first.span, message: "'\(first.value)' is here")])
                }
            }
        })

    /// The members a profile's constants would redeclare, in words.
    private static func declared(_ swift: String, _ kotlin: String, _ taken: (swift: NameAdvice.Taken, kotlin: NameAdvice.Taken)) -> String {
        Wording.list([taken.swift.contains(.swiftMember) ? "the Swift member \(swift)" : nil,
                         taken.kotlin.contains(.kotlinMember) ? "the Kotlin member \(kotlin)" : nil,
                         taken.kotlin.contains(.typeScriptMember) ? "the TypeScript member \(kotlin)" : nil].compactMap { $0 })
    }

    /// What a profile shares with the earlier profile `first`, in words.
    private static func shared(_ first: String, _ swift: String, _ kotlin: String) -> String {
        Wording.list([Naming.swiftProfile(first) == swift ? "the Swift constant \(swift)" : nil,
                         Naming.kotlinProfile(first) == kotlin ? "the Kotlin and TypeScript constant \(kotlin)" : nil].compactMap { $0 })
    }
}

/// Who has an identifier in generated code: a keyword or member, or the first profile that became it.
private enum NameOwner {
    case word(NameAdvice.Taken)
    case profile(Int)

    /// The language's words, as `NameAdvice.takenTable` has them, for Swift constants (keywords
    /// and Swift members) and for Kotlin and TypeScript ones (their members).
    static let swiftWords = NameAdvice.takenTable.compactMapValues { taken -> NameOwner? in
        let own = taken.intersection([.swiftKeyword, .kotlinKeyword, .swiftMember])
        return own.isEmpty ? nil : .word(own)
    }
    static let kotlinWords = NameAdvice.takenTable.compactMapValues { taken -> NameOwner? in
        let own = taken.intersection([.kotlinMember, .typeScriptMember])
        return own.isEmpty ? nil : .word(own)
    }

    var members: NameAdvice.Taken {
        if case .word(let taken) = self { return taken.intersection([.swiftMember, .kotlinMember, .typeScriptMember]) }
        return []
    }

    /// The profile that became the identifier, when it came before profile `p`.
    func profile(before p: Int) -> Int? {
        if case .profile(let first) = self, first != p { return first }
        return nil
    }
}
