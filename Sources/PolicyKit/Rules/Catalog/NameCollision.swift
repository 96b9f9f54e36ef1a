extension Rule {
    static let nameCollision = Rule(
        .nameCollision, .error,
        summary: "two profiles convert to one identifier, a profile takes a generated member's name, "
            + "or two files share a policy name",
        reference: nil,
        examples: [
            .canonical([("    interactive:", "    ticketPlay:"), ("    background:", "    ↓ticket-play:")], triggers: true,
                       note: "both become the Swift constant ticketPlay and the Kotlin constant TICKET_PLAY"),
            .canonical([("    interactive:", "    myURL:"), ("    background:", "    ↓my-url:")], triggers: true,
                       note: "different in Swift (myURL, myUrl) but both MY_URL in Kotlin"),
            .canonical(replacing: "    background:", with: "    ↓budget-ratio:", triggers: true,
                       note: "every generated policy already has a member budgetRatio"),
            .canonical(replacing: "    background:", with: "    ticket-play:", triggers: false,
                       note: "profiles with distinct identifiers"),
            .canonical(replacing: "    background:", with: "    budget:", triggers: false,
                       note: "close to a member's name is fine"),
        ],
        check: { doc, findings in
            // The first profile of each constant, by index: a name and its span in a table of
            // 50 000 profiles cost four times the memory.
            var swiftSeen = FirstByKey<Int32>(expecting: doc.profiles.count)
            var kotlinSeen = FirstByKey<Int32>(expecting: doc.profiles.count)
            for p in doc.profiles.indices {
                let name = doc.profiles[p].name
                // A name that bad-name reports is not an identifier at all: one mistake, one finding.
                guard Values.isName(name.value) else { continue }
                let camel = Naming.lowerCamel(name.value)
                let camelTaken = NameAdvice.taken(camel)
                guard NameAdvice.reservedIn(camelTaken) == nil else { continue }
                let swift = Naming.swiftProfile(name.value), kotlin = Naming.kotlinProfile(name.value)
                // Each constant looked up once (see `NameAdvice.takenTable`).
                let swiftTaken = swift == camel ? camelTaken : NameAdvice.taken(swift)
                let isSwiftMember = swiftTaken.contains(.swiftMember)
                let isKotlinMember = NameAdvice.taken(kotlin).contains(.kotlinMember)
                if isSwiftMember || isKotlinMember {
                    let members = [isSwiftMember ? "the Swift member \(swift)" : nil,
                                   isKotlinMember ? "the Kotlin member \(kotlin)" : nil]
                        .compactMap { $0 }
                    findings.add(at: name.span,
                                 "profile '\(name.value)' becomes \(Suggest.andList(members)), which every generated policy already declares",
                                 help: "rename the profile, e.g. '\(name.value)-profile'")
                } else if let firstIndex = swiftSeen[swift] ?? kotlinSeen[kotlin] {
                    let first = doc.profiles[Int(firstIndex)].name
                    var shared: [String] = []
                    if Naming.swiftProfile(first.value) == swift { shared.append("the Swift constant \(swift)") }
                    if Naming.kotlinProfile(first.value) == kotlin { shared.append("the Kotlin constant \(kotlin)") }
                    findings.add(at: name.span,
                                 "profiles '\(first.value)' and '\(name.value)' both become \(Suggest.andList(shared))",
                                 help: "rename one of the two profiles",
                                 related: [.init(file: "", span: first.span, message: "'\(first.value)' is here")])
                }
                // The last profile is compared with the others, but none comes after it to be
                // compared with it: a policy of one profile keeps nothing.
                if p < doc.profiles.count - 1 {
                    swiftSeen.keepFirst(swift, Int32(p))
                    kotlinSeen.keepFirst(kotlin, Int32(p))
                }
            }
        })
}
