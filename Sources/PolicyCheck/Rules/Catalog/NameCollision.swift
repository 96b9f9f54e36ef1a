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
            /// What two profiles with one identifier both become: made only for a reported finding.
            func shared(_ first: String, _ second: String) -> String {
                let swift = Naming.swiftProfile(second), kotlin = Naming.kotlinProfile(second)
                var shared: [String] = []
                if Naming.swiftProfile(first) == swift { shared.append("the Swift constant \(swift)") }
                if Naming.kotlinProfile(first) == kotlin { shared.append("the Kotlin and TypeScript constant \(kotlin)") }
                return Suggest.andList(shared)
            }
            let count = doc.profiles.count
            guard count > 0 else { return }
            // Folds first (see `NameFold`): only profiles whose fold another shares can share an
            // identifier, and only those whose fold a taken word has can take a member's name. For
            // the others no identifier is made.
            // Each profile as one integer: the top bits of its fold, then its index. Sorted as
            // plain integers, by radix (cheaper than sorting tuples by a closure); profiles of one
            // fold still end up side by side in index order, and a group of equal top bits that holds two folds is only a group
            // to compare.
            let indexBits = max(1, Int.bitWidth - (count - 1).leadingZeroBitCount)
            let indexMask: UInt64 = (1 << UInt64(indexBits)) - 1
            var folds: [UInt64] = []
            folds.reserveCapacity(count)
            // What takes each profile's Swift constant, with `unlooked` set while its Kotlin one is
            // still to look up: only where it is written anyway, to compare its group (not written
            // twice).
            var swiftTaken: [NameAdvice.Taken] = []
            for p in doc.profiles.indices {
                let name = doc.profiles[p].name.value
                guard let fold = NameFold.ofName(name) else { continue }
                if NameAdvice.mayBeTaken(fold: fold) {
                    // A name that is not an identifier at all (a reserved word: bad-name's finding,
                    // one mistake, one finding) shares none.
                    let swift = NameAdvice.takenConstants(name, swiftOnly: true).swift
                    guard NameAdvice.reservedIn(swift) == nil else { continue }
                    if swiftTaken.isEmpty { swiftTaken = Array(repeating: [], count: count) }
                    swiftTaken[p] = swift.union(.unlooked)
                }
                folds.append(fold & ~indexMask | UInt64(p))
            }
            let looked = swiftTaken
            @Sendable func unlooked(_ p: Int32) -> Bool { !looked.isEmpty && looked[Int(p)].contains(.unlooked) }
            /// What takes the constants of a profile whose Kotlin constant (SCREAMING_SNAKE) is
            /// `snake`, when that profile's constants may be taken. TypeScript's constants are
            /// Kotlin's (a test keeps it so): Kotlin's lookup stands for both languages.
            @Sendable func takenIfMember(_ p: Int32, snake: () -> UnsafeBufferPointer<UInt8>) -> (swift: NameAdvice.Taken, kotlin: NameAdvice.Taken)? {
                guard unlooked(p) else { return nil }
                let swift = looked[Int(p)].subtracting(.unlooked), kotlin = NameAdvice.taken(snake())
                let member = swift.contains(.swiftMember) || kotlin.contains(.kotlinMember) || kotlin.contains(.typeScriptMember)
                return member ? (swift, kotlin) : nil
            }
            // Profiles whose constant a generated member already has, with what takes them.
            var members: [(index: Int32, taken: (swift: NameAdvice.Taken, kotlin: NameAdvice.Taken))] = []
            var isMember = Set<Int32>()
            folds.radixSort()
            func index(_ k: Int) -> Int32 { Int32(truncatingIfNeeded: folds[k] & indexMask) }
            func group(_ k: Int) -> UInt64 { folds[k] & ~indexMask }
            // Group by group of one fold (one identifier is never in two), each profile's first
            // earlier profile with its Swift constant, else with its Kotlin one. No identifier is
            // kept per profile: tables of every profile's identifiers would be megabytes.
            var collisions: [(index: Int32, first: Int32)] = []
            // A small group's identifiers as bytes, one after another: its Swift constant, then
            // its Kotlin one. No String is made for them (two a profile would cost more than the
            // comparison on profiles that all collide).
            let bytes = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: 16 * 2 * 2 * Values.maxNameLength)
            defer { bytes.deallocate() }
            var bounds: [(start: Int, middle: Int, end: Int)] = []
            var run = 0
            for k in folds.indices where k + 1 == folds.count || group(k + 1) != group(run) {
                defer { run = k + 1 }
                // A group's members are found before its collisions: a member's finding is its only one.
                func report(_ g: Int, _ first: Int?) {
                    let p = index(run + g)
                    if let first, !isMember.contains(p) { collisions.append((p, index(run + first))) }
                }
                guard k > run else {
                    let p = index(run)
                    guard unlooked(p) else { continue }
                    var name = doc.profiles[Int(p)].name.value
                    let taken = name.withUTF8 { name in
                        takenIfMember(p) {
                            UnsafeBufferPointer(rebasing: bytes[..<ASCIIName.write(name, .screamingSnake, to: bytes, at: 0)])
                        }
                    }
                    if let taken { members.append((p, taken)) }
                    continue
                }
                if k - run < 16 {
                    bounds.removeAll(keepingCapacity: true)
                    var end = 0
                    for f in run...k {
                        // `Values.isName` names are ASCII, of at most `maxNameLength` bytes:
                        // `ASCIIName` writes their identifiers, each at most twice as long.
                        var name = doc.profiles[Int(index(f))].name.value
                        name.withUTF8 { name in
                            let start = end
                            let middle = ASCIIName.write(name, .lowerCamel, to: bytes, at: start)
                            end = ASCIIName.write(name, .screamingSnake, to: bytes, at: middle)
                            bounds.append((start, middle, end))
                        }
                    }
                    func same(_ x: Range<Int>, _ y: Range<Int>) -> Bool {
                        x.count == y.count && bytes[x].elementsEqual(bytes[y])
                    }
                    for g in bounds.indices {
                        let p = index(run + g), id = bounds[g]
                        if let taken = takenIfMember(p, snake: { UnsafeBufferPointer(rebasing: bytes[id.middle..<id.end]) }) {
                            members.append((p, taken))
                            isMember.insert(p)
                        }
                    }
                    for g in bounds.indices {
                        let id = bounds[g]
                        let first = bounds[..<g].firstIndex { same($0.start..<$0.middle, id.start..<id.middle) }
                            ?? bounds[..<g].firstIndex { same($0.middle..<$0.end, id.middle..<id.end) }
                        report(g, first)
                    }
                } else {
                    // A large group (an attacker's): each language's identifiers written one after
                    // another, then the first earlier of each by its bytes' hash (`firstEarlier`).
                    var room = 0
                    for f in run...k { room += 2 * doc.profiles[Int(index(f))].name.value.utf8.count }
                    let size = room, first = run, last = k, profiles = doc.profiles, sorted = folds
                    typealias Firsts = (firsts: [Int32?], members: [(index: Int32, taken: (swift: NameAdvice.Taken, kotlin: NameAdvice.Taken))])
                    /// The firsts of one kind of identifier and, with SCREAMING_SNAKE, the members.
                    func firsts(_ kind: ASCIIName.Kind) -> Firsts {
                        let written = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(1, size))
                        defer { written.deallocate() }
                        var ends: [Int32] = []
                        ends.reserveCapacity(last - first + 1)
                        var members: [(index: Int32, taken: (swift: NameAdvice.Taken, kotlin: NameAdvice.Taken))] = []
                        var end = 0
                        for f in first...last {
                            let p = Int32(truncatingIfNeeded: sorted[f] & indexMask), start = end
                            var name = profiles[Int(p)].name.value
                            name.withUTF8 { end = ASCIIName.write($0, kind, to: written, at: end) }
                            ends.append(Int32(end))
                            if kind == .screamingSnake,
                               let taken = takenIfMember(p, snake: { UnsafeBufferPointer(rebasing: written[start..<end]) }) {
                                members.append((p, taken))
                            }
                        }
                        return (firstEarlier(UnsafeBufferPointer(written), ends: ends), members)
                    }
                    // A Swift constant of a name without dashes is the name itself, and the names of
                    // one mapping are distinct (the loader drops a repeated key): without a dash in
                    // the group, no two share a Swift constant, and only Kotlin's are compared.
                    let anyDash = (first...last).contains { f in
                        var name = profiles[Int(sorted[f] & indexMask)].name.value
                        return name.withUTF8 { Bytes8.contains($0, 0x2D) }
                    }
                    let swiftFirst = anyDash ? firsts(.lowerCamel).firsts : [Int32?](repeating: nil, count: last - first + 1)
                    let (kotlinFirst, groupMembers) = firsts(.screamingSnake)
                    members += groupMembers
                    isMember.formUnion(groupMembers.lazy.map(\.index))
                    for g in swiftFirst.indices { report(g, (swiftFirst[g] ?? kotlinFirst[g]).map(Int.init)) }
                }
            }
            /// What a member's constants are taken by, in words: made only for a reported finding.
            func said(_ name: String, _ taken: (swift: NameAdvice.Taken, kotlin: NameAdvice.Taken)) -> String {
                let swift = Naming.swiftProfile(name), kotlin = Naming.kotlinProfile(name)
                return Suggest.andList([taken.swift.contains(.swiftMember) ? "the Swift member \(swift)" : nil,
                                        taken.kotlin.contains(.kotlinMember) ? "the Kotlin member \(kotlin)" : nil,
                                        taken.kotlin.contains(.typeScriptMember) ? "the TypeScript member \(kotlin)" : nil]
                    .compactMap { $0 })
            }
            // Found group by group, reported in the order of the profiles.
            members.sort { $0.index < $1.index }
            for (p, taken) in members {
                let name = doc.profiles[Int(p)].name
                findings.add(at: name.span,
                             "profile '\(name.value)' becomes \(said(name.value, taken)), which every generated policy already declares",
                             help: "rename the profile, e.g. '\(name.value)-profile'")
            }
            for (p, firstIndex) in collisions {
                let name = doc.profiles[Int(p)].name, first = doc.profiles[Int(firstIndex)].name
                findings.add(at: name.span,
                             "profiles '\(first.value)' and '\(name.value)' both become \(shared(first.value, name.value))",
                             help: "rename one of the two profiles",
                             related: [.init(file: "", span: first.span, message: "'\(first.value)' is here")])
            }
        })
}
