import Testing
@testable import PolicySource
@testable import PolicyCheck
@testable import PolicyReport
@testable import PolicyCodegen
@testable import PolicySimulation
@testable import PolicyReview
@testable import PolicyEditor
@testable import TestSupport

/// Completion and hover, on policies as they are while being typed: `‸` marks the cursor.
@Suite struct EditorAssistTests {
    static let cursor = "‸"

    /// The text without the marker, and the cursor's byte offset.
    static func split(_ marked: String) -> (LineIndex, Int) {
        let range = marked.range(of: cursor)!
        let offset = marked[..<range.lowerBound].utf8.count
        return (LineIndex(marked.replacingFirst(cursor, with: "")), offset)
    }

    static func labels(_ marked: String) -> [String] {
        let (lines, offset) = split(marked)
        return Completion.items(lines: lines, offset: offset, markdown: true).map(\.label)
    }

    static func hover(_ marked: String, markdown: Bool = true) -> String? {
        let (lines, offset) = split(marked)
        let doc = Checker.check(lines.bytes, path: "p.yaml").doc
        return Hover.answer(lines: lines, offset: offset, doc: doc, markdown: markdown)?.text
    }

    static func canonical(_ old: String, _ new: String) -> String {
        let text = Canonical.text.replacingFirst(old, with: new)
        precondition(text != Canonical.text, "not in the canonical policy: \(old)")
        return text
    }

    // MARK: completion of keys

    @Test func keysAProfileLacks() {
        let text = Self.canonical("      timeout: 8s           # per attempt\n", "      ‸\n")
        #expect(Self.labels(text) == ["timeout"])
        let typing = Self.canonical("      timeout: 8s           # per attempt\n", "      ti‸\n")
        let (lines, offset) = Self.split(typing)
        let items = Completion.items(lines: lines, offset: offset, markdown: false)
        #expect(items.map(\.label) == ["timeout"])
        // The word typed so far is replaced, and a colon follows the key.
        #expect(items.first?.start == offset - 2 && items.first?.end == offset && items.first?.newText == "timeout: ")
    }

    @Test func keysAtTheRootAndInMappings() {
        #expect(Self.labels(Self.canonical("description: Ticket requests made by the iOS and Android players.\n", "‸\n")) == ["description", "extends", "abstract", "waivers"])
        #expect(Self.labels(Self.canonical("    minPerMinute: 10\n", "    ‸\n")) == ["minPerMinute"])
        #expect(Self.labels(Self.canonical("  viewerRef: per-viewer-device\n", "  ‸\n")) == ["viewerRef"])
        // A new profile's keys, all of them, required ones in the language's order.
        let profile = Self.canonical("    background:\n", "    extra:\n      ‸\n    background:\n")
        #expect(Self.labels(profile) == ["kind", "maxRetries", "base", "cap", "timeout", "deadline"])
        // An empty file: the root keys.
        #expect(Self.labels("‸") == ["version", "policy", "description", "extends", "abstract", "retry", "prefetch", "tickets", "waivers"])
    }

    @Test func keysOfAListItemMapping() {
        let text = Self.canonical("    - status: 503\n      code: not_ready\n", "    - status: 503\n      ‸\n")
        #expect(Self.labels(text) == ["code"])
        let dash = Self.canonical("      code: not_ready\n", "      code: not_ready\n    - ‸\n")
        #expect(Self.labels(dash) == ["status", "code"])
    }

    // MARK: completion of values

    @Test func choicesOfValues() {
        #expect(Self.labels(Self.canonical("kind: interactive", "kind: ‸")) == ["interactive", "background"])
        #expect(Self.labels(Self.canonical("backoff: full-jitter", "backoff: ‸")).first == "full-jitter")
        let (lines, offset) = Self.split(Self.canonical("viewerRef: per-viewer-device", "viewerRef: per-‸"))
        let items = Completion.items(lines: lines, offset: offset, markdown: true)
        #expect(items.map(\.label) == ["per-viewer-device", "per-session", "user-id"])
        #expect(items.first?.preselect == true)
        // The whole word is replaced, dashes included (editors' words stop at a dash).
        #expect(items.first?.start == offset - 4)
        #expect(Self.labels(Self.canonical("honor: true", "honor: ‸")) == ["true", "false"])
        #expect(Self.labels(Self.canonical("version: 1", "version: ‸")) == ["1"])
        // Right after the colon, the value comes with its space.
        let (tight, at) = Self.split(Self.canonical("kind: interactive", "kind:‸"))
        #expect(Completion.items(lines: tight, offset: at, markdown: false).first?.newText == " interactive")
    }

