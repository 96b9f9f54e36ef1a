import Foundation
import Testing
@testable import PolicySource
@testable import PolicyCheck
@testable import PolicyCodegen
@testable import PolicyFormat
@testable import TestSupport

/// Over every YAML file of the repository and the fuzzers' corpus: formatting is idempotent and
/// never changes what a file means (its findings, its generated code), and refuses only what
/// lint refuses as YAML.
@Suite struct MeaningTests {
    /// What a policy means to policyc: its findings (positions aside) and its generated files.
    static func meaning(_ bytes: [UInt8]) -> [String] {
        let options = CheckOptions(today: Day(year: 2026, month: 12, day: 1))
        let file = Checker.check(bytes, path: "Policies/p.yaml", options: options)
        // Positions named in messages ("the first is at line 6") move with the text.
        let positions = try! NSRegularExpression(pattern: "(line|column) [0-9]+")
        let findings = file.diagnostics.map { d in
            let text = "\(d.rule) \(d.severity) \(d.message) | \(d.help ?? "")"
            return positions.stringByReplacingMatches(in: text, range: NSRange(text.startIndex..., in: text), withTemplate: "$1 N")
        }.sorted()
        let generated = file.policy.map { policy in
            Generator.files(for: [policy]).map { $0.path + "\n" + String(decoding: $0.bytes, as: UTF8.self) }
        } ?? []
        return findings + generated
    }

    static func texts(_ folders: [String]) -> [(String, [UInt8])] {
        folders.flatMap { Corpus.files(in: $0) }.compactMap { url in
            (try? Data(contentsOf: url)).map { (url.lastPathComponent, [UInt8]($0)) }
        }
    }

    static func check(_ name: String, _ bytes: [UInt8]) {
        switch PolicyFormatter.format(bytes) {
        case .refused(let refusal):
            // Refused only when lint finds the file is no YAML a policy may be.
            let loaded = Loader.load(bytes)
            #expect(!loaded.diagnostics.isEmpty, "\(name) refused: \(refusal.message)")
        case .formatted(let once):
            #expect(PolicyFormatter.format(once) == .formatted(once), "\(name) is not formatted the same twice")
            let (a, b) = (meaning(once), meaning(bytes))
            #expect(a == b, "\(name) means something else once formatted: \(Set(a).symmetricDifference(b).sorted().prefix(4))")
            #expect(once.drop { $0 >= 0xBB }.isEmpty || once.last == 0x0A || once.last == 0x0D, "\(name) ends without a line break")
        }
    }

    @Test func canonicalPolicyIsAlreadyFormatted() {
        let bytes = Array(Canonical.text.utf8)
        #expect(PolicyFormatter.format(bytes) == .formatted(bytes))
    }

    @Test func repositoryPoliciesKeepTheirMeaning() {
        let files = Self.texts(["Policies", "Examples/KotlinConsumer/Policies", "Tests/Fixtures/Schema/valid",
                                "Tests/Fixtures/Schema/invalid", "Tests/Fixtures/Crashes", "Fuzz/corpus/examples",
                                "Fuzz/corpus/hostile"])
        #expect(files.count > 200)
        for (name, bytes) in files { Self.check(name, bytes) }
    }

    @Test func ruleExamplesKeepTheirMeaning() {
        for rule in Catalog.rules {
            for (i, example) in rule.examples.enumerated() {
                Self.check("\(rule.id) #\(i + 1)", Array(example.source.utf8))
            }
        }
    }

    /// The fuzzers' inputs are far from policies (a flow mapping of long plain keys over many
    /// lines): formatting may refuse a few that it cannot lay out without a doubt (the check
    /// before the result is given, `SameMeaning`), never change what one means.
    @Test func fuzzCorpusKeepsItsMeaning() {
        let files = Self.texts(["Fuzz/corpus/kept"])
        #expect(files.count > 1000)
        var unsure: [String] = []
        for (name, bytes) in files {
            if case .refused(let refusal) = PolicyFormatter.format(bytes), Loader.load(bytes).diagnostics.isEmpty {
                #expect(refusal.message.hasPrefix("formatting would change"))
                unsure.append(name)
            } else {
                Self.check(name, bytes)
            }
        }
        #expect(unsure.count * 200 < files.count, "refused: \(unsure)")
    }
}

/// `lint --fix` leaves a formatted file formatted (`keepingLayout`): the catalog's examples of
/// fixes, which start from the canonical policy, are what it writes.
@Suite struct FixLayoutTests {
    @Test func fixesOfTheCatalogKeepTheirLayout() {
        for rule in Catalog.rules {
            for (i, example) in rule.examples.enumerated() {
                let source = Array(example.source.utf8)
                for (unsafe, expected) in [(false, example.expectedSafe), (true, example.expectedUnsafe)] {
                    let fixed = Fixer.fix(source, path: "playback.yaml", unsafe: unsafe, options: example.options).bytes
                    let kept = PolicyFormatter.keepingLayout(of: source, fixed: fixed)
                    #expect(String(decoding: kept, as: UTF8.self) == expected, "\(rule.id) #\(i + 1)\(unsafe ? " unsafe" : "")")
                }
            }
        }
    }
}
