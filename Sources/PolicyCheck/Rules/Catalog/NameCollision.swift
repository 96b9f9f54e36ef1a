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
            .canonical(replacing: "    background:", with: "    ↓prefetch-retry-refused:", triggers: true,
                       note: "the Kotlin and TypeScript constant PREFETCH_RETRY_REFUSED is taken (Swift has no such member)"),
            .canonical(replacing: "    background:", with: "    ↓profile-kinds:", triggers: true,
                       note: "a member of the TypeScript module only: PROFILE_KINDS"),
            .canonical(replacing: "    background:", with: "    ticket-play:", triggers: false,
                       note: "profiles with distinct identifiers"),
            .canonical(replacing: "    background:", with: "    budget:", triggers: false,
                       note: "close to a member's name is fine"),
        ],
        check: { doc, findings in
            // The first profile of each Swift constant and of each Kotlin (and TypeScript) one.
            var firstSwift: [String: Int] = [:], firstKotlin: [String: Int] = [:]
            for (p, profile) in doc.profiles.enumerated() {
                let name = profile.name
                guard Values.isName(name.value) else { continue }
                let swift = Naming.swiftProfile(name.value), kotlin = Naming.kotlinProfile(name.value)
                let taken = (swift: NameAdvice.taken(swift), kotlin: NameAdvice.taken(kotlin))
                // A reserved word is bad-name's finding (one mistake, one finding): it shares nothing.
                guard NameAdvice.reservedIn(taken.swift) == nil else { continue }
                let earlier = firstSwift[swift] ?? firstKotlin[kotlin]
                if firstSwift[swift] == nil { firstSwift[swift] = p }
                if firstKotlin[kotlin] == nil { firstKotlin[kotlin] = p }
                if taken.swift.isMember || taken.kotlin.isMember {
                    findings.add(at: name.span,
                                 "profile '\(name.value)' becomes \(declared(swift, kotlin, taken)), which every generated policy already declares",
                                 help: "rename the profile, e.g. '\(name.value)-profile'")
                } else if let earlier {
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
        Suggest.andList([taken.swift.contains(.swiftMember) ? "the Swift member \(swift)" : nil,
                         taken.kotlin.contains(.kotlinMember) ? "the Kotlin member \(kotlin)" : nil,
                         taken.kotlin.contains(.typeScriptMember) ? "the TypeScript member \(kotlin)" : nil].compactMap { $0 })
    }

    /// What a profile shares with the earlier profile `first`, in words.
    private static func shared(_ first: String, _ swift: String, _ kotlin: String) -> String {
        Suggest.andList([Naming.swiftProfile(first) == swift ? "the Swift constant \(swift)" : nil,
                         Naming.kotlinProfile(first) == kotlin ? "the Kotlin and TypeScript constant \(kotlin)" : nil].compactMap { $0 })
    }
}
