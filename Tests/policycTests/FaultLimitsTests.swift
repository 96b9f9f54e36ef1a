import Foundation
import Testing

@testable import PolicyKit
@testable import TestSupport
/// Hostile inputs through the built binary: each ends in a clear finding (exact rule and count),
/// exit 1, and a small peak memory of the child (`wait4`), whatever the input's size.
@Suite struct FaultLimitsTests {
    /// Generous against the ~10–20 MiB policyc needs, and far below what holding a hostile input
    /// whole (50 MB), a 100 000-deep tree or an expanded billion laughs would take.
    static let memoryBound = 64 * 1_048_576

    /// Lints `bytes` as a file (or through stdin) and returns the outcome and its JSON findings.
    func lint(_ bytes: [UInt8], stdin: Bool = false, format: String = "json")
        throws -> (Child.Outcome, [[String: Any]])
    {
        let dir = try CLITests.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("hostile.yaml").path
        let outcome: Child.Outcome
        if stdin {
            outcome = try Child.run([try Child.policyc(), "lint", "--format", format, "-"], input: .bytes(bytes))
        } else {
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            outcome = try Child.run([try Child.policyc(), "lint", "--format", format, "hostile.yaml"], in: dir.path)
        }
        #expect(outcome.maxRSSBytes < Self.memoryBound, "peak memory \(outcome.maxRSSMiB) MiB")
        #expect(outcome.signal == nil, "\(outcome)")
        return (outcome, format == "json" ? try Child.diagnostics(outcome) : [])
    }

    /// Exactly one finding, of `rule`, at `line`:`column`, whose message contains `words`.
    func expectOne(_ found: [[String: Any]], _ rule: String, at line: Int, _ column: Int, _ words: String,
                   sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(found.count == 1, "\(found)", sourceLocation: sourceLocation)
        guard let d = found.first else { return }
        #expect(d["rule"] as? String == rule, "\(d)", sourceLocation: sourceLocation)
        #expect(d["line"] as? Int == line && d["column"] as? Int == column, "\(d)", sourceLocation: sourceLocation)
        #expect(((d["message"] as? String) ?? "").contains(words), "\(d)", sourceLocation: sourceLocation)
    }

    @Test func aHundredThousandOpenBracketsStopAtTheDepthLimit() throws {
        let (outcome, found) = try lint(Array(repeating: UInt8(ascii: "["), count: 100_000))
        #expect(outcome.status == 1)
        // The 33rd bracket opens level 33.
        expectOne(found, "input-limit", at: 1, 33, "deeper than 32 levels")
    }

    @Test func twentyThousandLevelsOfBlockNestingStopAtTheDepthLimit() throws {
        // `- - - … x`: 20 000 block sequences, each inside the last, on one line (40 kB).
        let line = String(repeating: "- ", count: 20_000) + "x\n"
        let (outcome, found) = try lint(Array(line.utf8))
        #expect(outcome.status == 1)
        expectOne(found, "input-limit", at: 1, 65, "deeper than 32 levels")

        // And as indented mappings (one key a line): the first 40 levels of a file that would go on.
        var nested = ""
        for level in 0..<40 { nested += String(repeating: " ", count: level) + "k\(level):\n" }
        let (_, deep) = try lint(Array(nested.utf8))
        expectOne(deep, "input-limit", at: 33, 33, "deeper than 32 levels")
    }

    @Test func aBillionLaughsIsNeverExpanded() throws {
        var text = "a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n"
        for (prev, next) in zip("abcdefgh", "bcdefghi") {
            text += "\(next): &\(next) [" + Array(repeating: "*\(prev)", count: 9).joined(separator: ",") + "]\n"
        }
        let (outcome, found) = try lint(Array(text.utf8))
        #expect(outcome.status == 1)
        // One finding for every anchor and alias together; the rest is what any file of nine
        // unknown keys gets (nine unknown-key, five missing-key), each about a different mistake.
        let unsupported = found.filter { $0["rule"] as? String == "yaml-unsupported" }
        #expect(unsupported.count == 1)
        let message = unsupported.first?["message"] as? String
        #expect(message?.hasSuffix("(80 more in this file)") == true, "\(String(describing: message))")
        #expect(found.count == 15)
        #expect(outcome.out.count < 10_000)

        // Inside an otherwise clean policy, an alias is the one finding.
        let policy = canonical.replacingOccurrences(of: "description: Ticket requests made by the iOS and Android players.",
                                                    with: "description: &d [lol, lol]\nretried: *d")
        let (_, inPolicy) = try lint(Array(policy.utf8))
        #expect(inPolicy.contains { $0["rule"] as? String == "yaml-unsupported" })
    }

    static let fiftyMB: [UInt8] = {
        var bytes = Array("description: ".utf8)
        bytes += [UInt8](repeating: UInt8(ascii: "x"), count: 50_000_000)
        return bytes + [0x0A]
    }()

