import Testing
@testable import PolicySource
@testable import PolicyCheck
@testable import TestSupport

/// Schema-directed decoding: types come from the key a value stands under, and every mistake is
/// one finding at the value (or, for keys, at the key) with a fix to suggest.
@Suite struct DecoderTests {
    /// The canonical policy with edits, checked.
    func check(_ edits: [(String, String)]) -> CheckedFile {
        var text = Canonical.text
        for (old, new) in edits {
            #expect(text.contains(old), "no '\(old)' in the canonical policy")
            text = text.replacingFirst(old, with: new)
        }
        return Checker.check(Array(text.utf8), path: "p.yaml")
    }

    func check(_ old: String, _ new: String) -> CheckedFile { check([(old, new)]) }

    func only(_ file: CheckedFile, _ rule: RuleID, at line: Int, _ column: Int,
              sourceLocation: SourceLocation = #_sourceLocation) throws -> Diagnostic {
        #expect(file.diagnostics.count == 1, "\(file.diagnostics.map(\.headline))", sourceLocation: sourceLocation)
        let d = try #require(file.diagnostics.first, sourceLocation: sourceLocation)
        #expect(d.rule == rule, sourceLocation: sourceLocation)
        #expect(d.span.start == Mark(line: line, column: column), sourceLocation: sourceLocation)
        return d
    }

    @Test func scalarsAreTypedByTheirKey() throws {
        // `no`, `yes`, `1.0` under a string key are strings, never booleans or numbers.
        let file = check([("      code: not_ready\n", "      code: not_ready\n    - status: 500\n      code: no\n"),
                          ("description: Ticket requests made by the iOS and Android players.", "description: yes")])
        #expect(file.diagnostics.isEmpty, "\(file.diagnostics.map(\.headline))")
        let doc = try #require(file.doc)
        #expect(doc.description?.value == "yes")
        #expect(doc.neverRetry?.value.last?.code?.value == "no")
        #expect(doc.neverRetry?.value.last?.status?.value == 500)
        let policy = try #require(file.policy)
        #expect(policy.neverRetry.map(\.code) == ["not_ready", "no"])
    }

    @Test func theCanonicalValuesDecode() throws {
        let doc = try #require(Checker.check(Array(Canonical.text.utf8), path: "p.yaml").doc)
        #expect(doc.version?.value == 1)
        #expect(doc.policy?.value == "playback")
        #expect(doc.profiles.map(\.name.value) == ["interactive", "background"])
        #expect(doc.profiles.first?.base?.value == 500)
        #expect(doc.profiles.last?.deadline?.value == 120_000)
        #expect(doc.retryOn?.value.map(\.value) == [.network, .status(429), .status(500), .status(502), .status(503)])
        #expect(doc.retryAfterMaxJitter?.value == 1000)
        #expect(doc.budgetRatio?.value.ratio == 0.1)
        #expect(doc.stopReuseBefore?.value == 300_000)
        #expect(doc.reuseKey?.value.map(\.value) == [.viewer, .device, .episode, .intent])
        #expect(doc.retryOnComplete && doc.neverRetryComplete && doc.reuseKeyComplete)
        // Positions: `interactive:` is line 7, column 5; its maxRetries value line 9, column 19.
        #expect(doc.profiles.first?.name.span.start == Mark(line: 7, column: 5))
        #expect(doc.profiles.first?.maxRetries?.span.start == Mark(line: 9, column: 19))
    }

    @Test func yamlBooleansAreErrorsThatSaySo() throws {
        let d = try only(check("honor: true", "honor: yes"), .typeMismatch, at: 27, 12)
        #expect(d.message.contains("'yes'") && d.message.contains("YAML 1.1"))
        #expect(d.help == "write true")
        let off = try only(check("retryRefused: false", "retryRefused: off"), .typeMismatch, at: 36, 17)
        #expect(off.help == "write false")
        let quoted = try only(check("onlyUnlocked: true", "onlyUnlocked: \"true\""), .typeMismatch, at: 35, 17)
        #expect(quoted.help == "write true without quotes")
    }

    @Test func integersAreDecimalOnly() throws {
        var d = try only(check("maxRetries: 5", "maxRetries: 0x5"), .typeMismatch, at: 16, 19)
        #expect(d.help == "write 5")
        d = try only(check("minPerMinute: 10", "minPerMinute: \"10\""), .typeMismatch, at: 31, 19)
        #expect(d.help == "write 10 without quotes")
        d = try only(check("ahead: 2", "ahead: -1"), .typeMismatch, at: 34, 10)
        #expect(d.message.contains("0 or more"))
        d = try only(check("ahead: 2", "ahead: 2.0"), .typeMismatch, at: 34, 10)
        #expect(d.help == "write 2")
    }

