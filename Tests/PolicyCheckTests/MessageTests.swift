import Testing
@testable import PolicySource
@testable import PolicyCheck
@testable import TestSupport

/// Issue 16, items 7 to 11: messages that say what to do, once, and fixes that do it in one round.
@Suite struct MessageTests {
    func check(_ text: String) -> CheckedFile { Checker.check(Array(text.utf8), path: "p.yaml") }

    func canonical(_ edits: [(String, String)]) -> String {
        var text = Canonical.text
        for (old, new) in edits {
            #expect(text.contains(old), "no '\(old)' in the canonical policy")
            text = text.replacingFirst(old, with: new)
        }
        return text
    }

    func only(_ file: CheckedFile, sourceLocation: SourceLocation = #_sourceLocation) throws -> Diagnostic {
        #expect(file.diagnostics.count == 1, "\(file.diagnostics.map(\.headline))", sourceLocation: sourceLocation)
        return try #require(file.diagnostics.first, sourceLocation: sourceLocation)
    }

    // MARK: 7

    @Test func aTabThatIndentsIsNamedAtTheTab() throws {
        let d = try only(check(canonical([("    honor: true", "\thonor: true")])))
        #expect(d.rule == "yaml-syntax")
        #expect(d.span.start == Mark(line: 27, column: 1))
        #expect(d.message == "a tab indents this line; YAML indents with spaces only")
        #expect(!d.message.contains("cannot start any token"))
    }

    @Test func aKeyUnderTheWrongParentSaysWhereItBelongsOnce() throws {
        let text = canonical([("    maxJitter: 1s\n  budget:\n    ratio: 10%\n    minPerMinute: 10\n",
                               "    maxJitter: 1s\n    budget:\n      ratio: 10%\n      minPerMinute: 10\n")])
        let d = try only(check(text))
        #expect(d.rule == "unknown-key")
        #expect(d.span.start == Mark(line: 29, column: 5))
        #expect(d.message == "key 'budget' belongs in 'retry', not in 'retryAfter'")
        #expect(d.help == "move it one level out, to line up with 'retryAfter'")
        // Too little indentation: `ratio` written in retry belongs in its budget.
        let shallow = check(canonical([("    ratio: 10%\n", ""), ("  budget:\n", "  ratio: 10%\n  budget:\n")]))
        let misplaced = try #require(shallow.diagnostics.first { $0.rule == "unknown-key" })
        #expect(misplaced.message == "key 'ratio' belongs in 'retry.budget', not in 'retry'")
        #expect(misplaced.help == "move it into 'retry.budget'")
        // A profile key at the top level belongs in a profile.
        let top = check(canonical([("prefetch:\n", "timeout: 8s\nprefetch:\n")]))
        #expect(try only(top).message == "key 'timeout' belongs in a profile, not in the policy")
    }

    // MARK: 8

    @Test func aListWrittenAsOneTextGetsTheListAsHelpAndFix() throws {
        var d = try only(check(canonical([("reuseKey: [viewer, device, episode, intent]", "reuseKey: viewer, device, episode, intent")])))
        #expect(d.message == "'reuseKey' must be a list, found 'viewer, device, episode, intent'")
        #expect(d.help == "write [viewer, device, episode, intent]")
        #expect(d.fix?.safety == .safe)
        #expect(d.fix?.edits == [TextEdit(d.span, "[viewer, device, episode, intent]")])

        d = try only(check(canonical([("retryOn: [network, 429, 500, 502, 503]", "retryOn: network, 429")])))
        #expect(d.help == "write [network, 429]")
        #expect(d.fix?.safety == .safe)
        // A part that is no item: the list is still the likely meaning, but not certain.
        d = try only(check(canonical([("reuseKey: [viewer, device, episode, intent]", "reuseKey: viewer, devise, episode, intent")])))
        #expect(d.help == "write [viewer, devise, episode, intent]")
        #expect(d.fix?.safety == .unsafe)
        // Repeated parts are no certain list either.
        d = try only(check(canonical([("retryOn: [network, 429, 500, 502, 503]", "retryOn: 429, 429")])))
        #expect(d.fix?.safety == .unsafe)
    }

    // MARK: 9

