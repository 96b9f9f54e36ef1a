import PolicySource
import PolicyCheck

/// A scenario file after loading: its findings, and the scenario when it has no error.
public struct ScenarioFile: Sendable {
    /// The path as given, or `built-in NAME`.
    public var path: String
    public var diagnostics: [Diagnostic]
    public var scenario: Scenario?
    /// The bytes (the text reporter quotes the line of a finding).
    public var source: [UInt8]
    /// Where each group's `profile` is written, in the order of the groups (nil: not written).
    public var profileSpans: [Span?] = []

    public var errorCount: Int { diagnostics.count { $0.severity == .error } }
}

/// Bytes → `Scenario`, with the policy pipeline's loader and decoder, so scenario files get the
/// same findings as policies: positions, unknown keys with did-you-mean, typed values with units.
/// Then the checks between values (fault windows within the duration, keys of each fault kind) and
/// the bounds that keep a run small (`Scenario.Bounds`), each a finding at the value concerned.
public enum ScenarioLoader {
    /// The rule id of a scenario value outside what a run allows, or at odds with another value.
    public static let limitRule: RuleID = "scenario-limit"

    public static func load(_ bytes: [UInt8], path: String) -> ScenarioFile {
        var checker = ScenarioChecker()
        let scenario = checker.check(bytes)
        var diagnostics = checker.diagnostics
        for i in diagnostics.indices { diagnostics[i].file = path }
        diagnostics.sortForReport()
        let failed = diagnostics.contains { $0.severity == .error }
        return ScenarioFile(path: path, diagnostics: diagnostics, scenario: failed ? nil : scenario,
                            source: bytes, profileSpans: checker.profileSpans)
    }
}

struct ScenarioChecker {
    var diagnostics: [Diagnostic] = []
    var profileSpans: [Span?] = []

    mutating func check(_ bytes: [UInt8]) -> Scenario? {
        let loaded = Loader.load(bytes)
        diagnostics = loaded.diagnostics
        guard loaded.decodable else { return nil }
        guard let root = loaded.root, !root.isNull else {
            fail(RuleID.missingKey, at: Span(.start),
                 "the file holds no scenario; a scenario needs the keys version, scenario, duration, fleet and server",
                 help: "start from a built-in scenario (see 'policyc simulate --help')")
            return nil
        }
        var decoder = PolicyDecoder()
        decoder.room = max(0, Loader.maxFindings - diagnostics.count)
        let decoded = decoder.decode(root, as: .object(ScenarioLanguage.root), key: .plain("the scenario"),
                                     owner: .plain("the scenario"), keySpan: nil)
        if let version = decoded?["version"], case .integer(let v) = version.value, v != 1 {
            // Another version may mean other keys: saying more would only be noise.
            fail(RuleID.unsupportedVersion, at: version.span,
                 "version \(v) of the scenario language is not supported; this policyc reads version 1",
                 help: "write version: 1")
            return nil
        }
        diagnostics += decoder.diagnostics
        guard let decoded else { return nil }
        return scenario(decoded)
    }