    /// Counts stop where no policy needs more (retries and episodes ahead 100, the budget's floor
    /// 1000), with a clear finding past them: every figure made from them then fits an `Int`.
    @Test(arguments: [("maxRetries: 5", "maxRetries: 101", 16, 19, 100), ("minPerMinute: 10", "minPerMinute: 9999999999", 31, 19, 1000),
                      ("ahead: 2", "ahead: 2147483648", 34, 10, 100)])
    func countsHaveALargest(old: String, new: String, line: Int, column: Int, largest: Int) throws {
        let d = try only(check(old, new), .typeMismatch, at: line, column)
        #expect(d.message.hasSuffix("; it must be at most \(largest)"), "\(d.message)")
        #expect(check(old, String(new.prefix { $0 != ":" }) + ": \(largest)").diagnostics.allSatisfy { $0.rule != RuleID.typeMismatch })
    }

    @Test func statusesAreHTTPCodes() throws {
        var d = try only(check("retryOn: [network, 429, 500, 502, 503]", "retryOn: [network, 429, 500, 502, 503, 600]"),
                         .typeMismatch, at: 21, 42)
        #expect(d.message.contains("not an HTTP status code"))
        d = try only(check("retryOn: [network, 429", "retryOn: [Network, 429"), .typeMismatch, at: 21, 13)
        #expect(d.help == "did you mean 'network'?")
        d = try only(check("- status: 503", "- status: \"503\""), .typeMismatch, at: 23, 15)
        #expect(d.help == "write 503 without quotes")
    }

    @Test func durationsAndPercentsShowTheRightSpelling() throws {
        var d = try only(check("cap: 30s", "cap: 30"), .typeMismatch, at: 18, 12)
        #expect(d.help == "write 30ms or 30s")
        d = try only(check("ratio: 10%", "ratio: 10"), .typeMismatch, at: 30, 12)
        #expect(d.help == "write 10%")
        d = try only(check("stopReuseBefore: 5m", "stopReuseBefore: 5 minutes"), .typeMismatch, at: 40, 20)
        #expect(d.help == "write 5m")
    }

    @Test func choicesSuggestTheNearest() throws {
        var d = try only(check("kind: background", "kind: backgrund"), .typeMismatch, at: 15, 13)
        #expect(d.help == "did you mean 'background'?")
        d = try only(check("viewerRef: per-viewer-device", "viewerRef: per_viewer_device"), .typeMismatch, at: 41, 14)
        #expect(d.help == "did you mean 'per-viewer-device'?")
        // Help offers only what the guide's rules accept: equal-jitter would be an error too.
        d = try only(check("backoff: full-jitter", "backoff: fibonacci"), .typeMismatch, at: 25, 12)
        #expect(d.help == "write full-jitter, the only value the guide allows")
        d = try only(check("backoff: full-jitter", "backoff: exponental"), .typeMismatch, at: 25, 12)
        #expect(d.help == "write full-jitter, the only value the guide allows")
        d = try only(check("viewerRef: per-viewer-device", "viewerRef: per-sesion"), .typeMismatch, at: 41, 14)
        #expect(d.help == "write per-viewer-device, the only value the guide allows")
        #expect(d.fix?.edits == [TextEdit(d.span, "per-viewer-device")])
        d = try only(check("kind: background", "kind: sync"), .typeMismatch, at: 15, 13)
        #expect(d.help == "write one of interactive or background")
    }

    @Test func unknownKeysSuggestKeysValidAtThatSpot() throws {
        // A misspelled key is one mistake: the key it stands for is not also reported missing.
        var d = try only(check("      cap: 8s ", "      cpa: 8s "), .unknownKey, at: 11, 7)
        #expect(d.help == "did you mean 'cap'?")
        #expect(d.message == "unknown key 'cpa' in profile 'interactive'")
        // A key that suggests nothing leaves the missing one reported, at the mapping's key.
        let file = check("      cap: 8s ", "      ceiling: 8s ")
        #expect(file.diagnostics.map(\.rule) == ["missing-key", "unknown-key"])
        #expect(file.diagnostics.map(\.span.start) == [Mark(line: 7, column: 5), Mark(line: 11, column: 7)])

        d = try only(check("  ahead: 2", "  ahead: 2\n  aheadBy: 1"), .unknownKey, at: 35, 3)
        #expect(d.help == "did you mean 'ahead'?")
        // Only keys of that mapping are suggested: `timeout` lives in profiles, not in tickets.
        d = try only(check("  viewerRef: per-viewer-device\n", "  viewerRef: per-viewer-device\n  timeout: 5s\n"),
                     .unknownKey, at: 42, 3)
        #expect(d.message == "key 'timeout' belongs in a profile, not in 'tickets'")
        d = try only(check("  viewerRef: per-viewer-device\n", "  viewerRef: per-viewer-device\n  keeper: me\n"),
                     .unknownKey, at: 42, 3)
        #expect(d.help == "the keys of 'tickets' are reuseKey, stopReuseBefore and viewerRef")
        d = try only(check("      code: not_ready\n", "      code: not_ready\n      reason: later\n"), .unknownKey, at: 25, 7)
        #expect(d.message.contains("an item of 'neverRetry'"))
    }