    @Test func aKeyBuiltOnAKnownOneIsTakenForItOnce() throws {
        let d = try only(check(canonical([("  retryOn: [", "  retryOnStatus: [")])))
        #expect(d.rule == "unknown-key")
        #expect(d.help == "did you mean 'retryOn'?")
        #expect(d.fix?.edits == [TextEdit(d.span, "retryOn")])
        #expect(d.fix?.safety == .unsafe)
        // By prefix and by containment; a key already written is no candidate.
        #expect(Suggest.byParts("retryOnStatus", in: Language.retry.map(\.key)) == "retryOn")
        #expect(Suggest.byParts("timeoutMs", in: Language.profile.map(\.key)) == "timeout")
        #expect(Suggest.byParts("jitter", in: ["honor", "maxJitter"]) == "maxJitter")
        #expect(Suggest.byParts("retry", in: ["retryOn", "retryAfter"]) == nil)
        #expect(Suggest.byParts("xy", in: ["xyz"]) == nil)
        let written = check(canonical([("  retryOn: [network, 429, 500, 502, 503]\n", "  retryOn: [network, 429, 500, 502, 503]\n  retryOnStatus: [404]\n")]))
        #expect(try only(written).help == "the keys of 'retry' are profiles, retryOn, neverRetry, backoff, retryAfter and budget")
    }

    /// A key too far from every key by length to be a typo, the same as one once separators and
    /// case are dropped, is that key written another way.
    @Test func aKeySpelledWithSeparatorsIsTakenForTheKey() throws {
        let d = try only(check(canonical([("  retryOn: [", "  r_e_t_r_y_o_n: [")])))
        #expect(d.rule == "unknown-key")
        #expect(d.help == "did you mean 'retryOn'?")
        #expect(Suggest.nearest("M-A-X R-E-T-R-I-E-S", in: Language.profile.map(\.key)) == "maxRetries")
        #expect(Suggest.nearest("m a x r e t r i e s x", in: Language.profile.map(\.key)) == nil)
    }

    // MARK: 10

    @Test func wordingOfBooleansViewerRefVersionAndTitles() throws {
        var d = try only(check(canonical([("honor: true", "honor: TRUE")])))
        #expect(d.message == "'honor' must be true or false: 'TRUE' is a capitalised boolean; policyc accepts only true and false")
        #expect(d.fix?.safety == .safe)

        d = try only(check(canonical([("viewerRef: per-viewer-device", "viewerRef: per_session")])))
        #expect(d.help == "write per-viewer-device, the only value the guide allows")
        #expect(!(d.help ?? "").contains("per-session"))

        d = try only(check(canonical([("version: 1", "version: 2")])))
        #expect(d.message == "version 2 of the policy language is not supported; this policyc reads version 1")
        #expect(d.help == "upgrade policyc to read version 2 policies")
        d = try only(check(canonical([("version: 1", "version: 0")])))
        #expect(d.help == "write version: 1")

        d = try only(check(canonical([("      code: not_ready\n", "      code: not_ready\n    - code: gone\n")])))
        #expect(d.message == "an item of 'neverRetry' lacks the required key 'status' (HTTP status)")
        d = try only(check(canonical([("    minPerMinute: 10\n", "")])))
        #expect(d.message == "'budget' lacks the required key 'minPerMinute' (retry budget floor)")
    }

    // MARK: 11

    @Test func aMissingSectionTakesOneRound() throws {
        let tickets = "tickets:\n  reuseKey: [viewer, device, episode, intent]\n  stopReuseBefore: 5m       # stop reusing a ticket 5 minutes before expires_at\n  viewerRef: per-viewer-device\n"
        let text = canonical([(tickets, "")])
        let d = try only(check(text))
        #expect(d.rule == "missing-key")
        #expect(d.help == "add it as the canonical policy has it:\n" + tickets.dropLast())
        #expect(d.fix?.safety == .unsafe)
        let fixed = Fixer.fix(Array(text.utf8), path: "p.yaml", unsafe: true)
        #expect(fixed.file.diagnostics.isEmpty, "\(fixed.file.diagnostics.map(\.headline))")
        #expect(fixed.applied.count == 1)
        // A top-level section is set off by a blank line, as the canonical policy writes them
        // (the two blank lines that the removal left at the end stay).
        #expect(String(decoding: fixed.bytes, as: UTF8.self) == Canonical.text + "\n")

        // A section without a value gets the canonical one the same way.
        let empty = canonical([(tickets, "tickets:\n")])
        let e = try only(check(empty))
        #expect(e.message == "'tickets' has no value; it must be a mapping")
        #expect(e.help == "for example, as the canonical policy has it:\n" + tickets.dropLast())
        #expect(String(decoding: Fixer.fix(Array(empty.utf8), path: "p.yaml", unsafe: true).bytes, as: UTF8.self) == Canonical.text)

        // A scalar: one line.
        let m = try only(check(canonical([("      timeout: 8s           # per attempt\n", "")])))
        #expect(m.help == "add 'timeout: 8s'")
    }

