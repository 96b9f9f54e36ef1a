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
            var swiftSeen = FirstByKey<Located<String>>()
            var kotlinSeen = FirstByKey<Located<String>>()
            for p in doc.profiles.indices {
                let name = doc.profiles[p].name
                // A name that bad-name reports is not an identifier at all: one mistake, one finding.
                guard Values.isName(name.value) else { continue }
                let camel = Naming.lowerCamel(name.value)
                let camelTaken = NameAdvice.taken(camel)
                guard NameAdvice.reservedIn(camelTaken) == nil else { continue }
                let swift = Naming.swiftProfile(name.value), kotlin = Naming.kotlinProfile(name.value)
                // TypeScript's constants are Kotlin's (a test keeps it so): one name, one lookup,
                // and `kotlinSeen` stands for both languages.
                let typeScript = kotlin
                // Each constant looked up once (see `NameAdvice.takenTable`).
                let swiftTaken = swift == camel ? camelTaken : NameAdvice.taken(swift)
                let isSwiftMember = swiftTaken.contains(.swiftMember)
                let kotlinTaken = NameAdvice.taken(kotlin)
                let isKotlinMember = kotlinTaken.contains(.kotlinMember)
                let isTypeScriptMember = kotlinTaken.contains(.typeScriptMember)
                if isSwiftMember || isKotlinMember || isTypeScriptMember {
                    let members = [isSwiftMember ? "the Swift member \(swift)" : nil,
                                   isKotlinMember ? "the Kotlin member \(kotlin)" : nil,
                                   isTypeScriptMember ? "the TypeScript member \(typeScript)" : nil]
                        .compactMap { $0 }
                    findings.add(at: name.span,
                                 "profile '\(name.value)' becomes \(Suggest.andList(members)), which every generated policy already declares",
                                 help: "rename the profile, e.g. '\(name.value)-profile'")
                } else if let first = swiftSeen[swift] ?? kotlinSeen[kotlin] {
                    var shared: [String] = []
                    if Naming.swiftProfile(first.value) == swift { shared.append("the Swift constant \(swift)") }
                    if Naming.kotlinProfile(first.value) == kotlin { shared.append("the Kotlin and TypeScript constant \(kotlin)") }
                    findings.add(at: name.span,
                                 "profiles '\(first.value)' and '\(name.value)' both become \(Suggest.andList(shared))",
                                 help: "rename one of the two profiles",
                                 related: [.init(file: "", span: first.span, message: "'\(first.value)' is here")])
                }
                // The last profile is compared with the others, but none comes after it to be
                // compared with it: a policy of one profile keeps nothing.
                if p < doc.profiles.count - 1 {
                    swiftSeen.keepFirst(swift, name)
                    kotlinSeen.keepFirst(kotlin, name)
                }
            }
        })
}