    @Test func missingKeysPointAtTheMappingsKey() throws {
        var d = try only(check("  retryAfter:\n    honor: true\n    maxJitter: 1s\n", "  retryAfter:\n    maxJitter: 1s\n"),
                         .missingKey, at: 26, 3)
        #expect(d.message.contains("'honor'"))
        d = try only(check("prefetch:\n  ahead: 2                  # episodes N+1 and N+2 ride along with N in one request\n", "prefetch:\n"),
                     .missingKey, at: 33, 1)
        #expect(d.message.contains("'ahead'"))
        d = try only(check("version: 1\n", ""), .missingKey, at: 1, 1)
        #expect(d.help == "add 'version: 1'")
        // A list item has no key: the item itself.
        // Line 23: `    - status: 503`; the item starts at its first key, column 7.
        d = try only(check("      code: not_ready\n", ""), .missingKey, at: 23, 7)
        #expect(d.message.contains("'code'"))
    }

    @Test func nullsAndWrongShapesAreOneFinding() throws {
        var d = try only(check("    maxJitter: 1s\n", "    maxJitter:\n"), .typeMismatch, at: 28, 15)
        #expect(d.message.contains("no value"))
        // A whole section of the wrong shape: one finding, nothing about its keys.
        d = try only(check("prefetch:\n  ahead: 2                  # episodes N+1 and N+2 ride along with N in one request\n  onlyUnlocked: true\n  retryRefused: false\n",
                           "prefetch: [2]\n"), .typeMismatch, at: 33, 11)
        #expect(d.message.contains("must be a mapping"))
        d = try only(check("reuseKey: [viewer, device, episode, intent]", "reuseKey: viewer"), .typeMismatch, at: 39, 13)
        #expect(d.message.contains("must be a list"))
        let root = Checker.check(Array("- a\n- b\n".utf8), path: "p.yaml")
        #expect(root.diagnostics.map(\.rule) == ["type-mismatch"])
        #expect(root.diagnostics.first?.span.start == Mark(line: 1, column: 1))
    }

    @Test func emptyProfilesAreAMismatch() throws {
        let text = Canonical.text.replacingFirst("  profiles:\n", with: "  profiles: {}\n  old:\n")
        // `old:` takes the profiles' lines as its value: unknown key, and the profiles are empty.
        let file = Checker.check(Array(text.utf8), path: "p.yaml")
        #expect(file.diagnostics.map(\.rule).sorted() == ["type-mismatch", "unknown-key"])
        #expect(file.diagnostics.first { $0.rule == "type-mismatch" }?.message.contains("empty") == true)
    }

    @Test func repeatedListItemsPointAtTheRepeat() throws {
        let d = try only(check("reuseKey: [viewer, device, episode, intent]", "reuseKey: [viewer, device, episode, intent, device]"),
                         .typeMismatch, at: 39, 47)
        #expect(d.message.contains("line 39, column 22"))
        let pair = try only(check("      code: not_ready\n", "      code: not_ready\n    - {status: 503, code: not_ready}\n"),
                            .typeMismatch, at: 25, 7)
        #expect(pair.message.contains("listed twice"))
    }

    @Test func repeatsIgnoreKeyOrderAndLongListsStayLinear() throws {
        let reordered = check("      code: not_ready\n", "      code: not_ready\n    - {code: not_ready, status: 503}\n")
        #expect(reordered.diagnostics.map(\.rule) == ["type-mismatch"])
        // Thousands of distinct exceptions: each compared by a hash, not against all before it.
        let many = (0..<20_000).map { "    - {status: 500, code: c\($0)}\n" }.joined()
        let file = check("      code: not_ready\n", "      code: not_ready\n" + many)
        #expect(file.diagnostics.isEmpty)
        #expect(file.doc?.neverRetry?.value.count == 20_001)
        // Typed by its key, `code: 1` is the string "1": the same exception as `code: "1"`.
        let mixed = check("      code: not_ready\n", "      code: not_ready\n    - {status: 503, code: \"1\"}\n    - {status: 503, code: 1}\n")
        #expect(mixed.diagnostics.map(\.rule) == ["type-mismatch"])
    }