    /// The checks between values, and the scenario when every value is there.
    mutating func scenario(_ root: Decoded) -> Scenario? {
        let name = root["scenario"].flatMap(\.string)
        if let name, !Values.isName(name.value) {
            fail(RuleID.badName, at: name.span,
                 "scenario name '\(printable(name.value))' is not a name: \(Values.nameProblem(name.value))",
                 help: "a name looks like outage, peak-hour or surge3x")
        }
        let duration = runDuration(root)
        let fleet = root["fleet"]
        let clients = fleet?["clients"].flatMap(\.int)
        let rate = fleet?["callsPerMinute"].flatMap(\.decimal)
        let profile = fleet?["profile"].flatMap(\.string)
        let (groups, groupsComplete) = fleet.map { readGroups($0, key: root.entry("fleet")?.keySpan ?? $0.span) } ?? (nil, true)
        let server = root["server"]
        let capacity = server?["capacity"].flatMap(\.decimal)
        if let c = capacity, c.value <= 0 {
            limit(at: c.span, "'capacity' is 0; the servers must answer something",
                  help: "a brownout with factor 0 takes all capacity away for a while")
        }
        let mode = server?["mode"].flatMap(\.string).flatMap { Scenario.Mode(rawValue: $0.value) }
        let latency = server?["latency"].flatMap(\.duration)
        if mode == .shed, let entry = server?.entry("queueLimit") {
            fail(RuleID.unknownKey, at: entry.keySpan, "'queueLimit' is a key of queue mode; this server sheds",
                 help: "remove it, or write mode: queue")
        }
        let busy = server?["busy"]
        let (faults, faultsComplete) = readFaults(root, durationMs: duration?.value)
        guard !diagnostics.contains(where: { $0.severity == .error }),
              let name, let duration, groups != nil || (clients != nil && rate != nil), groupsComplete,
              let capacity, let mode, let latency,
              server?.failedKeys.contains("busy") != true, faultsComplete
        else { return nil }
        var scenario = Scenario(
            name: name.value, description: root["description"].flatMap(\.string)?.value, durationMs: duration.value,
            seed: UInt64(root["seed"].flatMap(\.int)?.value ?? 1), clients: clients?.value ?? 1, callsPerMinute: rate?.value ?? 0,
            profile: profile?.value, capacity: capacity.value, mode: mode, latencyMs: latency.value,
            queueLimit: server?["queueLimit"].flatMap(\.int)?.value, busyStatus: busy?["status"].flatMap(\.int)?.value ?? 503,
            // A busy mapping written without retryAfter has none; no busy mapping at all: 1 s.
            busyRetryAfterMs: busy == nil ? 1000 : busy?["retryAfter"].flatMap(\.duration)?.value ?? 0,
            rejectCost: server?["rejectCost"].flatMap(\.decimal)?.value ?? 0,
            faults: faults)
        if let groups { scenario = scenario.with(groups: groups) }
        if let list = fleet?["groups"], case .list(let items) = list.value {
            profileSpans = items.map { $0["profile"]?.span }
        } else {
            profileSpans = [profile?.span]
        }
        let expected = scenario.expectedCalls
        if expected > Scenario.Bounds.maxExpectedCalls {
            limit(at: rate?.span ?? fleet?.span ?? Span(.start),
                  "the scenario starts about \(Int(expected.rounded())) calls; a run simulates at most \(Int(Scenario.Bounds.maxExpectedCalls))",
                  help: "fewer clients, fewer calls per minute, or a shorter duration")
            return nil
        }
        return scenario
    }

    /// The run's `duration`, when it is whole seconds within the bounds.
    mutating func runDuration(_ root: Decoded) -> Located<Int>? {
        guard let d = root["duration"].flatMap(\.duration) else { return nil }
        if d.value < 1000 || d.value > Scenario.Bounds.maxDurationMs {
            limit(at: d.span, "'duration' is \(Format.duration(d.value)); a run lasts from 1s to 24h")
            return nil
        }
        if d.value % 1000 != 0 {
            limit(at: d.span, "'duration' is \(Format.duration(d.value)), not a whole number of seconds",
                  help: "write \(Format.duration(d.value / 1000 * 1000))")
            return nil
        }
        return d
    }

