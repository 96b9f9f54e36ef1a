import Testing
@testable import PolicySource
@testable import PolicyCheck
@testable import TestSupport

/// Policy text compares by Unicode scalars (its UTF-8 bytes) everywhere, as the server, JSON,
/// Kotlin and TypeScript compare it — never by Swift's canonical equivalence.
@Suite struct ExactTextTests {
    /// Pairs Swift's `==` calls equal whose scalars differ: a letter whose composition is excluded
    /// from NFC, composed and decomposed forms, singletons (Kelvin, Ångström, Ohm, the Greek
    /// question mark), and combining marks in two orders.
    static let equivalent: [(String, String)] = [
        ("\u{958}", "\u{915}\u{93C}"),
        ("\u{E9}", "e\u{301}"),
        ("\u{212A}", "K"),
        ("\u{212B}", "\u{C5}"),
        ("\u{212B}", "A\u{30A}"),
        ("\u{2126}", "\u{3A9}"),
        ("\u{37E}", ";"),
        ("a\u{301}\u{316}", "a\u{316}\u{301}"),
        ("not_ready\u{E9}", "not_readye\u{301}"),
    ]

    /// Look-alikes that no normalisation joins: Cyrillic a/e/o, a Latin small capital, a zero-width
    /// joiner.
    static let lookAlikes: [(String, String)] = [
        ("not_ready", "n\u{43E}t_ready"),
        ("network", "n\u{435}twork"),
        ("a", "\u{430}"),
        ("K", "\u{1D0B}"),
        ("code", "co\u{200D}de"),
    ]

