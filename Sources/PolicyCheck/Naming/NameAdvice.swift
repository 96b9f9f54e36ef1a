import PolicySource

/// Shared by `bad-name` and `name-collision`: what makes a name unusable, and a usable one to offer.
enum NameAdvice {
    /// What an identifier is already taken by in generated code.
    struct Taken: OptionSet {
        let rawValue: UInt8
        static let swiftKeyword = Taken(rawValue: 1)
        static let kotlinKeyword = Taken(rawValue: 2)
        static let swiftMember = Taken(rawValue: 4)
        static let kotlinMember = Taken(rawValue: 8)
        static let typeScriptMember = Taken(rawValue: 16)

        /// A member every generated file already declares, in any language.
        var isMember: Bool { !isDisjoint(with: [.swiftMember, .kotlinMember, .typeScriptMember]) }
    }

    /// Naming's keyword and member sets as one table. TypeScript's reserved words are not in it: a
    /// profile's TypeScript constant is SCREAMING_SNAKE, never one of them.
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

    /// The language whose reserved word the constant of a profile with the valid name `name`
    /// would be, if any (every caller has checked `Values.isName`).
    static func reservedIn(_ name: String) -> String? {
        reservedIn(taken(Naming.swiftProfile(name)))
    }

    /// `reservedIn` of the languages generated: a Swift keyword is no matter when no Swift is
    /// generated, nor a Kotlin one without Kotlin.
    static func reservedIn(_ name: String, targets: Set<CodeTarget>) -> String? {
        var taken = taken(Naming.swiftProfile(name))
        if !targets.contains(.swift) { taken.remove(.swiftKeyword) }
        if !targets.contains(.kotlin) { taken.remove(.kotlinKeyword) }
        return reservedIn(taken)
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
        // The suggestion keeps the name's ASCII letters and digits, as words: more than a name may
        // have would be refused below, so a very long name is read no further than that.
        var words: [[UInt8]] = [[]], kept = 0
        for b in name.utf8 {
            if Values.isLower(b) || Values.isUpper(b) || Values.isDigit(b) {
                kept += 1
                if kept > Values.maxNameLength { return nil }
                words[words.count - 1].append(b)
            } else if !words[words.count - 1].isEmpty {
                words.append([])
            }
        }
        let parts = words.filter { !$0.isEmpty }.map { String(decoding: $0, as: UTF8.self) }
        guard var first = parts.first else { return nil }
        first = first.prefix(1).lowercased() + first.dropFirst()
        var candidate = ([first] + parts.dropFirst().map { $0.lowercased() }).joined(separator: "-")
        // Shortening a name is the author's choice, not ours.
        guard candidate.utf8.count <= Values.maxNameLength else { return nil }
        if isProfile && Values.isName(candidate) && reservedIn(candidate) != nil { candidate += "-profile" }
        return isUsable(candidate, isProfile: isProfile) && !sameText(candidate, name) ? candidate : nil
    }

    static func help(for name: String, isProfile: Bool) -> String {
        if let s = suggestion(for: name, isProfile: isProfile) { return "write '\(s)'" }
        if name.utf8.count > Values.maxNameLength, name.unicodeScalars.count > Values.maxNameLength {
            return "shorten it to at most \(Values.maxNameLength) characters"
        }
        return "names look like playback, ios-player or ticketPlay: a lowercase letter, then letters and digits, with single '-' between words"
    }
}
