import Foundation
import Testing
@testable import PolicyKit
@testable import TestSupport

/// Every input the fuzzer ever broke an invariant with (`Fixtures/Crashes/`), and the hand-written
/// hostile seeds (`Fuzz/corpus/hostile/`), through the fuzzer's own pipeline and checks
/// (`HostilePipeline`), so an ordinary `swift test` keeps every fixed crash fixed.
@Suite struct HostileReplayTests {
    static let crashes = Corpus.crashes
    static let seeds = Corpus.hostile

    @Test func thereAreFixturesToReplay() {
        #expect(!Self.crashes.isEmpty)
        #expect(Self.seeds.count >= 40)
    }

    @Test(arguments: crashes + seeds)
    func replay(_ url: URL) throws {
        let bytes = [UInt8](try Data(contentsOf: url))
        let problems = HostilePipeline.violations(bytes)
        #expect(problems.isEmpty, "\(url.lastPathComponent):\n\(problems.joined(separator: "\n"))")
    }

    /// The invariants are not vacuous: a position past the input, a literal that does not read
    /// back, a terminal escape in the output are each caught.
    @Test func theChecksCatchWhatTheyAreFor() {
        // LS is a character of its line, as editors count lines.
        let text = SourceText(Array("ab\ncd\u{2028}e\rf".utf8))
        #expect(text.count == 3)
        #expect(text.contains(Mark(line: 1, column: 3)))
        #expect(!text.contains(Mark(line: 1, column: 4)))
        #expect(text.contains(Mark(line: 2, column: 5)) && !text.contains(Mark(line: 2, column: 6)))
        #expect(text.contains(Mark(line: 4, column: 1)))
        #expect(!text.contains(Mark(line: 4, column: 2)))
        #expect(!text.contains(Mark(line: 3, column: 0)))

        #expect(SwiftLiteral.decode("\"a\\\"\\\\\\u{1B}\\u{1F600}\"") == "a\"\\\u{1B}\u{1F600}")
        #expect(SwiftLiteral.decode("\"\\(x)\"") == nil)
        #expect(SwiftLiteral.decode("\"a\nb\"") == nil)
        #expect(KotlinLiteral.decode("\"\\$x \\uD83D\\uDE00\"") == "$x \u{1F600}")
        #expect(KotlinLiteral.decode("\"$x\"") == nil)
        #expect(KotlinLiteral.decode("\"\\uD83D\"") == nil)

        #expect(HostilePipeline.unsafe(in: "ok\n", allowing: ["\n"]) == nil)
        #expect(HostilePipeline.unsafe(in: "a\u{1B}[31m", allowing: ["\n"]) == "U+1B")
        #expect(HostilePipeline.unsafe(in: HostilePipeline.strippingColor("\u{1B}[1;31merror\u{1B}[0m"), allowing: []) == nil)

        #expect(JSONCheck.error(in: "{\"a\": [1, -2.5e3, true, null, \"\\u0041\"]}") == nil)
        #expect(JSONCheck.error(in: "{\"a\": \"\u{1}\"}") != nil)
        #expect(JSONCheck.error(in: "[01]") != nil)
        #expect(JSONCheck.error(in: "{\"a\": 1,}") != nil)
    }

    /// A clean policy with hostile free text goes all the way through generation and reads back.
    @Test func aHostileDescriptionRoundTripsThroughGeneratedLiterals() {
        let canonical = Array(Canonical.text.utf8)
        let hostile = "\"\\\"\\\\ \\u202E \\e[31m \\0 \\n */ /* ${x} \\\\(y) \\U0001F600 \\u00E9 e\\u0301\""
        let text = String(decoding: canonical, as: UTF8.self).replacingOccurrences(
            of: "description: Ticket requests made by the iOS and Android players.",
            with: "description: \(hostile)")
        let bytes = Array(text.utf8)
        let file = Checker.check(bytes, path: "x.yaml")
        #expect(file.policy != nil, "\(file.diagnostics.map(\.message))")
        #expect(file.policy?.description?.contains("\u{202E}") == true)
        #expect(HostilePipeline.violations(bytes).isEmpty)
    }
}