    /// A profile that takes a generated member's name says which member in which languages: all
    /// three, Kotlin and TypeScript only, TypeScript only.
    @Test func aProfileThatTakesAMemberSaysWhichMembers() {
        let text = "version: 1\npolicy: p\nretry:\n  profiles:\n"
            + ["budget-ratio", "policyNAME", "profile-kinds"].map { "    \($0): {kind: interactive}\n" }.joined()
        let messages = Checker.check(Array(text.utf8), path: "p.yaml").diagnostics.filter { $0.rule == "name-collision" }.map(\.message)
        #expect(messages == [
            "profile 'budget-ratio' becomes the Swift member budgetRatio, the Kotlin member BUDGET_RATIO and the TypeScript member BUDGET_RATIO, which every generated policy already declares",
            "profile 'policyNAME' becomes the Kotlin member POLICY_NAME and the TypeScript member POLICY_NAME, which every generated policy already declares",
            "profile 'profile-kinds' becomes the TypeScript member PROFILE_KINDS, which every generated policy already declares",
        ])
    }
}

/// A message shows at most `excerptLimit` scalars of a value, key or name from the policy: a
/// value of 1 MiB made a message (and a line of output) of 1 MiB.
@Suite struct ExcerptTests {
    @Test func aLongTextIsCutAfterTheLimitInScalars() {
        #expect(excerpt("short") == "short")
        let atLimit = String(repeating: "é", count: excerptLimit)
        #expect(excerpt(atLimit) == atLimit)
        #expect(excerpt(atLimit + "x") == atLimit + "…")
        #expect(excerpt(String(repeating: "a", count: excerptLimit + 1)) == String(repeating: "a", count: excerptLimit) + "…")
        // Made printable after the cut: an escape counts as the one scalar it stands for.
        let escaped = excerpt(String(repeating: "\u{1B}", count: excerptLimit + 5))
        #expect(escaped == String(repeating: "\\u{1B}", count: excerptLimit) + "…")
    }

    /// Each place a value reaches a message, with a value of 50,000 repeats: the canonical text
    /// with `replacing` written as `before`, the repeats, then `after`.
    @Test(arguments: [
        ("kind: background      # a sync job", "kind: ", "B", "", "'kind' is 'BBBB"),
        ("base: 1s", "base: ", "1", "", "'base' must be a duration: '1111"),
        ("maxRetries: 5", "maxRetries: ", "9", "", "'maxRetries' must be an integer"),
        ("ratio: 10%", "ratio: ", "1", "", "'ratio' must be a percent: '1111"),
        ("honor: true", "honor: ", "t", "", "'honor' must be true or false: 'tttt"),
        ("viewerRef: per-viewer-device", "viewerRef: ", "v", "", "'viewerRef' is 'vvvv"),
        ("retryOn: [network, 429, 500, 502, 503]", "retryOn: [network, ", "n", "]", "an item of 'retryOn' is 'nnnn"),
        ("policy: playback", "policy: ", "P", "", "policy name 'PPPP"),
        ("    background:", "    ? ", "b_", "\n    :", "profile name 'b_b_"),
        ("prefetch:", "? ", "k", "\n: 1\nprefetch:", "unknown key 'kkkk"),
        ("reuseKey: [viewer, device, episode, intent]", "reuseKey: ", "r", "", "'reuseKey' must be a list, found 'rrrr"),
    ])
    func aLongValueIsShownCut(_ replacing: String, _ before: String, _ repeated: String, _ after: String,
                              _ message: String) throws {
        let long = before + String(repeating: repeated, count: 50_000) + after
        let text = Canonical.text.replacingFirst(replacing, with: long)
        let file = Checker.check(Array(text.utf8), path: "p.yaml")
        let found = try #require(file.diagnostics.first { $0.message.hasPrefix(message) }, "\(file.diagnostics.map(\.message))")
        #expect(found.message.contains("…"))
        #expect(found.message.unicodeScalars.count < 400, "\(found.message.prefix(200))")
        #expect((found.help ?? "").unicodeScalars.count < 400)
        for d in file.diagnostics { #expect(d.message.utf8.count + (d.help ?? "").utf8.count < 2000, "\(d.message.prefix(200))") }
    }
}
