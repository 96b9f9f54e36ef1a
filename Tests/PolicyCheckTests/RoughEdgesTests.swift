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
}
