import Foundation
import Testing

@testable import PolicyKit
@testable import TestSupport

/// Issue 48: a quoted description holding U+2028 (or U+2029, NEL) moved every later finding one
/// line down, as libyaml counts those as line breaks. Every format reports the editor's lines
/// (LF, CR, CRLF), as the language server does, and `lint --fix` edits the bytes it means to.
@Suite struct LineSeparatorTests {
    /// The broken policy (findings on lines 9, 12 and 29) with separators in its description, on line 3.
    static var separated: String {
        CLITests.broken.replacingOccurrences(of: "description: Ticket requests made by the iOS and Android players.",
                                             with: "description: \"Ticket requests\u{2028}made by the iOS\u{85}and Android\u{2029}players.\"")
    }

    @Test func theSeparatedPolicyIsTheBrokenOneWithTheSameLines() {
        #expect(Self.separated != CLITests.broken)
        #expect(Self.separated.split(separator: "\n", omittingEmptySubsequences: false).count
                == CLITests.broken.split(separator: "\n", omittingEmptySubsequences: false).count)
    }

    @Test func textNamesTheEditorsLines() throws {
        let dir = try CLITests.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        try CLITests.write(Self.separated, to: "bad.yaml", in: dir)
        let outcome = try CLITests.policyc(["lint", "bad.yaml"], in: dir)
        #expect(outcome.status == 1)
        let lines = outcome.out.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.first { $0.hasPrefix("bad.yaml:9:19: error:") && $0.hasSuffix("[interactive-retries-max]") } != nil, "\(outcome.out)")
        let at = try #require(lines.firstIndex { $0.hasPrefix("bad.yaml:9:19:") })
        #expect(lines[at + 1] == "      maxRetries: 4         # retries after the first attempt")
        #expect(lines[at + 2] == "                  ^")
        #expect(lines.contains { $0.hasPrefix("bad.yaml:12:16: error:") }, "\(outcome.out)")
    }

    @Test func jsonNamesTheEditorsLines() throws {
        let dir = try CLITests.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        try CLITests.write(Self.separated, to: "bad.yaml", in: dir)
        let outcome = try CLITests.policyc(["lint", "--format", "json", "bad.yaml"], in: dir)
        #expect(outcome.status == 1)
        let diagnostics = try #require(try CLITests.json(outcome.out)["diagnostics"] as? [[String: Any]])
        let positions = diagnostics.map { "\($0["rule"] as? String ?? ""):\($0["line"] as? Int ?? 0):\($0["column"] as? Int ?? 0)" }
        #expect(positions == ["interactive-retries-max:9:19", "timeout-min:12:16", "unknown-key:29:3"])
        // The fix of the misspelt key: an edit on line 29, as the editor counts.
        let unknown = try #require(diagnostics.first { $0["rule"] as? String == "unknown-key" })
        let edits = try #require((unknown["fix"] as? [String: Any])?["edits"] as? [[String: Any]])
        #expect((edits.first?["start"] as? [String: Int])?["line"] == 29)
    }

    @Test func githubAndSARIFNameTheEditorsLines() throws {
        let dir = try CLITests.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        try CLITests.write(Self.separated, to: "bad.yaml", in: dir)
        let github = try CLITests.policyc(["lint", "--format", "github", "bad.yaml"], in: dir)
        #expect(github.out.hasPrefix("::error file=bad.yaml,line=9,col=19,endLine=9,endColumn=19,title=interactive-retries-max::"), "\(github.out)")
        let sarif = try CLITests.policyc(["lint", "--format", "sarif", "bad.yaml"], in: dir)
        let run = try #require((try CLITests.json(sarif.out)["runs"] as? [[String: Any]])?.first)
        let lines = (run["results"] as? [[String: Any]])?.compactMap { result -> Int? in
            let location = (result["locations"] as? [[String: Any]])?.first?["physicalLocation"] as? [String: Any]
            return (location?["region"] as? [String: Any])?["startLine"] as? Int
        }
        #expect(lines == [9, 12, 29])
    }

    /// The fixes land on the bytes they name: the file fixed is the broken policy fixed, with the
    /// separated description.
    @Test func fixesEditTheRightBytes() throws {
        let dir = try CLITests.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        try CLITests.write(Self.separated, to: "separated.yaml", in: dir)
        try CLITests.write(CLITests.broken, to: "plain.yaml", in: dir)
        for name in ["separated.yaml", "plain.yaml"] {
            let fixed = try CLITests.policyc(["lint", "--fix", "--unsafe-fixes", name], in: dir)
            #expect(fixed.status == 0, "\(fixed)")
            #expect((fixed.out + fixed.err).contains("\(name):29:3: fixed: rename 'budgte' to 'budget'"), "\(fixed)")
        }
        let separated = try String(contentsOf: dir.appendingPathComponent("separated.yaml"), encoding: .utf8)
        let plain = try String(contentsOf: dir.appendingPathComponent("plain.yaml"), encoding: .utf8)
        #expect(plain != CLITests.broken && plain.contains("  budget:\n") && plain.contains("maxRetries: 3 "))
        #expect(separated == plain.replacingOccurrences(of: "description: Ticket requests made by the iOS and Android players.",
                                                        with: "description: \"Ticket requests\u{2028}made by the iOS\u{85}and Android\u{2029}players.\""))
    }
}