    /// The fleet's `groups` when it lists them, and whether every group read; without groups, the
    /// fleet's own keys are checked for.
    mutating func readGroups(_ fleet: Decoded, key fleetKey: Span) -> (groups: [Scenario.Group]?, complete: Bool) {
        guard case .object = fleet.value else { return (nil, true) }
        guard let list = fleet["groups"], case .list(let items) = list.value else {
            // A misspelt key was already reported with its did-you-mean: once is enough.
            if !fleet.failedKeys.contains("groups"),
               !diagnostics.contains(where: { $0.rule == RuleID.unknownKey && fleet.span.start <= $0.span.start && $0.span.end <= fleet.span.end }) {
                for key in ["clients", "callsPerMinute"] where fleet.entry(key) == nil && !fleet.failedKeys.contains(key) {
                    let field = ScenarioLanguage.fleet.first { $0.key == key }!
                    fail(RuleID.missingKey, at: fleetKey,
                         "'fleet' lacks the required key '\(key)' (\(field.title.lowercased()))",
                         help: "add '\(key):' with \(field.shape.expectation), or list groups")
                }
            }
            return (nil, true)
        }
        var complete = list.complete && !fleet.failedKeys.contains("groups")
        // One group's keys beside groups: which group would they be?
        let beside = ["clients", "callsPerMinute", "profile"].filter { fleet.entry($0) != nil }
        if !beside.isEmpty, let key = fleet.entry("groups")?.keySpan {
            fail(RuleID.unknownKey, at: key,
                 "\(Wording.list(beside.map { "'\($0)'" })) \(beside.count == 1 ? "is a key" : "are keys") of a fleet without groups; with groups, each group has its own",
                 help: "move \(beside.count == 1 ? "it" : "them") into the groups, or remove groups")
        }
        if items.count > Scenario.Bounds.maxGroups {
            limit(at: list.span, "'groups' lists \(items.count) groups; at most \(Scenario.Bounds.maxGroups)")
        }
        var found: [Scenario.Group] = []
        for item in items {
            guard let name = item["name"].flatMap(\.string), let n = item["clients"].flatMap(\.int),
                  let r = item["callsPerMinute"].flatMap(\.decimal), item.failedKeys.isEmpty else {
                complete = false
                continue
            }
            if !Values.isName(name.value) {
                fail(RuleID.badName, at: name.span,
                     "group name '\(printable(name.value))' is not a name: \(Values.nameProblem(name.value))",
                     help: "a name looks like devices or backend-services")
            } else if found.contains(where: { $0.name == name.value }) {
                limit(at: name.span, "two groups are named '\(printable(name.value))'; each group needs its own name")
            }
            found.append(Scenario.Group(name: name.value, clients: n.value, callsPerMinute: r.value,
                                        profile: item["profile"].flatMap(\.string)?.value))
        }
        if found.reduce(0, { $0 + $1.clients }) > Scenario.Bounds.maxClients {
            limit(at: list.span, "the groups hold \(found.reduce(0) { $0 + $1.clients }) clients; a run has at most \(Scenario.Bounds.maxClients)")
        }
        return (found, complete)
    }

    /// The scenario's `faults`, and whether every fault read.
    mutating func readFaults(_ root: Decoded, durationMs: Int?) -> (faults: [Scenario.Fault], complete: Bool) {
        var faults: [Scenario.Fault] = []
        var complete = !root.failedKeys.contains("faults")
        guard let list = root["faults"], case .list(let items) = list.value else { return (faults, complete) }
        complete = complete && list.complete
        if items.count > Scenario.Bounds.maxFaults {
            limit(at: list.span, "'faults' lists \(items.count) faults; at most \(Scenario.Bounds.maxFaults)")
        }
        for item in items {
            if let f = fault(item, durationMs: durationMs) { faults.append(f) } else { complete = false }
        }
        return (faults, complete)
    }