    @Test func aFiftyMegabyteFileIsRefusedUnread() throws {
        let (outcome, found) = try lint(Self.fiftyMB)
        #expect(outcome.status == 1)
        expectOne(found, "input-limit", at: 1, 1, "at least 1048577 bytes")
    }

    @Test func fiftyMegabytesOnStandardInputAreRefusedUnread() throws {
        let (outcome, found) = try lint(Self.fiftyMB, stdin: true)
        #expect(outcome.status == 1)
        expectOne(found, "input-limit", at: 1, 1, "at least 1048577 bytes")
        #expect(found.first?["file"] as? String == "<stdin>")
    }

    @Test func aTenMegabyteScalarIsRefusedAndOneJustUnderTheLimitIsFine() throws {
        let policy = canonical.replacingOccurrences(of: "Ticket requests made by the iOS and Android players.",
                                                    with: String(repeating: "x", count: 10_000_000))
        let (outcome, found) = try lint(Array(policy.utf8))
        #expect(outcome.status == 1)
        expectOne(found, "input-limit", at: 1, 1, "over the limit of 1 MiB")

        // A description of 1 MB stays within 1 MiB: checked in full, and clean.
        let big = canonical.replacingOccurrences(of: "Ticket requests made by the iOS and Android players.",
                                                 with: String(repeating: "y", count: 1_000_000))
        let (ok, none) = try lint(Array(big.utf8))
        #expect(ok.status == 0, "\(ok)")
        #expect(none.isEmpty)
    }

    @Test func aMappingOfAHundredThousandKeysIsCappedAtAThousandFindings() throws {
        var text = ""
        for i in 0..<100_000 { text += "k\(i): 1\n" }
        #expect(text.utf8.count <= 1_048_576)
        let (outcome, found) = try lint(Array(text.utf8))
        #expect(outcome.status == 1)
        // A thousand findings and one more, first in the report, saying how many were left out.
        #expect(found.count == 1001)
        #expect(found.first?["rule"] as? String == "input-limit")
        #expect(found.first?["message"] as? String == "the file has 100005 findings; only the first 1000 are reported")
        #expect(found.dropFirst().allSatisfy { ["unknown-key", "missing-key"].contains(($0["rule"] as? String) ?? "") })
        #expect(outcome.out.count < 1_000_000)
    }

    @Test func controlBytesAreOneSyntaxFinding() throws {
        for (byte, name) in [("\u{0}", "0000"), ("\u{7F}", "007F"), ("\u{9B}", "009B"), ("\u{1B}", "001B")] {
            let text = "version: 1\npolicy: pl" + byte + "ayback\n"
            let (outcome, found) = try lint(Array(text.utf8))
            #expect(outcome.status == 1)
            expectOne(found, "yaml-syntax", at: 2, 11, "U+\(name)")
            // The text format shows the line without the raw byte.
            let (text2, _) = try lint(Array(text.utf8), format: "text")
            #expect(!text2.out.contains(0x1B) && !text2.out.contains(0) && !text2.out.contains(0x7F))
            #expect(!text2.outText.unicodeScalars.contains("\u{9B}"))
        }
    }

    @Test func invalidUTF8IsOneFindingAtItsPlace() throws {
        for (bytes, line, column) in [
            (Array("version: 1\npolicy: caf".utf8) + [0xE9] + Array("\n".utf8), 2, 12),  // Latin-1 é
            (Array("policy: ".utf8) + [0xC0, 0xAF], 1, 9),                                // overlong /
            (Array("policy: ".utf8) + [0xED, 0xA0, 0x80], 1, 9),                          // a surrogate
            (Array("policy: ok\ndescription: ".utf8) + [0xE2, 0x82], 2, 14),              // cut short
        ] {
            let (outcome, found) = try lint(bytes)
            #expect(outcome.status == 1)
            expectOne(found, "input-limit", at: line, column, "not valid UTF-8")
        }
    }

    @Test func utf16AndUTF32AreRefusedAsSuch() throws {
        let text = canonical
        // Typed one by one: as one literal the type checker took over a second on it.
        let littleEndian: [UInt8] = Array(text.utf16).flatMap { (u: UInt16) -> [UInt8] in [UInt8(u & 0xFF), UInt8(u >> 8)] }
        let bigEndian: [UInt8] = Array(text.utf16).flatMap { (u: UInt16) -> [UInt8] in [UInt8(u >> 8), UInt8(u & 0xFF)] }
        let utf32: [UInt8] = text.unicodeScalars.flatMap { (s: Unicode.Scalar) -> [UInt8] in
            (0..<4).map { (i: Int) -> UInt8 in UInt8((s.value >> UInt32(8 * i)) & 0xFF) }
        }
        let cases: [([UInt8], String)] = [
            ([0xFF, 0xFE] + littleEndian, "UTF-16"),
            ([0xFE, 0xFF] + bigEndian, "UTF-16"),
            (littleEndian, "UTF-16"),
            (bigEndian, "UTF-16"),
            ([0xFF, 0xFE, 0, 0] + utf32, "UTF-32"),
        ]
        for (bytes, encoding) in cases {
            let (outcome, found) = try lint(bytes)
            #expect(outcome.status == 1)
            expectOne(found, "input-limit", at: 1, 1, encoding)
        }
    }

