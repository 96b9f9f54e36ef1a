import Foundation
import Testing
@testable import PolicySource
@testable import PolicyCheck
@testable import PolicySimulation
@testable import PolicyReport
@testable import PolicyCodegen
@testable import TestSupport

/// Scenario files get the policy pipeline's findings: positions, unknown keys with did-you-mean,
/// typed values with units; then the checks between values and the bounds of a run.
@Suite struct SimulationScenarioTests {
    static let base = """
        version: 1
        scenario: peak
        duration: 3m
        seed: 7
        fleet:
          clients: 1000
          callsPerMinute: 0.5
          profile: background
        server:
          capacity: 100
          mode: queue
          latency: 20ms
          queueLimit: 500
          busy: {status: 429, retryAfter: 2s}
        faults:
          - {kind: outage, from: 60s, to: 90s, status: none}
          - {kind: surge, from: 10s, to: 20s, factor: 2.5}
          - {kind: brownout, from: 100s, to: 110s, factor: 0}

        """

    @Test func aFullScenarioLoadsToItsValues() throws {
        let file = ScenarioLoader.load(Array(Self.base.utf8), path: "peak.yaml")
        #expect(file.diagnostics.isEmpty, "\(file.diagnostics.map(\.headline))")
        let s = try #require(file.scenario)
        // Built outside #expect: inside it, this literal took the type checker two seconds.
        let faults: [Scenario.Fault] = [
            Scenario.Fault(kind: .outage, fromMs: 60_000, toMs: 90_000, status: nil),
            Scenario.Fault(kind: .surge, fromMs: 10_000, toMs: 20_000, factor: 2.5),
            Scenario.Fault(kind: .brownout, fromMs: 100_000, toMs: 110_000, factor: 0),
        ]
        let expected = Scenario(
            name: "peak", durationMs: 180_000, seed: 7, clients: 1000, callsPerMinute: 0.5, profile: "background",
            capacity: 100, mode: .queue, latencyMs: 20, queueLimit: 500, busyStatus: 429, busyRetryAfterMs: 2000,
            faults: faults)
        #expect(s == expected)
        #expect(s.normalCallsPerSecond == 1000 * 0.5 / 60)
        // 180 s at the normal rate, plus 1.5 times it for the 10 s surge.
        #expect(abs(s.expectedCalls - (180 + 15) * 1000 * 0.5 / 60) < 1e-9)
    }

    @Test func defaultsAreTheDocumentedOnes() throws {
        let file = ScenarioLoader.load(Array("""
            version: 1
            scenario: bare
            duration: 10s
            fleet: {clients: 1, callsPerMinute: 1}
            server: {capacity: 1, mode: shed, latency: 0ms}
            """.utf8), path: "bare.yaml")
        let s = try #require(file.scenario, "\(file.diagnostics.map(\.headline))")
        #expect(s.seed == 1 && s.profile == nil && s.faults.isEmpty && s.queueLimit == nil)
        #expect(s.busyStatus == 503 && s.busyRetryAfterMs == 1000)
        // A busy mapping without retryAfter means none.
        let written = ScenarioLoader.load(Array("""
            version: 1
            scenario: bare
            duration: 10s
            fleet: {clients: 1, callsPerMinute: 1}
            server: {capacity: 1, mode: shed, latency: 0ms, busy: {status: 429}}
            """.utf8), path: "bare.yaml").scenario
        #expect(written?.busyStatus == 429 && written?.busyRetryAfterMs == 0)
    }

