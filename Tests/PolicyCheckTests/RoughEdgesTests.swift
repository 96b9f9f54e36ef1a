import Testing
import PolicySource
import PolicyCheck
import TestSupport

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
}
