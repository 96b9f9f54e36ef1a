import Foundation
import Testing

@testable import PolicyKit
@testable import TestSupport
/// The help texts agree with each other, for every command `policyc --help` lists (so a command
/// added later is held to the same): every option in its USAGE line, placeholders spelt one way,
/// an EXIT STATUS section, and `policyc help TYPO` answering as `policyc TYPO` does.
@Suite struct HelpTests {
    /// The placeholders of SPEC and the usage lines, and no other spelling.
    static let placeholders: Set<String> = ["FILE", "DIR", "GIT_REF", "NAME", "N", "LIST", "FORMAT", "DATE", "MS", "BYTES", "DAYS"]

    static let commands: [String] = {
        guard let top = try? CLITests.policyc(["--help"]).out,
              let start = top.range(of: "COMMANDS:\n") else { return [] }
        return top[start.upperBound...].split(separator: "\n", omittingEmptySubsequences: false)
            .prefix { !$0.isEmpty }
            .compactMap { $0.split(separator: " ").first.map(String.init) }
    }()

    @Test func everyCommandIsListed() {
        #expect(Set(["lint", "generate", "schema", "diff", "explain", "rules", "init"]).isSubset(of: Set(Self.commands)),
                "\(Self.commands)")
    }

    @Test(arguments: commands)
    func helpOf(command: String) throws {
        let help = try CLITests.policyc(["help", command])
        #expect(help.status == 0)
        let flag = try CLITests.policyc([command, "--help"])
        #expect(flag.status == 0 && flag.out == help.out, "'policyc help \(command)' and 'policyc \(command) --help' differ")
        let text = help.out

        #expect(text.hasPrefix("OVERVIEW: "))
        let usage = try #require(Self.section("USAGE:", in: text), "no USAGE section")
        #expect(usage.hasPrefix(" policyc \(command)"), "\(usage)")
        let options = try #require(Self.section("OPTIONS:", in: text), "no OPTIONS section")

        // Every option is in USAGE, with the placeholder OPTIONS gives it, spelt as SPEC does.
        // A row is "  --name PLACEHOLDER   help" (one space before a placeholder, two or more before help).
        for row in options.split(separator: "\n") where row.hasPrefix("  --") {
            let left = String(row.dropFirst(2).prefix { $0 != " " })
            var shown = left
            let after = row.dropFirst(2 + left.count)
            if after.hasPrefix(" "), !after.hasPrefix("  ") {
                let placeholder = String(after.dropFirst().prefix { $0 != " " })
                // One placeholder, or alternatives of them (`NAME|FILE`).
                #expect(placeholder.split(separator: "|").allSatisfy { Self.placeholders.contains(String($0)) },
                        "\(command) \(left): placeholder '\(placeholder)'")
                shown += " " + placeholder
            }
            #expect(usage.contains(shown), "\(command): '\(shown)' is not in its USAGE line:\n\(usage)")
        }
        // No other spelling of a placeholder anywhere in the text: not <dir>, not GIT-REF.
        #expect(text.range(of: #"<[a-z][a-z_-]*>"#, options: .regularExpression) == nil, "\(command): a <placeholder> in\n\(text)")
        // (JSON-RPC is a name, not a placeholder.)
        let named = text.replacingOccurrences(of: "JSON-RPC", with: "")
        #expect(named.range(of: #"\b[A-Z]+-[A-Z]+\b"#, options: .regularExpression) == nil, "\(command): a PLACE-HOLDER in\n\(text)")

        // EXIT STATUS, with each code the command can end with.
        let exit = try #require(Self.section("EXIT STATUS:", in: text), "\(command) has no EXIT STATUS section")
        #expect(exit.contains("\n  0  ") && exit.contains("\n  2  "), "\(command): \(exit)")
    }

    @Test(arguments: commands)
    func aMisspeltCommandIsSuggestedEitherWay(command: String) throws {
        let typo = command + "x"
        let direct = try CLITests.policyc([typo])
        let viaHelp = try CLITests.policyc(["help", typo])
        #expect(direct.status == 2 && viaHelp.status == 2)
        #expect(direct.err.hasPrefix("error: unknown command '\(typo)'; did you mean '\(command)'?\n"), "\(direct)")
        #expect(viaHelp.err == direct.err)
    }

    @Test func helpLnitSuggestsLint() throws {
        let outcome = try CLITests.policyc(["help", "lnit"])
        #expect(outcome.status == 2)
        #expect(outcome.err.hasPrefix("error: unknown command 'lnit'; did you mean 'lint'?\n"))
    }

    /// The text from `title` up to the next blank line followed by a line that is not indented
    /// (USAGE's second line is part of it).
    static func section(_ title: String, in text: String) -> String? {
        guard let start = text.range(of: title) else { return nil }
        let rest = text[start.upperBound...]
        var out = ""
        var previousBlank = false
        for line in rest.split(separator: "\n", omittingEmptySubsequences: false) {
            if previousBlank, !line.isEmpty, !line.hasPrefix(" ") { break }
            previousBlank = line.isEmpty
            out += line + "\n"
        }
        return out
    }
}
