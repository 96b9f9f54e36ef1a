import Testing
@testable import PolicyKit
@testable import TestSupport

/// Findings on hostile bytes, in memory: the defects the fuzzer and the limit tests found, pinned.
@Suite struct HostileInputTests {
    /// Readers stop one byte past the limit, so that many bytes cannot be called the file's size.
    @Test func aTruncatedReadIsLargerThanTheLimitNotItsSize() {
        let cut = Checker.check([UInt8](repeating: 0x61, count: Loader.maxBytes + 1), path: "big.yaml")
        #expect(cut.diagnostics.map(\.message) == [
            "the file has at least 1048577 bytes, over the limit of 1 MiB (1048576 bytes) for a policy file"])
        let whole = Checker.check([UInt8](repeating: 0x61, count: 2 << 20), path: "big.yaml")
        #expect(whole.diagnostics.first?.message.hasPrefix("the file is 2097152 bytes (2.0 MiB)") == true, "\(whole.diagnostics)")
    }

    /// Found by the fuzzer: a bad byte's position was counted with other line breaks than the
    /// loader's marks, past the end of its line. Every position counts the editor's lines (LF, CR,
    /// CRLF); NEL, LS and PS are characters of their line (issue 48).
    @Test func positionsOfBadBytesCountTheEditorsLineBreaks() {
        for (br, at) in [("\u{85}", "1:20"), ("\u{2028}", "1:20"), ("\u{2029}", "1:20"), ("\r", "2:9"), ("\r\n", "2:9"), ("\n", "2:9")] {
            let bytes = Array("version: 1\(br)policy: ".utf8) + [0xFF]
            let file = Checker.check(bytes, path: "x.yaml")
            #expect(file.diagnostics.count == 1)
            #expect(file.diagnostics.map { "\($0.rule) \($0.line):\($0.column)" } == ["input-limit \(at)"], "\(br.debugDescription)")
        }
        // And control characters, which libyaml reports by offset.
        let control = Checker.check(Array("a: 1\u{2028}b: \u{7}\n".utf8), path: "x.yaml")
        let syntax = control.diagnostics.filter { $0.rule == "yaml-syntax" }
        #expect(syntax.map { "\($0.line):\($0.column)" } == ["1:9"], "\(control.diagnostics)")
    }

    /// Every rule example passes the fuzzer's invariants (positions, output safety, round trips).
    @Test func everyRuleExampleKeepsTheInvariants() {
        for rule in Catalog.rules {
            for example in rule.examples {
                let problems = HostilePipeline.violations(Array(example.source.utf8))
                #expect(problems.isEmpty, "\(rule.id.rawValue): \(problems)")
            }
        }
    }
}
