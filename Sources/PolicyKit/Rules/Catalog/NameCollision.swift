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
            // The identifiers of a profile, or nil for a name that bad-name reports: it is not an
            // identifier at all (one mistake, one finding). TypeScript's constants are Kotlin's (a
            // test keeps it so): one name, one lookup, and Kotlin's stands for both languages.
            func identifiers(_ name: String) -> (swift: String, kotlin: String, taken: (swift: NameAdvice.Taken, kotlin: NameAdvice.Taken))? {
                guard Values.isName(name) else { return nil }
                let camel = Naming.lowerCamel(name)
                let camelTaken = NameAdvice.taken(camel)
                guard NameAdvice.reservedIn(camelTaken) == nil else { return nil }
                let swift = Naming.swiftProfile(name), kotlin = Naming.kotlinProfile(name)
                // Each constant looked up once (see `NameAdvice.takenTable`).
                return (swift, kotlin, (swift == camel ? camelTaken : NameAdvice.taken(swift), NameAdvice.taken(kotlin)))
            }
            let count = doc.profiles.count
            guard count > 0 else { return }
            // One pass makes each profile's identifiers; the profiles to report are met again.
            var swiftKeyed: [(key: String, index: Int32)] = [], kotlinKeyed: [(key: String, index: Int32)] = []
            var members: [Int32] = []
            if count > 1 {
                swiftKeyed.reserveCapacity(count)
                kotlinKeyed.reserveCapacity(count)
            }
            for p in doc.profiles.indices {
                guard let id = identifiers(doc.profiles[p].name.value) else { continue }
                if id.taken.swift.contains(.swiftMember) || id.taken.kotlin.contains(.kotlinMember)
                    || id.taken.kotlin.contains(.typeScriptMember) {
                    members.append(Int32(p))
                }
                if count > 1 {
                    swiftKeyed.append((id.swift, Int32(p)))
                    kotlinKeyed.append((id.kotlin, Int32(p)))
                }
            }
            // The first earlier profile of each constant, by index.
            let firstSwift = firstEarlier(count: count, swiftKeyed), firstKotlin = firstEarlier(count: count, kotlinKeyed)
            var nextMember = 0
            for p in doc.profiles.indices {
                let isMember = nextMember < members.count && members[nextMember] == Int32(p)
                if isMember { nextMember += 1 }
                guard isMember || firstSwift[p] != nil || firstKotlin[p] != nil,
                      let (swift, kotlin, taken) = identifiers(doc.profiles[p].name.value) else { continue }
                let name = doc.profiles[p].name
                if isMember {
                    let said = [taken.swift.contains(.swiftMember) ? "the Swift member \(swift)" : nil,
                                taken.kotlin.contains(.kotlinMember) ? "the Kotlin member \(kotlin)" : nil,
                                taken.kotlin.contains(.typeScriptMember) ? "the TypeScript member \(kotlin)" : nil]
                        .compactMap { $0 }
                    findings.add(at: name.span,
                                 "profile '\(name.value)' becomes \(Suggest.andList(said)), which every generated policy already declares",
                                 help: "rename the profile, e.g. '\(name.value)-profile'")
                } else if let firstIndex = firstSwift[p] ?? firstKotlin[p] {
                    let first = doc.profiles[Int(firstIndex)].name
                    var shared: [String] = []
                    if Naming.swiftProfile(first.value) == swift { shared.append("the Swift constant \(swift)") }
                    if Naming.kotlinProfile(first.value) == kotlin { shared.append("the Kotlin and TypeScript constant \(kotlin)") }
                    findings.add(at: name.span,
                                 "profiles '\(first.value)' and '\(name.value)' both become \(Suggest.andList(shared))",
                                 help: "rename one of the two profiles",
                                 related: [.init(file: "", span: first.span, message: "'\(first.value)' is here")])
                }
            }
        })
}
