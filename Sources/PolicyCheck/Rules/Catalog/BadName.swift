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
                } else if let language = NameAdvice.reservedIn(name.value) {
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

/// Shared by `bad-name` and `name-collision`: what makes a name unusable, and a usable one to offer.
enum NameAdvice {
    /// What an identifier is already taken by in generated code.
    struct Taken: OptionSet {
        let rawValue: UInt8
        init(rawValue: UInt8) { self.rawValue = rawValue }
        static let swiftKeyword = Taken(rawValue: 1)
        static let kotlinKeyword = Taken(rawValue: 2)
        static let swiftMember = Taken(rawValue: 4)
        static let kotlinMember = Taken(rawValue: 8)
        static let typeScriptMember = Taken(rawValue: 16)
        /// Not a word's: `name-collision`'s mark on a Swift constant's lookup whose profile's
        /// Kotlin constant is still to look up.
        static let unlooked = Taken(rawValue: 128)
    }

    /// Naming's keyword and member sets as one table: an identifier is looked up once, where a
    /// lookup in each set was much of the cost of checking a policy's names. TypeScript's reserved
    /// words are not in it: a profile's TypeScript constant is SCREAMING_SNAKE, never one of them.
    static let takenTable: [String: Taken] = {
        var table: [String: Taken] = [:]
        for (words, taken) in [(Naming.swiftKeywords, Taken.swiftKeyword), (Naming.kotlinKeywords, .kotlinKeyword),
                               (Naming.swiftMembers, .swiftMember), (Naming.kotlinMembers, .kotlinMember),
                               (Naming.typeScriptMembers, .typeScriptMember)] {
            for word in words { table[word, default: []].insert(taken) }
        }
        return table
    }()

    static func taken(_ identifier: String) -> Taken { takenTable[identifier] ?? [] }

    /// `takenTable` by an identifier's bytes: a name's constants are looked up without making a
    /// String of them (making Strings and looking each up was a large share of linting a file of
    /// names of one taken word's fold).
    private static let takenByBytes = TakenWords(takenTable)

    static func taken(_ identifier: UnsafeBufferPointer<UInt8>) -> Taken { takenByBytes.taken(identifier) }

    /// The taken words by a hash of their bytes that needs no seed (the keys are the language's
    /// words, which no file chooses; a file's identifier only looks one up), in a `HashIndex`;
    /// the words' bytes one after another.
    private struct TakenWords {
        private var index = HashIndex()
        private var ends: [Int] = []
        private var bytes: [UInt8] = []
        private var taken: [Taken] = []

        init(_ table: [String: Taken]) {
            for (word, taken) in table {
                index.insert(hash: Array(word.utf8).withUnsafeBufferPointer(Self.hash), index: ends.count)
                bytes += word.utf8
                ends.append(bytes.count)
                self.taken.append(taken)
            }
        }

        func taken(_ identifier: UnsafeBufferPointer<UInt8>) -> Taken {
            let found = index.find(hash: Self.hash(identifier)) { w in
                let start = w == 0 ? 0 : ends[w - 1]
                return ends[w] - start == identifier.count && bytes[start..<ends[w]].elementsEqual(identifier)
            }
            return found.map { taken[$0] } ?? []
        }

        /// FNV-1a, 64 bits.
        static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
            var hash: UInt64 = 0xCBF2_9CE4_8422_2325
            for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3 }
            return hash
        }
    }

    /// What the constants of the valid name `name` are taken by: its Swift constant (lowerCamel)
    /// and, unless `swiftOnly`, its Kotlin and TypeScript one (SCREAMING_SNAKE), as `taken` of
    /// `Naming.swiftProfile` and `Naming.kotlinProfile` says, each written as bytes (see
    /// `takenByBytes`). A name without dashes is its own lowerCamel constant.
    static func takenConstants(_ name: String, swiftOnly: Bool = false) -> (swift: Taken, kotlin: Taken) {
        var name = name
        return name.withUTF8 { b in
            guard ASCIIName.isASCIIName(b) else {
                return (taken(Naming.swiftProfile(String(decoding: b, as: UTF8.self))),
                        swiftOnly ? [] : taken(Naming.kotlinProfile(String(decoding: b, as: UTF8.self))))
            }
            let hasDash = b.contains(0x2D)
            if swiftOnly && !hasDash { return (taken(b), []) }
            return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 2 * b.count + 1) { out in
                var swift = Taken()
                if hasDash {
                    let camel = ASCIIName.write(b, .lowerCamel, to: out, at: 0)
                    // A name of dashes only has no parts: its constant is the name (`Naming.lowerCamel`).
                    swift = camel == 0 ? taken(b) : taken(UnsafeBufferPointer(rebasing: out[..<camel]))
                } else {
                    swift = taken(b)
                }
                guard !swiftOnly else { return (swift, []) }
                let snake = ASCIIName.write(b, .screamingSnake, to: out, at: 0)
                return (swift, taken(UnsafeBufferPointer(rebasing: out[..<snake])))
            }
        }
    }

    /// The folds of every word in `takenTable`: a valid name whose fold is not among them makes
    /// no taken identifier in any language, and is passed without making one.
    static let takenFolds = NameFold.Filter(takenTable.keys)

    /// Whether a valid name's identifiers may be taken; false is certain, true needs a lookup.
    static func mayBeTaken(fold: UInt64) -> Bool { takenFolds.mayContain(fold) }

    /// The language whose reserved word the constant of a profile with the valid name `name`
    /// would be, if any (every caller has checked `Values.isName`).
    static func reservedIn(_ name: String) -> String? {
        guard mayBeTaken(fold: NameFold.of(name)) else { return nil }
        return reservedIn(takenConstants(name, swiftOnly: true).swift)
    }

    /// `reservedIn` for what the profile's constant (its lowerCamel form) is taken by.
    static func reservedIn(_ taken: Taken) -> String? {
        switch (taken.contains(.swiftKeyword), taken.contains(.kotlinKeyword)) {
        case (true, true): return "Swift and Kotlin"
        case (true, false): return "Swift"
        case (false, true): return "Kotlin"
        default: return nil
        }
    }

    static func isUsable(_ name: String, isProfile: Bool) -> Bool {
        Values.isName(name) && (!isProfile || reservedIn(name) == nil)
    }

    /// `Ios_Player` → `ios-player`; a reserved `default` → `default-profile`. Nil when nothing sensible.
    static func suggestion(for name: String, isProfile: Bool) -> String? {
        // The suggestion keeps the name's ASCII letters and digits: with more than a name may
        // have it would be refused below, and building it scalar by scalar is slow for many long
        // profile names. The words are read from the bytes, to one letter past the limit: every
        // other byte (a scalar past ASCII is all such bytes) ends a word, so a very long name is
        // not read by scalars.
        var name = name
        let words: [String]? = name.withUTF8 { b in
            var words: [String] = [], start = -1, kept = 0
            for i in 0...b.count {
                let inWord = i < b.count && (Values.isLower(b[i]) || Values.isUpper(b[i]) || Values.isDigit(b[i]))
                if inWord {
                    kept += 1
                    if kept > Values.maxNameLength { return nil }
                    if start < 0 { start = i }
                } else if start >= 0 {
                    words.append(String(decoding: UnsafeBufferPointer(rebasing: b[start..<i]), as: UTF8.self))
                    start = -1
                }
            }
            return words
        }
        guard let words else { return nil }
        guard var first = words.first else { return nil }
        first = first.prefix(1).lowercased() + first.dropFirst()
        var candidate = ([first] + words.dropFirst().map { $0.lowercased() }).joined(separator: "-")
        // Shortening a name is the author's choice, not ours.
        guard candidate.scalarCount <= Values.maxNameLength else { return nil }
        if isProfile && Values.isName(candidate) && reservedIn(candidate) != nil { candidate += "-profile" }
        return isUsable(candidate, isProfile: isProfile) && !sameText(candidate, name) ? candidate : nil
    }

    static func help(for name: String, isProfile: Bool) -> String {
        if let s = suggestion(for: name, isProfile: isProfile) { return "write '\(s)'" }
        if name.utf8.count > Values.maxNameLength, name.scalarCount > Values.maxNameLength {
            return "shorten it to at most \(Values.maxNameLength) characters"
        }
        return "names look like playback, ios-player or ticketPlay: a lowercase letter, then letters and digits, with single '-' between words"
    }
}