    @Test func builtinScenariosAreCleanAndDocumented() throws {
        #expect(Scenario.builtinNames == ["outage", "surge", "brownout", "spike", "reset", "backlog", "backend"])
        for (name, text) in Scenario.builtinTexts {
            let file = ScenarioLoader.load(Array(text.utf8), path: name)
            #expect(file.diagnostics.isEmpty, "\(name): \(file.diagnostics.map(\.headline))")
            #expect(file.scenario?.name == name)
            // Each refusal costs the servers a fifth of a ticket; peak time is 100 000 devices.
            #expect(file.scenario?.rejectCost == 0.2)
            if file.scenario?.grouped == false { #expect(file.scenario?.clients == 100_000) }
        }
        let standard = Scenario.standard
        #expect(standard.faults == [.init(kind: .outage, fromMs: 60_000, toMs: 90_000, status: 503)])
        #expect(standard.capacity > standard.normalCallsPerSecond && standard.capacity < 1.5 * standard.normalCallsPerSecond)
    }

    /// (replace, with — a ↓ where the finding points, rule, words of the message, help).
    static let mistakes: [(String, String, String, String, String?)] = [
        ("  callsPerMinute: 0.5", "  ↓callsPerMinte: 0.5", "unknown-key", "unknown key 'callsPerMinte' in 'fleet'", "did you mean 'callsPerMinute'?"),
        ("duration: 3m", "duration: ↓3 min", "type-mismatch", "'duration' must be a duration", "write 3m"),
        ("duration: 3m", "duration: ↓180", "type-mismatch", "is a bare number", "write 180ms or 180s"),
        ("duration: 3m", "duration: ↓1500ms", "scenario-limit", "not a whole number of seconds", "write 1s"),
        ("duration: 3m", "duration: ↓25h", "type-mismatch", "longer than a day, the longest duration policyc reads", nil),
        ("  callsPerMinute: 0.5", "  callsPerMinute: ↓1e3", "type-mismatch", "'1e3' is written with an exponent", "write 1000"),
        ("  callsPerMinute: 0.5", "  callsPerMinute: ↓\"0.5\"", "type-mismatch", "found the quoted string '0.5'", "write 0.5 without quotes"),
        ("  callsPerMinute: 0.5", "  callsPerMinute: ↓-1", "type-mismatch", "'callsPerMinute' is -1; it must be 0 or more", nil),
        ("  callsPerMinute: 0.5", "  callsPerMinute: ↓.5", "type-mismatch", "has no digit before its point", "write 0.5"),
        ("  callsPerMinute: 0.5", "  callsPerMinute: ↓1_000", "type-mismatch", "digit separators", "write 1000"),
        ("  callsPerMinute: 0.5", "  callsPerMinute: ↓05", "type-mismatch", "leading zero", "write 5"),
        ("  callsPerMinute: 0.5", "  callsPerMinute: ↓50%", "type-mismatch", "is a percent", "write 0.5"),
        ("  clients: 1000", "  clients: ↓0", "type-mismatch", "'clients' is 0; it must be 1 or more", nil),
        ("status: none}", "status: ↓nope}", "type-mismatch", "neither none nor an HTTP status code", "did you mean 'none'?"),
        ("status: none}", "status: ↓\"503\"}", "type-mismatch", "found the quoted string", "write 503 without quotes"),
        ("status: none}", "status: ↓700}", "type-mismatch", "not an HTTP status code", nil),
        ("  - {kind: outage, from: 60s, to: 90s, status: none}", "  - ↓{kind: outage, from: 60s, to: 90s}",
         "missing-key", "an outage fault lacks the required key 'status'", "add 'status:' with a status such as 503, or none"),
        ("factor: 2.5}", "factor: 2.5, ↓status: 503}", "unknown-key", "'status' is not a key of surge faults",
         "surge faults take kind, from, to and factor"),
        ("  - {kind: surge, from: 10s, to: 20s, factor: 2.5}", "  - ↓{kind: surge, from: 10s, to: 20s}",
         "missing-key", "a surge fault lacks the required key 'factor'", nil),
        ("to: 90s", "to: ↓200s", "scenario-limit", "the fault ends at 200s, after the run (3m)", "end it at 3m at most, or make the run longer"),
        ("to: 90s", "to: ↓50s", "scenario-limit", "the fault ends at 50s, not after it starts (1m)", nil),
        ("kind: outage", "kind: ↓outgae", "type-mismatch", "which is not one of outage, surge, brownout or reset", "did you mean 'outage'?"),
        ("  capacity: 100", "  capacity: ↓0", "scenario-limit", "'capacity' is 0", nil),
        ("  mode: queue", "  mode: shed", "unknown-key", "'queueLimit' is a key of queue mode; this server sheds", "remove it, or write mode: queue"),
        ("  mode: queue", "  mode: ↓drop", "type-mismatch", "which is not one of shed or queue", nil),
        ("scenario: peak", "scenario: ↓Peak_1", "bad-name", "scenario name 'Peak_1' is not a name", nil),
        ("seed: 7", "seed: ↓-1", "type-mismatch", "'seed' is -1; it must be 0 or more", nil),
        ("server:\n  capacity: 100\n  mode: queue\n  latency: 20ms\n", "↓server:\n  capacity: 100\n  mode: queue\n",
         "missing-key", "'server' lacks the required key 'latency'", "add 'latency:' with a duration"),
        ("  - {kind: brownout, from: 100s, to: 110s, factor: 0}", "  - ↓brownout", "type-mismatch", "must be a mapping", nil),
        ("  - {kind: brownout, from: 100s, to: 110s, factor: 0}", "  - ↓{kind: brownout, from: 100s, to: 110s}",
         "missing-key", "a brownout fault lacks the required key 'factor'", "add 'factor:' with a number below 1, such as 0.5 (half the capacity)"),
        ("  - {kind: brownout, from: 100s, to: 110s, factor: 0}", "  - {kind: reset, at: ↓200s}",
         "scenario-limit", "the reset is at 200s, not before the end of the run (3m)", nil),
        ("  - {kind: brownout, from: 100s, to: 110s, factor: 0}", "  - {kind: reset, at: 100s, ↓from: 10s}",
         "unknown-key", "'from' is not a key of reset faults", "reset faults take kind and at"),
        ("  - {kind: brownout, from: 100s, to: 110s, factor: 0}", "  - ↓{kind: reset}",
         "missing-key", "a reset fault lacks the required key 'at'", "add 'at:' with a duration, such as 60s"),
        ("  clients: 1000\n", "  clients: 1000\n  ↓groups: [{name: a, clients: 1, callsPerMinute: 1}]\n",
         "unknown-key", "'clients', 'callsPerMinute' and 'profile' are keys of a fleet without groups", "move them into the groups, or remove groups"),
        ("  busy: {status: 429, retryAfter: 2s}", "  busy: {status: 429, retryAfter: 2s}\n  rejectCost: ↓1.5",
         "type-mismatch", "'rejectCost' is 1.5", nil),
        ("  busy: {status: 429, retryAfter: 2s}", "  busy: {status: 429, ↓retryAfer: 2s}", "unknown-key", "unknown key 'retryAfer' in 'busy'", "did you mean 'retryAfter'?"),
    ]

    @Test(arguments: mistakes.indices)
    func eachMistakeIsOneFindingAtItsPlace(_ index: Int) throws {
        let (old, new, rule, words, help) = Self.mistakes[index]
        #expect(Self.base.contains(old), "no '\(old)' in the base scenario")
        var marked = Self.base.replacingFirst(old, with: new)
        if !marked.contains("↓") {
            // A finding at a key that the edit does not touch (queueLimit in shed mode).
            marked = marked.replacingFirst("  queueLimit:", with: "  ↓queueLimit:")
        }
        let example = Example(marked, triggers: true, note: "")
        let file = ScenarioLoader.load(Array(example.source.utf8), path: "s.yaml")
        #expect(file.scenario == nil)
        #expect(file.diagnostics.count == 1, "\(file.diagnostics.map(\.headline))")
        let d = try #require(file.diagnostics.first)
        #expect(d.rule.rawValue == rule, "\(d.headline)")
        #expect(d.message.contains(words), "\(d.headline)")
        if let help { #expect(d.help == help, "\(String(describing: d.help))") }
        #expect(d.span.start == example.markedPositions.first, "\(d.headline)")
        #expect(d.file == "s.yaml")
    }

    @Test func anotherVersionIsTheOnlyFinding() throws {
        let text = Self.base.replacingFirst("version: 1", with: "version: 2").replacingFirst("  clients: 1000", with: "  clients: many\n  extra: 1")
        let file = ScenarioLoader.load(Array(text.utf8), path: "s.yaml")
        #expect(file.diagnostics.map(\.rule) == ["unsupported-version"])
        #expect(file.diagnostics.first?.message == "version 2 of the scenario language is not supported; this policyc reads version 1")
    }

    @Test func tooManyCallsForOneRunIsRefusedBeforeRunning() throws {
        let text = Self.base.replacingFirst("  clients: 1000", with: "  clients: 10000000")
            .replacingFirst("  callsPerMinute: 0.5", with: "  callsPerMinute: ↓100")
        let example = Example(text, triggers: true, note: "")
        let file = ScenarioLoader.load(Array(example.source.utf8), path: "s.yaml")
        #expect(file.diagnostics.map(\.rule) == ["scenario-limit"])
        #expect(file.diagnostics.first?.message.hasPrefix("the scenario starts about 3250000000 calls; a run simulates at most 50000000") == true)
        #expect(file.diagnostics.first?.span.start == example.markedPositions.first)
    }

    @Test func emptyBrokenAndHostileFilesAreFindingsNotCrashes() throws {
        let empty = ScenarioLoader.load([], path: "e.yaml")
        #expect(empty.diagnostics.map(\.rule) == ["missing-key"])
        #expect(empty.diagnostics.first?.message.hasPrefix("the file holds no scenario") == true)
        #expect(ScenarioLoader.load(Array("version: [1\n".utf8), path: "b.yaml").diagnostics.map(\.rule) == ["yaml-syntax"])
        #expect(ScenarioLoader.load(Array("a: &x 1\nb: *x\n".utf8), path: "h.yaml").diagnostics.contains { $0.rule == "yaml-unsupported" })
        #expect(ScenarioLoader.load([0xFF, 0xFE, 0x00], path: "u.yaml").diagnostics.map(\.rule) == ["input-limit"])
        // Many faults: refused past the bound, each still checked.
        var many = Self.base
        for i in 0..<1001 { many += "  - {kind: surge, from: \(i % 100)s, to: \(i % 100 + 1)s, factor: 1}\n" }
        let crowded = ScenarioLoader.load(Array(many.utf8), path: "m.yaml")
        #expect(crowded.diagnostics.map(\.message) == ["'faults' lists 1004 faults; at most 1000"])
        // The text reporter quotes the line, as lint does.
        let broken = ScenarioLoader.load(Array(Self.base.replacingFirst("duration: 3m", with: "duration: 3 min").utf8), path: "s.yaml")
        #expect(Reporters.text([CheckedFile(path: broken.path, diagnostics: broken.diagnostics, doc: nil, policy: nil, source: broken.source)], color: false) == """
            s.yaml:3:11: error: 'duration' must be a duration: '3 min' has an unknown unit 'min'; units are ms, s, m and h [type-mismatch]
            duration: 3 min
                      ^~~~~
              help: write 3m

            """)
    }

    // MARK: the scenario JSON Schema

    static let pythonReady: Bool = {
        guard GenSupport.which("python3") != nil,
              let run = try? GenSupport.run("python3", ["-c", "import jsonschema, ruamel.yaml"]) else { return false }
        return run.status == 0
    }()

    @Test(.enabled(if: pythonReady || GenSupport.isCI, "python3 with jsonschema and ruamel.yaml is not installed (required when CI=true)"))
    func theScenarioSchemaAcceptsValidFilesAndRefusesWrongOnes() throws {
        try #require(Self.pythonReady, "python3 -m pip install jsonschema ruamel.yaml")
        let dir = try GenSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let schema = dir.appendingPathComponent("scenario.schema.json")
        try GenSupport.write(SchemaGenerator.text(of: ScenarioLanguage.schema), to: schema)
        var expected: [String: Bool] = [:]
        func add(_ name: String, _ text: String, valid: Bool) throws {
            try GenSupport.write(text, to: dir.appendingPathComponent(name))
            expected[name] = valid
            // The schema and the loader agree on each of these.
            #expect((ScenarioLoader.load(Array(text.utf8), path: name).scenario != nil) == valid, "\(name)")
        }
        for (name, text) in Scenario.builtinTexts { try add("builtin-\(name).yaml", text, valid: true) }
        try add("full.yaml", Self.base, valid: true)
        try add("unknown-key.yaml", Self.base.replacingFirst("  callsPerMinute:", with: "  callsPerMinte:"), valid: false)
        try add("outage-without-status.yaml", Self.base.replacingFirst(", status: none}", with: "}"), valid: false)
        try add("surge-with-status.yaml", Self.base.replacingFirst("factor: 2.5}", with: "factor: 2.5, status: 503}"), valid: false)
        try add("queue-limit-when-shedding.yaml", Self.base.replacingFirst("mode: queue", with: "mode: shed"), valid: false)
        try add("capacity-zero.yaml", Self.base.replacingFirst("capacity: 100", with: "capacity: 0"), valid: false)
        try add("bad-status.yaml", Self.base.replacingFirst("status: none}", with: "status: nothing}"), valid: false)
        try add("version-2.yaml", Self.base.replacingFirst("version: 1", with: "version: 2"), valid: false)
        try add("negative-rate.yaml", Self.base.replacingFirst("callsPerMinute: 0.5", with: "callsPerMinute: -1"), valid: false)
        let names = expected.keys.sorted()
        let run = try GenSupport.run("python3", [GenSupport.fixtures.appendingPathComponent("validate.py").path, schema.path]
            + names.map { dir.appendingPathComponent($0).path })
        #expect(run.status == 0, "\(run.stderr)")
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "schema ok")
        for name in names {
            let path = dir.appendingPathComponent(name).path
            let line = lines.first { $0.hasPrefix("valid \(path)") || $0.hasPrefix("invalid \(path)") } ?? "no line for \(name)"
            #expect(line.hasPrefix(expected[name]! ? "valid " : "invalid "), "\(line)")
        }
    }

    @Test func everyScenarioKeyHasATitleAndADescription() {
        func walk(_ fields: [Field], _ path: String) {
            for f in fields {
                #expect(!f.title.isEmpty && !f.help.isEmpty, "\(path)\(f.key)")
                if case .object(let inner) = f.shape { walk(inner, path + f.key + ".") }
                if case .list(.object(let inner), _) = f.shape { walk(inner, path + f.key + "[].") }
            }
        }
        walk(ScenarioLanguage.root, "")
        #expect(SchemaGenerator.text(of: ScenarioLanguage.schema).contains("\"$id\": \"urn:policyc:schema:scenario:1\""))
    }
}