    @Test func bidiControlsAndLookAlikesInNamesAreBadNamesShownEscaped() throws {
        for (name, shown) in [("play\u{202E}kcab", "\\u{202E}"), ("pla\u{0301}yback", "pla\u{0301}yback"),
                              ("plаyback", "plаyback" /* Cyrillic а */), ("play\u{200F}back", "\\u{200F}")] {
            let policy = canonical.replacingOccurrences(of: "policy: playback", with: "policy: \(name)")
            let (outcome, found) = try lint(Array(policy.utf8))
            #expect(outcome.status == 1)
            expectOne(found, "bad-name", at: 2, 9, shown)
            let (text, _) = try lint(Array(policy.utf8), format: "text")
            for bidi: Unicode.Scalar in ["\u{202E}", "\u{200F}"] {
                #expect(!text.outText.unicodeScalars.contains(bidi), "\(text)")
            }
        }
        // A look-alike profile name too: one finding, at the name.
        let profile = canonical.replacingOccurrences(of: "    background:", with: "    backgrоund:")  // Cyrillic о
        let (_, found) = try lint(Array(profile.utf8))
        expectOne(found, "bad-name", at: 14, 5, "backgr")
    }

    @Test func echoedInputCannotInjectTerminalEscapesOrWorkflowCommands() throws {
        // Keys, a name and a value carrying ESC sequences, CR, LF (as YAML escapes: raw ones are
        // refused) and workflow commands; each is one finding that echoes it.
        let policy = canonical
            .replacingOccurrences(of: "policy: playback", with: "policy: \"\\e]0;pwned\\a\\e[31mred\"")
            .replacingOccurrences(of: "prefetch:\n", with: "prefetch:\n  \"x\\r\\n::error file=a.yaml::injected\": 1\n  \"%0A::warning::y\": 2\n")
            .replacingOccurrences(of: "viewerRef: per-viewer-device", with: "viewerRef: \"\\n::error::bad\\r\"")
        let (json, found) = try lint(Array(policy.utf8))
        #expect(json.status == 1)
        #expect(Set(found.map { ($0["rule"] as? String) ?? "" }) == ["bad-name", "unknown-key", "type-mismatch"], "\(found)")
        #expect(found.count == 4, "\(found)")

        let (text, _) = try lint(Array(policy.utf8), format: "text")
        #expect(!text.out.contains(0x1B) && !text.out.contains(0x07) && !text.out.contains(0x0D), "\(text)")
        for line in text.outText.split(separator: "\n") where line.contains("::error") {
            // Only ever inside a quoted echo, never at the start of a line.
            #expect(!line.hasPrefix("::"), "\(line)")
        }

        let (github, _) = try lint(Array(policy.utf8), format: "github")
        let lines = github.outText.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.count == 4, "\(github)")
        for line in lines {
            // A `::` inside a message starts nothing: GitHub reads commands at the start of a line only.
            #expect(line.hasPrefix("::error ") || line.hasPrefix("::warning "), "\(line)")
        }
        #expect(!github.out.contains(0x1B) && !github.out.contains(0x0D))

        for format in ["sarif", "junit"] {
            let (other, _) = try lint(Array(policy.utf8), format: format)
            #expect(!other.out.contains(0x1B) && !other.out.contains(0x07), "\(format)")
        }
    }

    @Test func aHostileFileNameIsEchoedHarmlessly() throws {
        let dir = try CLITests.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let name = "x\u{1B}]0;t\u{7}\r\n::error file=a,line=1::owned,.yaml"
        try Data("version: 2\n".utf8).write(to: dir.appendingPathComponent(name))
        for format in ["text", "github", "junit"] {
            let run = try Child.run([try Child.policyc(), "lint", "--format", format, "."], in: dir.path)
            #expect(run.status == 1, "\(run)")
            #expect(!run.out.contains(0x1B) && !run.out.contains(0x07) && !run.out.contains(0x0D), "\(format): \(run)")
            #expect(!run.err.contains(0x1B) && !run.err.contains(0x0D), "\(format): \(run)")
            for line in run.outText.split(separator: "\n") where format == "github" {
                #expect(line.hasPrefix("::error file=x\\u{1B}]0;t\\u{7}%0D%0A%3A%3Aerror file=a%2Cline=1%3A%3Aowned%2C.yaml,line=1,"), "\(line)")
            }
        }
    }

    var canonical: String {
        (try? String(contentsOf: CLITests.packageRoot.appendingPathComponent("Policies/playback.yaml"), encoding: .utf8)) ?? ""
    }
}
