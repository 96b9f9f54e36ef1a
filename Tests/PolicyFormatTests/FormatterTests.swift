import Foundation
import Testing
@testable import PolicySource
@testable import PolicyCheck
@testable import PolicyFormat
@testable import TestSupport

/// The layout `policyc fmt` gives, on hand-written odd inputs: what it writes, that it writes the
/// same again, and that the file means the same.
@Suite struct FormatterTests {
    func format(_ text: String) -> String? {
        guard case .formatted(let out) = PolicyFormatter.format(Array(text.utf8)) else { return nil }
        return String(decoding: out, as: UTF8.self)
    }

    func refusal(_ text: String) -> PolicyFormatter.Refusal? {
        guard case .refused(let refusal) = PolicyFormatter.format(Array(text.utf8)) else { return nil }
        return refusal
    }

    @Test func indentationKeyOrderAndSpacing() {
        let input = """
            policy:    playback
            version: 1
            prefetch:
                retryRefused: false
                ahead:   2
                onlyUnlocked: true
            """
        #expect(format(input) == """
            version: 1
            policy: playback

            prefetch:
              ahead: 2
              onlyUnlocked: true
              retryRefused: false

            """)
    }

    @Test func commentsMoveWithTheirKeysAndTrailingOnesAlign() {
        let input = """
            # The iOS player's policy.

            policy: ios   # its name
            # the language's version
            version: 1
            tickets:
              viewerRef: per-viewer-device # stable
              stopReuseBefore: 5m  # margin
              # the key of a ticket
              reuseKey: [viewer,device ,  episode, intent]
              # end of tickets
            # end of file
            """
        #expect(format(input) == """
            # The iOS player's policy.

            # the language's version
            version: 1
            policy: ios                 # its name

            tickets:
              # the key of a ticket
              reuseKey: [viewer, device, episode, intent]
              stopReuseBefore: 5m           # margin
              viewerRef: per-viewer-device  # stable
              # end of tickets
            # end of file

            """)
    }

    @Test func quotesOnlyWhereNeeded() {
        let input = """
            version: 1
            policy: "playback"
            description: 'Ticket requests: iOS'
            retry:
              profiles:
                "interactive":
                  kind: "interactive"
                  maxRetries: "3"
                  base: '500ms'
              retryOn: [network, "429"]
              neverRetry:
                - {status: 503, code: "no"}
            unknown: "kept"
            """
        #expect(format(input) == """
            version: 1
            policy: playback
            description: 'Ticket requests: iOS'

            retry:
              profiles:
                interactive:
                  kind: interactive
                  maxRetries: "3"
                  base: 500ms
              retryOn: [network, "429"]
              neverRetry:
                - {status: 503, code: "no"}
            unknown: "kept"

            """)
    }

    @Test func crlfStaysCRLFAndBlockScalarsMoveWithTheirKey() {
        let input = "version: 1\r\ndescription: |\r\n      two\r\n        lines # not a comment\r\npolicy: p\r\n"
        #expect(format(input) == "version: 1\r\npolicy: p\r\ndescription: |\r\n  two\r\n    lines # not a comment\r\n")
    }

    @Test func unknownKeysStayAfterTheKnownOnesInTheirOrder() {
        let input = "zeta: 1\nversion: 1\nalpha:\n    b: 2\n    a: [1,2]\npolicy: p\n"
        #expect(format(input) == "version: 1\npolicy: p\nzeta: 1\n\nalpha:\n  b: 2\n  a: [1, 2]\n")
    }

    @Test func listsOfMappingsAndDocumentMarkers() {
        let input = """
            %YAML 1.1
            ---
            retry:
              neverRetry:
              -   code: not_ready   # the exception
                  status: 503
              - status: 500
                code: x
            ...
            # after the end
            """
        #expect(format(input) == """
            %YAML 1.1
            ---
            retry:
              neverRetry:
                - status: 503
                  code: not_ready       # the exception
                - status: 500
                  code: x
            ...
            # after the end

            """)
    }

    @Test func emptyAndCommentOnlyFiles() {
        #expect(format("") == "")
        #expect(format("\n\n") == "")
        #expect(format("# only a comment   \n\n\n# another") == "# only a comment\n\n# another\n")
        #expect(format("---\n") == "---\n")
        #expect(format("---\n# only a comment\n...\n") == "---\n# only a comment\n...\n")
        // A block scalar at the end without a line break has none in its text: kept so.
        #expect(format("policy: p\ndescription: |\n    text") == "policy: p\ndescription: |\n  text")
    }

    @Test func syntaxErrorsAndRefusedYAMLAreRefusedWithAPosition() throws {
        let syntax = try #require(refusal("version: 1\npolicy: [a, b\n"))
        #expect(syntax.line >= 2 && syntax.message.contains("yaml-syntax"))
        let tab = try #require(refusal("retry:\n\tbudget: 1\n"))
        #expect(tab.line == 2 && tab.column == 1)
        #expect(refusal("a: &x 1\nb: *x\n") != nil)
        #expect(refusal("a: 1\na: 2\n") != nil)
        #expect(refusal("a: 1\n---\nb: 2\n") != nil)
    }

    /// The canonical policy indented by `width` spaces a level (its list of mappings in flow style).
    static func reindented(_ width: Int) -> String {
        Canonical.text
            .replacingOccurrences(of: "  neverRetry:\n    - status: 503\n      code: not_ready\n", with: "  neverRetry: [{status: 503, code: not_ready}]\n")
            .split(separator: "\n", omittingEmptySubsequences: false).map { line in
                let spaces = line.prefix { $0 == " " }.count
                return String(repeating: " ", count: spaces / 2 * width) + String(line.dropFirst(spaces))
            }.joined(separator: "\n")
    }

    /// Odd inputs: each is formatted the same twice and keeps its meaning.
    static let odd: [String] = [
        Canonical.text.replacingOccurrences(of: "\n", with: "\r\n"),
        reindented(4),
        reindented(3),
        reindented(1),
        "retry:\n    neverRetry:\n        -   status: 503\n            code: not_ready   # odd\n\n        - {code: x, status: 500}\n",
        Canonical.text.replacingOccurrences(of: "#", with: "\n#"),
        Canonical.text.replacingOccurrences(of: ": ", with: ":     "),
        Canonical.text.replacingOccurrences(of: "\n\n", with: "\n\n\n\n"),
        Canonical.text.replacingOccurrences(of: "\n", with: "  # c\n"),
        "\u{FEFF}" + Canonical.text,
        "description: \"été \\u2028 日本 🎬\"\nversion: 1\n",
        "description: 'it''s'\npolicy: 'a: b'\n",
        "description: >\n  folded\n  text\n\n  more\nversion: 1",
        "description: |+\n  kept\n\n\nversion: 1\n",
        "description: |2\n    indented\nversion: 1\n",
        "description: plain text\n  over two lines\n\n  and a break\nversion: 1\n",
        "description: \"quoted text\n  over lines\"\nversion: 1\n",
        "retry:\n  retryOn: [network,   # a comment inside\n    429,\n    503]  # after\n",
        "retry:\n  retryOn: [\"a\n    b\", c]\n",
        "tickets:\n  reuseKey:\n  - viewer\n  -   device   # two\n  -\n    episode\n",
        "- a\n- - b\n  - c\n-   d: 1\n    e: 2\n",
        "? version\n: 1\n",
        "{version: 1, policy: p}  # flow root\n",
        "just a scalar # with a comment\n",
        "a:\n  b:\n    c:\n      d:\n        e:\n          f:\n            g:\n              h:\n                i:\n                  j: deep   # deep comment\n                # footer of i\n",
        "waivers:\n  - rule: interactive-retries-max\n    at: retry.profiles.interactive.maxRetries\n    allow: 4\n    reason: \"migration: #12\"\n    owner: '@ios'\n    expires: \"2026-12-31\"\n",
        "version: 1\nretry:\n  budget: {minPerMinute: 10, ratio: 10%}\n  profiles: {}\n",
        "key:    \n  # between\n  value\n",
        "a: {b}\nc: [{d: 1}, e: 2]\n",
    ]

    @Test(arguments: odd)
    func oddInputsAreIdempotentAndKeepTheirMeaning(_ text: String) throws {
        let bytes = Array(text.utf8)
        guard case .formatted(let once) = PolicyFormatter.format(bytes) else {
            Issue.record("refused: \(text)")
            return
        }
        #expect(PolicyFormatter.format(once) == .formatted(once))
        #expect(MeaningTests.meaning(once) == MeaningTests.meaning(bytes))
        let crlf = text.contains("\r\n")
        #expect(String(decoding: once, as: UTF8.self).contains("\r\n") == crlf)
    }
}

extension FormatterTests {
    /// A quoted value over lines in a flow list is written on one line, escaped so that YAML reads
    /// the same characters (line breaks, NEL and LS among them).
    @Test func doubleQuotedTextReadsTheSame() throws {
        let text = "a \"b\" \\ c\n\td\u{85}e\u{2028}f\u{FEFF}g\u{7}h é 🎬"
        let quoted = Quoting.doubleQuoted(text)
        let loaded = Loader.loadWhole(Array("k: \(quoted)\n".utf8))
        let entries = try #require({ if case .mapping(let e)? = loaded.root?.kind { return e } else { return nil } }())
        guard case .scalar(let value, .doubleQuoted) = entries.first?.value.kind else { Issue.record("\(quoted)"); return }
        #expect(Array(value.unicodeScalars) == Array(text.unicodeScalars))
        #expect(!quoted.unicodeScalars.contains { $0.value == 0x85 || $0.value == 0x2028 || $0 == "\n" })
    }

    /// Comments on every kind of line: each stays with the entry, item or collection it stands
    /// by, at its indentation; one after a nested block, indented into it, stays at its end.
    @Test func commentsEverywhereStayWithWhatTheyStandBy() {
        let input = """
            # head
            version: 1 # v
            # before policy
            policy: p

            retry: # retry section
              # before neverRetry
              neverRetry: # list
              # item one
              - status: 503 # s
                # inside item, before code
                code: not_ready
                # end of item one
              # item two
              - code: x
                status: 500
              # end of list (col 3)
                # deep after list?
              profiles:
                a:
                  kind: interactive
                  # end of a
                # end of profiles
              # end of retry
            # end of file

            """
        #expect(format(input) == """
            # head
            version: 1                  # v
            # before policy
            policy: p

            retry:                      # retry section
              # end of list (col 3)
              # deep after list?
              profiles:
                a:
                  kind: interactive
                  # end of a
                # end of profiles
              # before neverRetry
              neverRetry:               # list
                # item one
                - status: 503           # s
                  # inside item, before code
                  code: not_ready
                  # end of item one
                # item two
                - status: 500
                  code: x
              # end of retry
            # end of file

            """)
    }
}
