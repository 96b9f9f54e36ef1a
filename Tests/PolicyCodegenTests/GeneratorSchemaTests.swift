import Foundation
import Testing
@testable import PolicySource
@testable import PolicyCheck
@testable import PolicyCodegen
@testable import TestSupport

@Suite struct GeneratorSchemaTests {
    static let pythonReady: Bool = {
        guard GenSupport.which("python3") != nil,
              let run = try? GenSupport.run("python3", ["-c", "import jsonschema, ruamel.yaml"]) else { return false }
        return run.status == 0
    }()

    static func fixtures(_ kind: String) throws -> [URL] {
        let dir = GenSupport.fixtures.appendingPathComponent(kind)
        return try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".yaml") }.sorted()
            .map { dir.appendingPathComponent($0) }
    }

    /// Rules that the loader and decoder report; the others only once they are in the catalog.
    static let structural: Set<String> = ["yaml-syntax", "yaml-unsupported", "yaml-duplicate-key", "input-limit",
                                          "unknown-key", "missing-key", "type-mismatch"]

    /// A policy that extends another, or a base (`abstract: true`), may leave any key to the other,
    /// as lint lets it: the schema requires keys only of a policy that does neither, and its limits
    /// still hold for what a child writes (a list, written whole, keeps its items' keys).
    @Test(.enabled(if: pythonReady || GenSupport.isCI, "python3 with jsonschema and ruamel.yaml is not installed (required when CI=true)"))
    func inheritingPoliciesLeaveKeysToTheirParents() throws {
        try #require(Self.pythonReady, "python3 -m pip install jsonschema ruamel.yaml")
        let dir = try GenSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let root = GenSupport.packageRoot
        let files: [(name: String, text: String, valid: Bool)] = [
            ("child.yaml", "extends: playback.yaml\nretry:\n  profiles:\n    interactive:\n      maxRetries: 2\n", true),
            ("base.yaml", "version: 1\nabstract: true\nretry:\n  budget:\n    ratio: 5%\n", true),
            ("alone.yaml", "version: 1\npolicy: alone\nretry:\n  profiles:\n    interactive:\n      maxRetries: 2\n", false),
            ("louder.yaml", "extends: playback.yaml\nretry:\n  profiles:\n    interactive:\n      kind: interactive\n      maxRetries: 5\n", false),
            ("halfpair.yaml", "extends: playback.yaml\nretry:\n  neverRetry:\n    - status: 404\n", false),
        ]
        try Data(contentsOf: root.appendingPathComponent("Policies/playback.yaml")).write(to: dir.appendingPathComponent("playback.yaml"))
        for file in files { try Data(file.text.utf8).write(to: dir.appendingPathComponent(file.name)) }
        let arguments: [String] = [GenSupport.fixtures.appendingPathComponent("validate.py").path,
                                   root.appendingPathComponent("Generated/policy.schema.json").path]
            + files.map { dir.appendingPathComponent($0.name).path }
        let run = try GenSupport.run("python3", arguments)
        let lines = run.stdout.split(separator: "\n").map(String.init)
        let policyc = try #require(GenSupport.policyc)
        for file in files {
            let path = dir.appendingPathComponent(file.name).path
            #expect(lines.contains { $0 == "valid " + path || $0.hasPrefix("invalid " + path + ":") })
            #expect(lines.contains("valid " + path) == file.valid, "\(file.name): \(lines.filter { $0.contains(path) })")
            let lint = try GenSupport.run(policyc.path, ["lint", path])
            #expect((lint.status == 0) == file.valid, "lint \(file.name): \(lint.stdout)\(lint.stderr)")
        }
    }

    /// An independent validator (Python jsonschema, YAML 1.2 by ruamel.yaml) accepts every policy of
    /// Policies/ and every valid fixture, refuses every invalid one, and the schema is valid under the
    /// draft 2020-12 metaschema. Lint agrees on each fixture.
    @Test(.enabled(if: pythonReady || GenSupport.isCI, "python3 with jsonschema and ruamel.yaml is not installed (required when CI=true)"))
    func independentValidatorAgreesWithLint() throws {
        try #require(Self.pythonReady, "python3 -m pip install jsonschema ruamel.yaml")
        let root = GenSupport.packageRoot
        let schema = root.appendingPathComponent("Generated/policy.schema.json")
        let policies = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("Policies").path)
            .filter { $0.hasSuffix(".yaml") || $0.hasSuffix(".yml") }.map { root.appendingPathComponent("Policies/" + $0) }
        let valid: [URL] = try Self.fixtures("valid") + policies, invalid: [URL] = try Self.fixtures("invalid")
        #expect(valid.count >= 4 && invalid.count >= 30)
        let arguments: [String] = [GenSupport.fixtures.appendingPathComponent("validate.py").path, schema.path]
            + (valid + invalid).map(\.path)
        let run = try GenSupport.run("python3", arguments)
        #expect(run.status == 0, "\(run.stderr)")
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "schema ok")
        for url in valid {
            #expect(lines.contains("valid " + url.path), "\(lines.first { $0.contains(url.path) } ?? url.path)")
            let checked = Checker.check(Array(try Data(contentsOf: url)), path: url.lastPathComponent)
            #expect(checked.errorCount == 0, "\(checked.diagnostics.map(\.headline))")
        }
        for url in invalid {
            #expect(lines.contains { $0.hasPrefix("invalid " + url.path + ":") }, "schema accepts \(url.lastPathComponent)")
            let text = try String(contentsOf: url, encoding: .utf8)
            let rule = try #require(text.split(separator: "\n").first?.split(separator: " ").last.map(String.init))
            if Self.structural.contains(rule) || Catalog.rule(named: rule) != nil {
                let checked = Checker.check(Array(text.utf8), path: url.lastPathComponent)
                #expect(checked.diagnostics.contains { $0.rule.rawValue == rule }, "\(url.lastPathComponent): lint gives \(checked.diagnostics.map(\.rule))")
            }
        }
    }

    @Test func schemaCommandAndGeneratedFileAreTheSameBytes() throws {
        let committed = try Data(contentsOf: GenSupport.packageRoot.appendingPathComponent("Generated/policy.schema.json"))
        #expect(String(decoding: committed, as: UTF8.self) == SchemaGenerator.text)
        let binary = try #require(GenSupport.policyc, "policyc is not built")
        let run = try GenSupport.run(binary.path, ["schema"])
        #expect(run.status == 0 && run.stdout == SchemaGenerator.text)
    }

    @Test func everyKeyHasATitleAndADescription() {
        func walk(_ json: JSON, _ path: String) {
            guard case .object(let members) = json else {
                if case .array(let items) = json { for (i, item) in items.enumerated() { walk(item, "\(path)[\(i)]") } }
                return
            }
            // Key declarations; the `properties` of an if/then limit only restate some keys.
            if members["type"] == .string("object"), case .object(let properties)? = members["properties"] {
                for (key, value) in properties {
                    guard case .object(let p) = value else { Issue.record("\(path).\(key) is not a schema"); continue }
                    #expect(p["title"] != nil && p["description"] != nil, "\(path).\(key)")
                }
            }
            if members["type"] == .string("object"), members["properties"] != nil {
                #expect(members["additionalProperties"] == .bool(false), "\(path)")
            }
            for (k, v) in members { walk(v, path + "/" + k) }
        }
        walk(SchemaGenerator.schema, "#")
    }

    // The schema's patterns must never refuse what lint accepts, nor accept what it refuses.

    static let wholes = ["0", "00", "1", "01", "4", "5", "6", "9", "10", "16", "59", "60", "100", "299", "300", "301", "999",
                         "1000", "1001", "4999", "5000", "299999", "300000",
                         // About a day, the longest duration, in each unit.
                         "23", "24", "25", "1439", "1440", "1441", "86399", "86400", "86401", "86399999", "86400000", "86400001",
                         "0086400000", "186400"]
    static let fractions: [String] = {
        var out = ["", ".", ".0", ".00", ".000000", ".0166", ".01665", ".016666", ".01667", ".0167", ".0002", ".00027",
                   ".000277", ".0002777", ".00028", ".0001", ".12345", ".123455", ".1234525", ".1234575", ".1234550",
                   ".1234565", ".123456", ".12345678", ".5000", ".25", ".0125", ".0013925", ".08335", ".000001", ".0000010",
                   ".0833", ".08333", ".083335", ".0834", ".08334", ".00138", ".00139", ".001388", ".0013888", ".0013889",
                   ".00138885", ".0013885", ".99999", ".999"]
        let digits = ["0", "1", "2", "5", "6", "7", "9"]
        for a in digits {
            out.append("." + a)
            for b in digits {
                out.append("." + a + b)
                for c in digits { out.append("." + a + b + c) }
            }
        }
        return out
    }()

    @Test func durationPatternsAgreeWithLint() throws {
        let duration = try Regex(Patterns.duration), zero = try Regex(Patterns.zeroDuration),
            atMostOneSecond = try Regex(Patterns.atMostOneSecond),
            atLeast5s = try Regex(Patterns.atLeast(ms: 5_000)), atLeast5m = try Regex(Patterns.atLeast(ms: 300_000))
        var count = 0
        for w in Self.wholes {
            for f in Self.fractions {
                for unit in ["ms", "s", "m", "h", "", "x"] {
                    let s = w + f + unit
                    count += 1
                    var lint: Int?
                    if case .value(let ms) = Values.duration(s) { lint = ms }
                    let isDuration = try duration.wholeMatch(in: s) != nil
                    #expect(isDuration == (lint != nil), "\(s): schema \(isDuration), lint \(String(describing: lint))")
                    guard let ms = lint else { continue }
                    #expect((try zero.wholeMatch(in: s) != nil) == (ms == 0), "\(s) = \(ms) ms")
                    #expect((try atMostOneSecond.wholeMatch(in: s) != nil) == (ms <= 1000), "\(s) = \(ms) ms")
                    #expect((try atLeast5s.wholeMatch(in: s) != nil) == (ms >= 5_000), "\(s) = \(ms) ms")
                    #expect((try atLeast5m.wholeMatch(in: s) != nil) == (ms >= 300_000), "\(s) = \(ms) ms")
                }
            }
        }
        #expect(count > 10_000)
    }

    @Test func percentPatternsAgreeWithLint() throws {
        let percent = try Regex(Patterns.percent), atMost10 = try Regex(Patterns.percentAtMost10)
        for w in Self.wholes + ["99", "010", "11", "0100", "101", " 10", "  0", "-1", "+5"] {
            for f in Self.fractions {
                for suffix in ["%", " %", ""] {
                    let s = w + f + suffix
                    var lint: Double?
                    if case .value(let p) = Values.percent(s) { lint = p.percent }
                    #expect((try percent.wholeMatch(in: s) != nil) == (lint != nil), "\(s): lint \(String(describing: lint))")
                    if let p = lint {
                        #expect((try atMost10.wholeMatch(in: s) != nil) == (p <= 10), "\(s)")
                    }
                }
            }
        }
    }

    /// Every profile name the schema refuses as reserved is one lint refuses too (and lint
    /// refuses the keyword and member spellings the schema lists).
    @Test func reservedProfileNamesAreExactlyReserved() {
        #expect(Limits.reservedProfileNames.count > 100)
        for name in Limits.reservedProfileNames {
            #expect(Values.isName(name) && Limits.isReservedProfileName(name), "\(name)")
        }
        for name in ["init", "self", "budget-ratio", "budgetRatio", "is-retryable", "all-profiles", "will-set", "retry-on-network-error"] {
            #expect(Limits.reservedProfileNames.contains(name), "\(name)")
        }
        for name in ["interactive", "background", "retry", "value", "ticket-play"] {
            #expect(!Limits.reservedProfileNames.contains(name), "\(name)")
        }
    }
}
