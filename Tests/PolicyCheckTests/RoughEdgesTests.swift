import Testing
@testable import PolicySource
@testable import PolicyCheck
@testable import TestSupport

/// Issue 39: fixes and messages that say what they do.
@Suite struct RoughEdgesTests {
    func check(_ text: String, path: String = "p.yaml") -> CheckedFile { Checker.check(Array(text.utf8), path: path) }

    func canonical(_ edits: [(String, String)]) -> String {
        var text = Canonical.text
        for (old, new) in edits {
            #expect(text.contains(old), "no '\(old)' in the canonical policy")
            text = text.replacingFirst(old, with: new)
        }
        return text
    }

    // MARK: item 25

    /// The unsafe fix of a too-short timeout says it picks the limit, and names the guide's own
    /// value as the alternative.
    @Test func tooShortTimeoutFixSaysItPicksTheLimit() throws {
        let interactive = try #require(check(canonical([("timeout: 8s", "timeout: 4s")])).diagnostics.first { $0.rule == "timeout-min" })
        let fix = try #require(interactive.fix)
        #expect(fix.safety == .unsafe)
        #expect(fix.description == "write timeout: 5s, the least the guide allows; the guide's own interactive profile uses 8s")
        #expect(fix.edits.map(\.text) == ["5s"])

        let background = try #require(check(canonical([("timeout: 15s", "timeout: 2s")])).diagnostics.first { $0.rule == "timeout-min" })
        #expect(background.fix?.description == "write timeout: 5s, the least the guide allows; the guide's own background profile uses 15s")

        // A deadline of 6 s leaves room for 5 s but not for the guide's 8 s: that is not offered.
        let tight = try #require(check(canonical([("timeout: 8s", "timeout: 4s"), ("deadline: 15s", "deadline: 6s")]))
            .diagnostics.first { $0.rule == "timeout-min" })
        #expect(tight.fix?.description == "write timeout: 5s, the least the guide allows")
    }

    // MARK: item 16

    /// The unsafe fix of a file without a policy names the policy after the file.
    @Test func anEmptyFileIsFixedWithThePolicyNamedAfterIt() throws {
        for (path, text) in [("Policies/tv-player.yaml", ""), ("tv-player.yml", "# the TV app's policy\n"), ("Policies/tv-player.yaml", "\n\n")] {
            let d = try #require(check(text, path: path).diagnostics.first { $0.rule == "missing-key" })
            let fix = try #require(d.fix)
            let written = fix.edits.map(\.text).joined()
            #expect(written.contains("\npolicy: tv-player\n") || written.hasPrefix("version: 1\npolicy: tv-player\n"), "\(path): \(written)")
            #expect(!written.contains("playback"), "\(path): \(written)")
        }
        // A file name that is not a policy name, or standard input: the canonical name.
        for path in ["Policies/TV Player.yaml", "Policies/tv_player.yaml", "<stdin>", "policy"] {
            let d = try #require(check("", path: path).diagnostics.first)
            #expect(d.fix?.edits.map(\.text).joined().contains("\npolicy: playback\n") == true, "\(path)")
        }
        // A policy that lacks only its name gets the file's.
        let nameless = canonical([("policy: playback\n", "")])
        let d = try #require(check(nameless, path: "Policies/tv-player.yaml").diagnostics.first)
        #expect(d.rule == "missing-key")
        #expect(d.help == "add 'policy: tv-player'")
        #expect(d.fix?.description == "add 'policy: tv-player'")
        #expect(d.fix?.edits.map(\.text).joined().contains("policy: tv-player") == true)
        #expect(check(nameless, path: "p.yaml").diagnostics.first?.help == "add 'policy: p'")
    }

    // MARK: item 7

    /// A tab that indents gets a safe fix: spaces at the column its siblings start at, for every
    /// line a tab indents; lint --fix then gives back the canonical policy.
    @Test(arguments: [
        ("    honor: true", "\thonor: true"),                                   // a leaf among leaves
        ("    interactive:", "\tinteractive:"),                                 // the first child, opening a block
        ("    background:", "\tbackground:"),                                   // a sibling of a line's parent
        ("  budget:", "\tbudget:"),                                             // back two levels
        ("    - status: 503", "\t- status: 503"),                               // a list item
        ("      code: not_ready", "\tcode: not_ready"),                         // a list item's key
        ("  stopReuseBefore: 5m", "\t  stopReuseBefore: 5m"),                   // a tab among spaces
        ("      kind: interactive     # a viewer is waiting\n      maxRetries: 3",
         "\tkind: interactive     # a viewer is waiting\n\t\tmaxRetries: 3"),   // two lines
    ])
    func aTabThatIndentsIsFixedSafely(_ from: String, _ to: String) throws {
        let text = canonical([(from, to)])
        let d = try #require(check(text).diagnostics.first)
        #expect(d.rule == "yaml-syntax")
        let fix = try #require(d.fix, "\(to)")
        #expect(fix.safety == .safe)
        let fixed = Fixer.fix(Array(text.utf8), path: "p.yaml", unsafe: false)
        #expect(String(decoding: fixed.bytes, as: UTF8.self) == Canonical.text, "\(to): \(String(decoding: fixed.bytes, as: UTF8.self))")
        #expect(d.help?.hasPrefix("replace the tab with spaces: the line starts at column ") == true)
    }

    @Test func aTabFixSaysTheColumn() throws {
        let d = try #require(check(canonical([("      maxRetries: 3", "\tmaxRetries: 3")])).diagnostics.first)
        #expect(d.help == "replace the tab with spaces: the line starts at column 7, as its siblings")
        #expect(d.fix?.description == "indent with 6 spaces instead of the tab")
        #expect(d.fix?.edits == [TextEdit(Span(start: Mark(line: 9, column: 1), end: Mark(line: 9, column: 2)), "      ")])
        // Many lines: one fix for all, described once.
        let many = try #require(check(canonical([("    honor: true\n    maxJitter: 1s", "\thonor: true\n\tmaxJitter: 1s")])).diagnostics.first)
        #expect(many.fix?.description == "indent the 2 lines a tab indents with spaces, each as its siblings")
    }

    /// Past `maxTabLines`, or when spaces would not make the file parse, the help alone.
    @Test func noTabFixWhenItCannotBeRight() throws {
        let hostile = "a:\n" + String(repeating: "\tb: 1\n", count: IndentationAdvice.maxTabLines + 1)
        let d = try #require(check(hostile).diagnostics.first)
        #expect(d.message == "a tab indents this line; YAML indents with spaces only")
        #expect(d.fix == nil)
        #expect(d.help == "replace the tab with spaces, as many as the lines around it use")
        // Spaces at any column leave this broken (an unclosed flow sequence after it).
        let broken = try #require(check("a:\n\tb: 1\nc: [\n").diagnostics.first)
        #expect(broken.fix == nil)
    }

    /// A key indented deeper than the line above: libyaml's "mapping values are not allowed"
    /// says which column the key should start at.
    @Test func aKeyDeeperThanTheLineAboveSaysItsColumn() throws {
        func plain(_ edits: [(String, String)]) -> String {
            // Without comments after values, so that a deeper line continues the value above.
            canonical(edits).split(separator: "\n", omittingEmptySubsequences: false).map { line in
                line.firstRange(of: "   #").map { String(line[..<$0.lowerBound]) } ?? String(line)
            }.joined(separator: "\n")
        }
        // Deeper than its sibling above: it should start where that one does.
        var d = try #require(check(plain([("      maxRetries: 3", "        maxRetries: 3")])).diagnostics.first)
        #expect(d.message == "mapping values are not allowed in this context")
        #expect(d.help == "start 'maxRetries' at column 7, as 'kind' on line 8: at column 9 it reads as more of the value of 'kind'")
        // A hand fix with too few spaces: the error is on the next line, and the help names the line to move.
        d = try #require(check(plain([("      maxRetries: 3", "    maxRetries: 3")])).diagnostics.first)
        #expect(d.span.start.line == 10)
        #expect(d.help == "start 'maxRetries' on line 9 at column 7, as 'kind' on line 8 and 'base' below it do: "
            + "at column 5 it ends their mapping, and 'base' reads as more of its value")
        d = try #require(check(plain([("    maxJitter: 1s", "      maxJitter: 1s")])).diagnostics.first)
        #expect(d.help == "start 'maxJitter' at column 5, as 'honor' on line 27: at column 7 it reads as more of the value of 'honor'")
        // The rule's own example.
        d = try #require(check("version: 1\npolicy: playback\n  retry: {}\n").diagnostics.first)
        #expect(d.help == "start 'retry' at column 1, as 'policy' on line 2: at column 3 it reads as more of the value of 'policy'")
    }
}