    @Test func theComparisonsSeeBytes() {
        for (a, b) in Self.equivalent {
            #expect(a == b, "the pair must be one Swift calls equal: \(a.unicodeScalars.map(\.value))")
            #expect(!sameText(a, b))
            #expect(ExactText(a) != ExactText(b))
            #expect(Set([ExactText(a), ExactText(b)]).count == 2)
            #expect(JSON.string(a) != JSON.string(b))
            #expect(sameText(a, a) && sameText(b, b))
            #expect(ExactText(a) == ExactText(String(a.unicodeScalars)))
        }
        for (a, b) in Self.lookAlikes {
            #expect(!sameText(a, b))
        }
        // Past eight bytes (the wide comparison) and at each length around it.
        for n in 0..<40 {
            let s = String(repeating: "x", count: n)
            #expect(sameText(s, String(repeating: "x", count: n)))
            if n > 0 { #expect(!sameText(s, String(repeating: "x", count: n - 1) + "y")) }
            #expect(!sameText(s + "\u{E9}", s + "e\u{301}"))
        }
        var table: [ExactText: Int] = [:]
        for (i, (a, b)) in Self.equivalent.enumerated() {
            table[ExactText(a)] = 2 * i
            table[ExactText(b)] = 2 * i + 1
        }
        #expect(table.count == 2 * Self.equivalent.count - 1) // "\u{212B}" appears in two pairs
    }

    /// The canonical policy with its `neverRetry` replaced by `items`.
    static func withNeverRetry(_ items: [(Int, String)]) -> [UInt8] {
        var text = Canonical.text
        let block = "  neverRetry:\n    - status: 503\n      code: not_ready\n"
        precondition(text.contains(block))
        let list = items.map { "    - {status: \($0.0), code: \"\($0.1)\"}\n" }.joined()
        text = text.replacing(block, with: "  neverRetry:\n    - status: 503\n      code: not_ready\n" + list)
        return Array(text.utf8)
    }

    static func messages(_ bytes: [UInt8]) -> [String] {
        Checker.check(bytes, path: "p.yaml").diagnostics.map { "\($0.rule) \($0.span.start.line):\($0.span.start.column) \($0.message)" }
    }

    @Test(arguments: equivalent + lookAlikes)
    func equivalentCodesAreTwoExceptions(_ pair: (String, String)) {
        // 503 not_ready is in the canonical policy already.
        let status = pair.0 == "not_ready" ? 502 : 503
        let found = Self.messages(Self.withNeverRetry([(status, pair.0), (status, pair.1)]))
        #expect(found.isEmpty, "\(found)")
        // The very same bytes twice are a repeat.
        let twice = Self.messages(Self.withNeverRetry([(502, pair.0), (502, pair.0)]))
        #expect(twice.count == 1 && twice.first?.contains("is listed twice in 'neverRetry'") == true, "\(twice)")
    }

    /// Past the scanned few, a list is hashed: the same answer there.
    @Test func longListsCompareByBytesToo() {
        var items: [(Int, String)] = (0..<20).map { (404, "gone\($0)") }
        for (i, (a, b)) in Self.equivalent.enumerated() { items += [(503, "\(i)\(a)"), (503, "\(i)\(b)")] }
        let found = Self.messages(Self.withNeverRetry(items))
        #expect(found.isEmpty, "\(found)")
        items.append((503, "0" + Self.equivalent[0].1))
        let repeated = Self.messages(Self.withNeverRetry(items))
        #expect(repeated.count == 1 && repeated.first?.contains("is listed twice") == true, "\(repeated)")
    }

    /// Keys: `K` and the Kelvin sign are two unknown keys, not a duplicate; in a short mapping
    /// (scanned) and a long one (hashed).
    @Test(arguments: [0, 20])
    func equivalentKeysAreNotDuplicates(extra: Int) {
        for (a, b) in Self.equivalent {
            let filler = (0..<extra).map { "  x\($0): 1\n" }.joined()
            let yaml = "prefetch:\n" + filler + "  \"\(a)\": 1\n  \"\(b)\": 2\n"
            let file = Checker.check(Array(yaml.utf8), path: "p.yaml")
            let rules = file.diagnostics.map(\.rule)
            #expect(!rules.contains("yaml-duplicate-key"), "\(file.diagnostics.map(\.message))")
            #expect(rules.count(where: { $0 == "unknown-key" }) == 2 + extra, "\(file.diagnostics.map(\.message))")
            // The same key twice is still a duplicate, with both positions.
            let twice = "prefetch:\n" + filler + "  \"\(a)\": 1\n  \"\(a)\": 2\n"
            let dup = Checker.check(Array(twice.utf8), path: "p.yaml").diagnostics.filter { $0.rule == "yaml-duplicate-key" }
            #expect(dup.count == 1 && dup.first?.span.start.line == extra + 3)
            #expect(dup.first?.related.first?.span.start.line == extra + 2)
        }
    }

    /// Profile names that Unicode joins are two profiles (each a bad name), not one repeated.
    @Test func equivalentProfileNamesAreTwoProfiles() {
        let text = Canonical.text.replacing("    background:\n", with: "    \"caf\u{E9}\":\n")
            .replacing("    interactive:\n", with: "    \"cafe\u{301}\":\n")
        let file = Checker.check(Array(text.utf8), path: "p.yaml")
        #expect(file.diagnostics.map(\.rule) == ["bad-name", "bad-name"], "\(file.diagnostics.map(\.message))")
        #expect(file.doc?.profiles.count == 2)
    }

    /// A key of the language is that key spelt exactly: a look-alike is an unknown key.
    @Test func keysAndChoicesMatchExactly() {
        let lookAlike = Canonical.text.replacing("  ahead: 2", with: "  \u{430}head: 2")
        let rules = Checker.check(Array(lookAlike.utf8), path: "p.yaml").diagnostics.map(\.rule)
        #expect(rules.contains("unknown-key"))
        let choice = Canonical.text.replacing("backoff: full-jitter", with: "backoff: full-jitt\u{435}r")
        let found = Checker.check(Array(choice.utf8), path: "p.yaml").diagnostics
        #expect(found.map(\.rule) == ["type-mismatch"], "\(found.map(\.message))")
        let network = Canonical.text.replacing("retryOn: [network,", with: "retryOn: [n\u{435}twork,")
        #expect(Checker.check(Array(network.utf8), path: "p.yaml").diagnostics.map(\.rule) == ["type-mismatch"])
    }

    /// A key of another mapping is that key spelt exactly: `reuseKey` written with the Kelvin sign
    /// under a profile is an unknown key, not `reuseKey` to move into 'tickets'; and the key
    /// spelt exactly there is.
    @Test func keysOfOtherMappingsMatchExactly() {
        func unknown(_ key: String) -> [String] {
            let text = Canonical.text.replacing("    background:\n", with: "    background:\n      \(key): [viewer]\n")
            return Checker.check(Array(text.utf8), path: "p.yaml").diagnostics.filter { $0.rule == "unknown-key" }.map(\.message)
        }
        let exact = unknown("reuseKey"), kelvin = unknown("reuse\u{212A}ey")
        #expect(exact.count == 1 && exact[0].contains("belongs in 'tickets'"), "\(exact)")
        #expect(kelvin.count == 1 && !kelvin[0].contains("belongs"), "\(kelvin)")
    }

    /// `reuseKey` written with the Kelvin sign in 'tickets': an unknown key whose help says which
    /// character is not the ASCII one, renamed by its fix to the key itself (Swift's `==` took it for
    /// the written key, so the fix was not offered), after which the file is clean; and no missing
    /// `reuseKey` besides, one mistake being one finding.
    @Test func aKelvinSignKeyIsRenamedToTheASCIIKey() throws {
        let text = Canonical.text.replacing("  reuseKey:", with: "  reuse\u{212A}ey:")
        let found = Checker.check(Array(text.utf8), path: "p.yaml").diagnostics
        #expect(found.map(\.rule) == ["unknown-key"], "\(found.map(\.message))")
        let finding = try #require(found.first)
        #expect(finding.help == "did you mean 'reuseKey'? (this one has U+212A KELVIN SIGN for 'K')")
        let fix = try #require(finding.fix)
        #expect(fix.description == "rename 'reuse\u{212A}ey' to 'reuseKey' (this one has U+212A KELVIN SIGN for 'K')")
        let fixed = Fixer.apply([fix], to: Array(text.utf8)).bytes
        #expect(fixed == Array(Canonical.text.utf8))
        #expect(Checker.check(fixed, path: "p.yaml").diagnostics.isEmpty)
    }

    /// A look-alike value or key is named by its characters in the help: otherwise the finding
    /// offers the very word it seems to show.
    @Test func helpNamesTheLookAlikeCharacters() {
        #expect(Suggest.didYouMean("episod\u{435}", "episode") == "did you mean 'episode'? (this one has U+0435 CYRILLIC SMALL LETTER IE for 'e')")
        #expect(Suggest.didYouMean("n\u{435}tw\u{43E}rk", "network")
            == "did you mean 'network'? (this one has U+0435 CYRILLIC SMALL LETTER IE for 'e' and U+043E CYRILLIC SMALL LETTER O for 'o')")
        // Each pair once; past three, how many more.
        #expect(Suggest.didYouMean("\u{435}\u{435}", "ee") == "did you mean 'ee'? (this one has U+0435 CYRILLIC SMALL LETTER IE for 'e')")
        #expect(Suggest.didYouMean("\u{430}\u{432}\u{441}\u{435}\u{43E}", "abceo").hasSuffix(
            "U+0441 CYRILLIC SMALL LETTER ES for 'c' and 2 more)"))
        // Only a look-alike: a misspelling, a different length or the same text has no note.
        for (written, meant) in [("reuseKex", "reuseKey"), ("episod\u{435}s", "episode"), ("ep\u{301}isode", "episode"),
                                 ("episode", "episode"), ("\u{435}pisodx", "episode")] {
            #expect(Suggest.didYouMean(written, meant) == "did you mean '\(meant)'?", "\(written)")
        }
        // Through lint: a choice, retryOn's network and a key.
        let choice = Canonical.text.replacing("backoff: full-jitter", with: "backoff: full-jitt\u{435}r")
        let network = Canonical.text.replacing("retryOn: [network,", with: "retryOn: [n\u{435}twork,")
        let key = Canonical.text.replacing("  ahead: 2", with: "  \u{430}head: 2")
        for text in [choice, network, key] {
            let helps = Checker.check(Array(text.utf8), path: "p.yaml").diagnostics.compactMap(\.help)
            #expect(helps.count == 1 && helps[0].contains("CYRILLIC SMALL LETTER"), "\(helps)")
        }
    }

    /// A character by its code, four digits at least, and its Unicode name where it has one.
    @Test func charactersAreDescribedByCodeAndName() {
        #expect(describeScalar("\u{212A}") == "U+212A KELVIN SIGN")
        #expect(describeScalar("\u{E9}") == "U+00E9 LATIN SMALL LETTER E WITH ACUTE")
        #expect(describeScalar("\u{1F600}") == "U+1F600 GRINNING FACE")
        #expect(describeScalar("\u{E000}") == "U+E000")
        // bad-name says which character is not ASCII.
        #expect(Values.nameProblem("interactiv\u{435}") == "it has U+0435 CYRILLIC SMALL LETTER IE, outside ASCII letters, digits and '-'")
    }

    /// not_ready with a look-alike letter is not the exception the guide asks for.
    @Test func notReadyIsThoseBytes() {
        let text = Canonical.text.replacing("code: not_ready", with: "code: n\u{43E}t_ready")
        let rules = Checker.check(Array(text.utf8), path: "p.yaml").diagnostics.map(\.rule)
        #expect(rules == ["not-ready-never-retried"])
    }
}
