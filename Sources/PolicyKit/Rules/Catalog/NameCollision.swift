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
            func identifiers(_ name: String, fold: UInt64) -> (swift: String, kotlin: String, taken: (swift: NameAdvice.Taken, kotlin: NameAdvice.Taken))? {
                guard Values.isName(name) else { return nil }
                let swift = Naming.swiftProfile(name), kotlin = Naming.kotlinProfile(name)
                // A fold no taken word has: nothing to look up (see `NameFold`).
                guard NameAdvice.mayBeTaken(fold: fold) else { return (swift, kotlin, ([], [])) }
                let camel = Naming.lowerCamel(name)
                let camelTaken = NameAdvice.taken(camel)
                guard NameAdvice.reservedIn(camelTaken) == nil else { return nil }
                // Each constant looked up once (see `NameAdvice.takenTable`).
                return (swift, kotlin, (swift == camel ? camelTaken : NameAdvice.taken(swift), NameAdvice.taken(kotlin)))
            }
            /// What two profiles with one identifier both become: made only for a reported finding.
            func shared(_ first: String, _ second: String) -> String {
                let swift = Naming.swiftProfile(second), kotlin = Naming.kotlinProfile(second)
                var shared: [String] = []
                if Naming.swiftProfile(first) == swift { shared.append("the Swift constant \(swift)") }
                if Naming.kotlinProfile(first) == kotlin { shared.append("the Kotlin and TypeScript constant \(kotlin)") }
                return Suggest.andList(shared)
            }
            /// Sorts `keyed[start...]` by `keyThenIndex` in place: a group is most often two items
            /// already in order, where sorting a slice copied it (60 million instructions for 30 000).
            func sortGroup(_ keyed: inout [(key: String, index: Int32)], from start: Int) {
                guard keyed.count - start <= 16 else {
                    let sorted = keyed[start...].sorted(by: keyThenIndex)
                    keyed.replaceSubrange(start..., with: sorted)
                    return
                }
                for i in (start + 1)..<max(start + 1, keyed.count) {
                    var j = i
                    while j > start, keyThenIndex(keyed[j], keyed[j - 1]) {
                        keyed.swapAt(j, j - 1)
                        j -= 1
                    }
                }
            }
            let count = doc.profiles.count
            guard count > 0 else { return }
            // Folds first (see `NameFold`): only profiles whose fold another shares can share an
            // identifier, and only those whose fold a taken word has can take a member's name. For
            // the others no identifier is made, which was most of the cost of 50 000 profiles.
            var folds: [(fold: UInt64, index: Int32)] = []
            var members: [Int32] = []
            folds.reserveCapacity(count)
            for p in doc.profiles.indices {
                let name = doc.profiles[p].name.value
                guard Values.isName(name) else { continue }
                let fold = NameFold.of(name)
                folds.append((fold, Int32(p)))
                if NameAdvice.mayBeTaken(fold: fold), let id = identifiers(name, fold: fold),
                   id.taken.swift.contains(.swiftMember) || id.taken.kotlin.contains(.kotlinMember)
                    || id.taken.kotlin.contains(.typeScriptMember) {
                    members.append(Int32(p))
                }
            }
            folds.sort { $0.fold != $1.fold ? $0.fold < $1.fold : $0.index < $1.index }
            // The identifiers of the profiles that share a fold, group by group: one identifier is
            // never in two groups, so sorting each group alone puts each identifier's items together.
            var swiftKeyed: [(key: String, index: Int32)] = [], kotlinKeyed: [(key: String, index: Int32)] = []
            var run = 0
            for k in folds.indices where k + 1 == folds.count || folds[k + 1].fold != folds[run].fold {
                if k > run {
                    let start = swiftKeyed.count
                    for f in folds[run...k] {
                        guard let id = identifiers(doc.profiles[Int(f.index)].name.value, fold: f.fold) else { continue }
                        swiftKeyed.append((id.swift, f.index))
                        kotlinKeyed.append((id.kotlin, f.index))
                    }
                    sortGroup(&swiftKeyed, from: start)
                    sortGroup(&kotlinKeyed, from: start)
                }
                run = k + 1
            }
            // The first earlier profile of each constant, by index.
            let firstSwift = firstEarlier(count: count, grouped: swiftKeyed)
            let firstKotlin = firstEarlier(count: count, grouped: kotlinKeyed)
            var nextMember = 0
            for p in doc.profiles.indices {
                let isMember = nextMember < members.count && members[nextMember] == Int32(p)
                if isMember { nextMember += 1 }
                guard isMember || firstSwift[p] != nil || firstKotlin[p] != nil else { continue }
                let name = doc.profiles[p].name
                if isMember {
                    guard let (swift, kotlin, taken) = identifiers(name.value, fold: NameFold.of(name.value)) else { continue }
                    let said = [taken.swift.contains(.swiftMember) ? "the Swift member \(swift)" : nil,
                                taken.kotlin.contains(.kotlinMember) ? "the Kotlin member \(kotlin)" : nil,
                                taken.kotlin.contains(.typeScriptMember) ? "the TypeScript member \(kotlin)" : nil]
                        .compactMap { $0 }
                    findings.add(at: name.span,
                                 "profile '\(name.value)' becomes \(Suggest.andList(said)), which every generated policy already declares",
                                 help: "rename the profile, e.g. '\(name.value)-profile'")
                } else if let firstIndex = firstSwift[p] ?? firstKotlin[p] {
                    let first = doc.profiles[Int(firstIndex)].name
                    findings.add(at: name.span,
                                 "profiles '\(first.value)' and '\(name.value)' both become \(shared(first.value, name.value))",
                                 help: "rename one of the two profiles",
                                 related: [.init(file: "", span: first.span, message: "'\(first.value)' is here")])
                }
            }
        })
}