    @Test func listsWithItemsThatDidNotDecodeAreMarkedIncomplete() throws {
        var doc = try #require(check("retryOn: [network, 429, 500, 502, 503]", "retryOn: [network, 429, \"500\", 503]").doc)
        #expect(!doc.retryOnComplete)
        #expect(doc.retryOn?.value.count == 3)
        doc = try #require(check("reuseKey: [viewer, device, episode, intent]", "reuseKey: [viewer, devise, episode, intent]").doc)
        #expect(!doc.reuseKeyComplete)
        doc = try #require(check("  neverRetry:\n    - status: 503\n      code: not_ready\n", "  neverRetry: none\n").doc)
        #expect(doc.neverRetry == nil && !doc.neverRetryComplete)
        doc = try #require(check("  neverRetry:\n    - status: 503\n      code: not_ready\n", "").doc)
        #expect(doc.neverRetry == nil && doc.neverRetryComplete)
        doc = try #require(check("      code: not_ready\n", "").doc)
        #expect(doc.neverRetry?.value.count == 1 && !doc.neverRetryComplete)
    }

    @Test func unsupportedVersionSilencesTheRest() throws {
        let file = check([("version: 1", "version: 2"), ("  ahead: 2", "  ahead: 9\n  behind: 1"), ("honor: true", "honor: yes")])
        #expect(file.diagnostics.map(\.rule) == ["unsupported-version"])
        #expect(file.policy == nil)
    }

    @Test func findingsAreSortedAndAllReported() throws {
        let file = check([("maxRetries: 3", "maxRetries: 4"), ("timeout: 8s", "timeout: 4s"), ("ahead: 2", "ahead: 5"),
                          ("honor: true", "honor: yes"), ("viewerRef: per-viewer-device", "viewerRef: user-id")])
        #expect(file.diagnostics.map(\.rule) == ["interactive-retries-max", "timeout-min", "type-mismatch",
                                                 "prefetch-ahead-max", "viewer-ref-stable"])
        #expect(file.diagnostics.map(\.line) == [9, 12, 27, 34, 41])
        #expect(file.errorCount == 5 && file.policy == nil)
    }

    @Test func controlCharactersInEchoedKeysAndNamesAreNeutralised() throws {
        let file = check([("    background:", "    \"bg\\e]8;;\":"), ("timeout: 15s", "timeout: 1s"), ("ahead: 2", "ahead: 0x\\e")])
        #expect(!file.diagnostics.isEmpty)
        for d in file.diagnostics {
            #expect(!d.message.unicodeScalars.contains { $0.value == 0x1B }, "\(d.rule)")
        }
        let dup = Loader.load(Array("\"k\\e\": 1\n\"k\\e\": 2\n".utf8))
        #expect(dup.diagnostics.first?.message.contains("\\u{1B}") == true)
    }

    @Test func controlCharactersInEchoedValuesAreNeutralised() throws {
        let d = try only(check("kind: background", "kind: \"back\\e[31mground\""), .typeMismatch, at: 15, 13)
        #expect(!d.message.unicodeScalars.contains { $0.value == 0x1B })
        #expect(d.message.contains("\\u{1B}"))
    }

    /// A repeated list item names the first, in lists of every length.
    @Test(arguments: [2, 15, 16, 17, 40])
    func repeatedItemsInListsOfEveryLength(_ length: Int) {
        let statuses = (0..<length).map { 500 + $0 % 99 }
        var policy = Canonical.text
        let list = "[network, 429, " + statuses.map(String.init).joined(separator: ", ") + ", 429]"
        guard let start = policy.firstRange(of: "retryOn: ") else {
            Issue.record("no retryOn in the canonical policy")
            return
        }
        let lineEnd = policy[start.upperBound...].firstIndex(of: "\n") ?? policy.endIndex
        policy.replaceSubrange(start.upperBound..<lineEnd, with: list)
        let file = Checker.check(Array(policy.utf8), path: "p.yaml")
        let repeated = file.diagnostics.filter { $0.message.contains("is listed twice") }
        #expect(repeated.count == 1)
        #expect(repeated.first?.message.contains("'429' is listed twice in 'retryOn'") == true)
    }

    @Test func identitiesThatUnicodeJoinsAcrossPartsAreStillTwo() {
        // "\u{958}" normalises to two scalars, so to Swift's `==` the one code's identity reads as
        // the other pair's; by bytes they are two values, as they are to every other reader.
        let span = Span(.start)
        func pair(_ code: String, _ status: Int?) -> Decoded.Value {
            var entries = [DecodedEntry(key: "code", keySpan: span, value: Decoded(value: .string(code), span: span))]
            if let status {
                entries.append(DecodedEntry(key: "status", keySpan: span, value: Decoded(value: .integer(status), span: span)))
            }
            return .object(DecodedObject(entries))
        }
        let a = pair(String(repeating: "\u{958}", count: 5) + ",s6:status=i503", nil)
        let b = pair(String(repeating: "\u{915}\u{93C}", count: 5), 503)
        #expect(a.identity == b.identity)
        #expect(ExactText(a.identity) != ExactText(b.identity))
        #expect(ExactText(a.identity) == ExactText(a.identity))
    }
}
