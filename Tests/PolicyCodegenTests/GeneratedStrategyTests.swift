import Testing
@testable import PolicyCheck
@testable import PolicyCodegen
@testable import TestSupport

/// `backoffMs` is written for the policy's strategy, in every language: a waived strategy is the
/// one the app runs (the slow tests run the code against the simulator's figures).
@Suite struct GeneratedStrategyTests {
    /// The line that computes the wait without Retry-After, per language and strategy.
    static let returns: [Backoff: (swift: String, kotlin: String, typeScript: String)] = [
        .fullJitter: ("return random() * v", "return random() * v", "return random() * v;"),
        .equalJitter: ("return v / 2 + random() * (v / 2)", "return v / 2.0 + random() * (v / 2.0)", "return v / 2 + random() * (v / 2);"),
        .exponential: ("return v", "return v", "return v;"),
        .constant: ("return Double(profile.baseMs)", "return profile.baseMs.toDouble()", "return p.baseMs;"),
    ]

    @Test(arguments: Backoff.allCases)
    func backoffMsFollowsTheStrategy(strategy: Backoff) throws {
        var policy = try GenSupport.canonical
        policy.backoff = strategy
        let module = PolicyModule(policy)
        let expected = try #require(Self.returns[strategy])
        let sources = [
            (SwiftGenerator.source(for: policy), expected.swift, "public static func backoffMs(", "\n    }\n"),
            (KotlinGenerator.source(for: policy, package: "p"), expected.kotlin,
             "fun backoffMs(attempt: Int, retryAfterS: Double?, profile: RetryProfile, random: () -> Double", "\n    }\n"),
            (TypeScriptGenerator.source(for: policy), expected.typeScript, "export function backoffMs(", "\n}\n"),
        ]
        #expect(module.backoff == strategy)
        for (source, line, signature, close) in sources {
            // The function's body: from its signature to the first line that closes it.
            let start = try #require(source.range(of: signature))
            let end = try #require(source.range(of: close, range: start.upperBound..<source.endIndex))
            let body = source[start.lowerBound..<end.upperBound].split(separator: "\n").map { $0.trimmingPrefix(while: { $0 == " " }) }
            #expect(body.contains { $0 == line }, "\(strategy): \(line) in\n\(body.joined(separator: "\n"))")
            for (other, lines) in Self.returns where other != strategy {
                for l in [lines.swift, lines.kotlin, lines.typeScript] where l != line {
                    #expect(!body.contains { $0 == l }, "\(strategy) has \(other)'s \(l)")
                }
            }
            // The doc comment names the strategy.
            #expect(source.contains(String(describing: PolicyModule.strategyDoc(strategy))), "\(strategy)")
        }
    }
}