    @Test func retryOnOffersWhatIsMissing() {
        #expect(Self.labels(Self.canonical("retryOn: [network, 429, 500, 502, 503]", "retryOn: [network, 429, ‸]")) == ["500", "502", "503"])
        #expect(Self.labels(Self.canonical("retryOn: [network, 429, 500, 502, 503]", "retryOn: [network, 5‸")) == ["429", "500", "502", "503"])
        let block = Self.canonical("retryOn: [network, 429, 500, 502, 503]", "retryOn:\n    - network\n    - 503\n    - ‸")
        #expect(Self.labels(block) == ["429", "500", "502"])
        #expect(Self.labels(Self.canonical("retryOn: [network, 429, 500, 502, 503]", "retryOn: ‸")) == ["[network, 429, 500, 502, 503]"])
        #expect(Self.labels(Self.canonical("reuseKey: [viewer, device, episode, intent]", "reuseKey: [viewer, device, ‸]")) == ["episode", "intent"])
    }

    @Test func nothingInCommentsAndUnknownPlaces() {
        #expect(Self.labels(Self.canonical("# a viewer is waiting", "# a viewer ‸is waiting")).isEmpty)
        #expect(Self.labels(Self.canonical("description: Ticket requests", "description: Ticket ‸requests")).isEmpty)
        #expect(Self.labels(Self.canonical("    maxJitter: 1s\n", "    maxJitter: 1s\n    unknown:\n      ‸\n")).isEmpty)
    }

    /// A line that breaks the YAML above the cursor does not stop completion.
    @Test func brokenTextAbove() {
        let text = Self.canonical("  retryOn: [network, 429, 500, 502, 503]\n", "  retryOn: [network, 429,\n  oops: \"unclosed\n")
            .replacingFirst("    minPerMinute: 10\n", with: "    ‸\n")
        #expect(Loader.load(Array(text.utf8)).root == nil)
        #expect(Self.labels(text) == ["minPerMinute"])
    }

    // MARK: hover

    /// A waiver's `rule:` shows the rule it waives, or why it cannot be waived.
    @Test func hoverOnAWaiversRule() throws {
        let waiver = "waivers:\n  - rule: interactive-retr‸ies-max\n    reason: r\n    owner: o\n    expires: 2027-01-01\n"
        let text = try #require(Self.hover(Canonical.text + waiver))
        #expect(text.contains("**`rule`** — Rule waived"), "\(text)")
        #expect(text.contains("`interactive-retries-max` (error): "), "\(text)")
        #expect(text.contains("At most 3 retries per interactive request"))
        let plain = try #require(Self.hover(Canonical.text + waiver, markdown: false))
        #expect(plain.contains("interactive-retries-max (error): "), "\(plain)")
        let language = try #require(Self.hover(Canonical.text + waiver.replacingFirst("interactive-retr‸ies-max", with: "unknown-k‸ey")))
        #expect(language.contains("cannot be waived (waiver-not-allowed)"), "\(language)")
        let typo = try #require(Self.hover(Canonical.text + waiver.replacingFirst("interactive-retr‸ies-max", with: "interactive-retries-m‸ix")))
        #expect(typo.contains("is not a rule of policyc") && typo.contains("did you mean 'interactive-retries-max'?"), "\(typo)")
    }

    @Test func hoverOnKeys() throws {
        let text = try #require(Self.hover(Self.canonical("maxRetries: 3", "maxRe‸tries: 3")))
        #expect(text.contains("Retries after the first attempt"))
        #expect(text.contains("interactive-retries-max"))
        #expect(text.contains("At most 3 retries per interactive request"))
        #expect(text.contains("plain decimal"))
        let ratio = try #require(Self.hover(Self.canonical("ratio: 10%", "ra‸tio: 10%")))
        #expect(ratio.contains("retry-budget-max") && ratio.contains("10 % of the requests"))
        let plain = try #require(Self.hover(Self.canonical("maxRetries: 3", "maxRe‸tries: 3"), markdown: false))
        #expect(!plain.contains("**") && !plain.contains("`") && plain.contains("interactive-retries-max"))
    }

    @Test func hoverOnValues() throws {
        #expect(try #require(Self.hover(Self.canonical("cap: 8s", "cap: 8‸s"))).contains("8000 ms"))
        #expect(try #require(Self.hover(Self.canonical("ratio: 10%", "ratio: 1‸0%"))).contains("ratio 0.1"))
        #expect(try #require(Self.hover(Self.canonical("stopReuseBefore: 5m", "stopReuseBefore: ‸5m"))).contains("300000 ms"))
        #expect(try #require(Self.hover(Self.canonical("cap: 8s", "cap: 8 s‸ec"))).contains("write 8s"))
        #expect(try #require(Self.hover(Self.canonical("retryOn: [network, 429", "retryOn: [network, 4‸29"))).contains("Too Many Requests"))
        #expect(try #require(Self.hover(Self.canonical("policy: playback", "policy: play‸back"))).contains("PlaybackPolicy"))
    }