    /// One item of `faults`, checked against its kind; nil when it has an error or lacks a value.
    mutating func fault(_ item: Decoded, durationMs: Int?) -> Scenario.Fault? {
        guard case .object(let entries) = item.value else { return nil }
        let kind = item["kind"].flatMap(\.string).flatMap { Scenario.Fault.Kind(rawValue: $0.value) }
        var ok = item.failedKeys.isEmpty
        if let kind {
            let allowed = ScenarioLanguage.keys(of: kind)
            for e in entries where !allowed.contains(e.key) {
                fail(RuleID.unknownKey, at: e.keySpan, "'\(e.key)' is not a key of \(kind.rawValue) faults",
                     help: "\(kind.rawValue) faults take \(Wording.list(allowed))")
                ok = false
            }
            for needed in ScenarioLanguage.required(of: kind) where item.entry(needed) == nil && !item.failedKeys.contains(needed) {
                let help: String
                switch needed {
                case "status": help = "add 'status:' with a status such as 503, or none"
                case "factor": help = kind == .brownout ? "add 'factor:' with a number below 1, such as 0.5 (half the capacity)"
                    : "add 'factor:' with a number such as 2"
                default: help = "add '\(needed):' with a duration, such as 60s"
                }
                fail(RuleID.missingKey, at: item.span, "\(kind == .outage ? "an" : "a") \(kind.rawValue) fault lacks the required key '\(needed)'",
                     help: help)
                ok = false
            }
        }
        if kind == .reset, let at = item["at"].flatMap(\.duration) {
            if let durationMs, at.value >= durationMs {
                limit(at: at.span, "the reset is at \(Format.duration(at.value)), not before the end of the run (\(Format.duration(durationMs)))")
                return nil
            }
            guard ok else { return nil }
            return Scenario.Fault(kind: .reset, fromMs: at.value, toMs: at.value)
        }
        let from = item["from"].flatMap(\.duration), to = item["to"].flatMap(\.duration)
        if let from, let to {
            if to.value <= from.value {
                limit(at: to.span, "the fault ends at \(Format.duration(to.value)), not after it starts (\(Format.duration(from.value)))")
                ok = false
            } else if let durationMs, to.value > durationMs {
                limit(at: to.span, "the fault ends at \(Format.duration(to.value)), after the run (\(Format.duration(durationMs)))",
                      help: "end it at \(Format.duration(durationMs)) at most, or make the run longer")
                ok = false
            }
        }
        guard ok, let kind, let from, let to else { return nil }
        var status: Int?
        if let s = item["status"] {
            switch s.value {
            case .integer(let v): status = v
            default: status = nil   // none
            }
        }
        return Scenario.Fault(kind: kind, fromMs: from.value, toMs: to.value, status: status,
                              retryAfterMs: item["retryAfter"].flatMap(\.duration)?.value ?? 0,
                              factor: item["factor"].flatMap(\.decimal)?.value ?? 1)
    }

    mutating func limit(at span: Span, _ message: String, help: String? = nil) {
        fail(ScenarioLoader.limitRule, at: span, message, help: help)
    }

    mutating func fail(_ rule: RuleID, at span: Span, _ message: String, help: String? = nil) {
        guard diagnostics.count < Loader.maxFindings else { return }
        diagnostics.append(Diagnostic(span: span, severity: .error, rule: rule, message: message, help: help))
    }
}

extension Decoded {
    var decimal: Located<Double>? { if case .decimal(let v) = value { return Located(v, span) }; return nil }

    func entry(_ key: String) -> DecodedEntry? {
        guard case .object(let entries) = value else { return nil }
        return entries.first { sameText($0.key, key) }
    }
}

extension ScenarioFile {
    /// A group's profile that `policy` does not have, as a finding where the scenario names it,
    /// with a did-you-mean; nil when every group's profile (or the default) is there.
    public func profileFinding(for policy: Policy) -> Diagnostic? {
        guard let scenario else { return nil }
        let names = policy.profiles.map(\.name)
        for (g, group) in scenario.groups.enumerated() {
            guard let wanted = group.profile, !names.contains(wanted),
                  g < profileSpans.count, let span = profileSpans[g] else { continue }
            let help = Suggest.nearest(wanted, in: names).map { Suggest.didYouMean(wanted, $0) }
                ?? "its profiles are \(Wording.list(names.map { "'\(printable($0))'" }))"
            return Diagnostic(file: path, span: span, severity: .error, rule: ScenarioLoader.limitRule,
                              message: "policy '\(printable(policy.name))' (\(printable(policy.file))) has no profile '\(printable(wanted))'",
                              help: help)
        }
        return nil
    }
}