    @Test func hoverOnAProfileShowsItsFigures() throws {
        let text = try #require(Self.hover(Self.canonical("    interactive:", "    inter‸active:")))
        let figures = ProfileFigures(maxRetries: 3, baseMs: 500, capMs: 8000, timeoutMs: 8000, deadlineMs: 15000)
        #expect(text.contains("Attempts at most: \(figures.attemptsMax)"))
        #expect(text.contains("`worstCaseWaitMs \(figures.worstCaseWaitMs)`"))
        #expect(text.contains("A viewer waits at most"))
    }

    /// Issue 39, item 2: hover's figures follow the policy's backoff strategy, as explain's do.
    @Test func hoverFiguresFollowTheBackoffStrategy() throws {
        let marked = Self.canonical("    interactive:", "    inter‸active:").replacingFirst("backoff: full-jitter", with: "backoff: constant")
        let text = try #require(Self.hover(marked))
        #expect(text.contains("Backoff in total at most: 1.5 s"), "\(text)")
        #expect(text.contains("`maxBackoffTotalMs 1500`"))
        #expect(text.contains("constant backoff does not grow"))
        let background = try #require(Self.hover(Self.canonical("    background:", "    back‸ground:")
            .replacingFirst("backoff: full-jitter", with: "backoff: constant")))
        #expect(background.contains("Worst-case wait: 95 s"), "\(background)")
    }

    /// While the text does not parse, hover reads its lines.
    @Test func hoverOnBrokenText() throws {
        let text = Self.canonical("      maxRetries: 3         # retries after the first attempt\n",
                                  "      maxRe‸tries: 3\n      ba\n")
        #expect(Loader.load(Array(text.replacingFirst(Self.cursor, with: "").utf8)).root == nil)
        #expect(try #require(Self.hover(text)).contains("interactive-retries-max"))
    }

    /// Any text, any offset, read as any kind of file: an answer or none, never a crash.
    @Test func randomTextsNeverCrash() {
        var rng = Rng(state: 7)
        let pieces = ["retry:", "\n", "  ", "- ", "profiles:", " x: ", "[", "]", "{", "}", ",", "\"", "'", "#", "|",
                      "kind: ", "retryOn: [", "😀", "é", "\r\n", "\u{2028}", ":", "    ", "neverRetry:", "status: 5",
                      "fleet:", "server:", "faults:", "busy:", "policies: [", "targets: ["]
        let kinds: [EditorFileKind] = [.policy, .scenario, .project]
        for i in 0..<450 {
            var text = ""
            for _ in 0..<rng.below(30) { text += rng.pick(pieces) }
            let lines = LineIndex(text)
            let kind = kinds[i % kinds.count]
            for offset in stride(from: 0, through: lines.bytes.count, by: 1) {
                _ = Completion.items(lines: lines, offset: offset, markdown: true, kind: kind)
                _ = Hover.answer(lines: lines, offset: offset, doc: nil, markdown: false, kind: kind)
            }
        }
    }

    /// A scenario's and the project file's own keys and values.
    @Test func otherKindsComplete() {
        func labels(_ text: String, _ kind: EditorFileKind) -> [String] {
            let offset = text.utf8.count - text.split(separator: "‸", omittingEmptySubsequences: false).last!.utf8.count - "‸".utf8.count
            let lines = LineIndex(text.replacingFirst("‸", with: ""))
            return Completion.items(lines: lines, offset: offset, markdown: false, kind: kind).map(\.label)
        }
        #expect(labels("version: 1\nscenario: x\nserver:\n  mode: ‸\n", .scenario) == ["shed", "queue"])
        #expect(labels("version: 1\nfaults:\n  - kind: outage\n    status: ‸\n", .scenario) == ["503", "none"])
        #expect(labels("version: 1\ntargets: [swift, ‸]\n", .project) == ["kotlin", "typescript", "schema"])
        // No policy key in a project file, and no not_ready outside a policy.
        #expect(labels("version: 1\n‸\n", .project).sorted() == ["baseline", "guide", "kotlinPackage", "kotlinPackageFolders", "limits", "out", "policies", "review", "rulesUrl", "targets", "verify", "waiverMaxDays"])
        let key = Hover.answer(lines: LineIndex("version: 1\nfleet:\n  clients: 3\n"), offset: 21, doc: nil, markdown: false,
                               kind: .scenario)?.text
        #expect(key?.contains("Devices") == true && key?.contains("Limit") == false)
    }
}
