import PolicySource
import PolicyCheck

/// The scenario language, version 1, as data: the decoder, the JSON Schema and the documentation
/// read it, as they read `Language` for policies. Keys in canonical order.
public enum ScenarioLanguage {
    public static let modes = Scenario.Mode.allCases.map(\.rawValue)
    public static let faultKinds = Scenario.Fault.Kind.allCases.map(\.rawValue)

    public static let fleet: [Field] = [
        Field("clients", .integer(min: 1, max: Scenario.Bounds.maxClients), required: false, title: "Devices",
              help: "How many clients follow the policy, each with its own retry budget (1 to 10000000). Required without groups."),
        Field("callsPerMinute", .decimal(min: 0, max: Scenario.Bounds.maxCallsPerMinute), required: false, title: "Calls per minute per client",
              help: "Each client starts calls (ticket requests) as a Poisson process at this rate: a decimal, such as 0.5. Required without groups."),
        Field("profile", .name, required: false, title: "Retry profile",
              help: "The policy's profile every call uses; by default its first interactive profile (or its first)."),
        Field("groups", .list(.object(group), unique: false), required: false, title: "Groups of clients",
              help: "Instead of clients, callsPerMinute and profile: groups of clients, each with its own rate and profile (devices and backend services, say)."),
    ]

    public static let group: [Field] = [
        Field("name", .name, title: "Group name", help: "Names the group in the results."),
        Field("clients", .integer(min: 1, max: Scenario.Bounds.maxClients), title: "Clients",
              help: "How many clients the group has, each with its own retry budget."),
        Field("callsPerMinute", .decimal(min: 0, max: Scenario.Bounds.maxCallsPerMinute), title: "Calls per minute per client",
              help: "Each client of the group starts calls as a Poisson process at this rate: a decimal, such as 600."),
        Field("profile", .name, required: false, title: "Retry profile",
              help: "The policy's profile the group's calls use; by default its first interactive profile (or its first)."),
    ]

    public static let busy: [Field] = [
        Field("status", .status, required: false, title: "Busy status",
              help: "The status of the busy answer: 503 when absent."),
        Field("retryAfter", .duration, required: false, title: "Busy Retry-After",
              help: "The Retry-After of the busy answer; absent or 0s: none. Without a busy mapping: 1s."),
    ]

    public static let server: [Field] = [
        Field("capacity", .decimal(min: 0, max: Scenario.Bounds.maxCapacity), title: "Capacity",
              help: "Requests the servers answer per second; more than 0."),
        Field("mode", .choice(modes), title: "Overload behaviour",
              help: "shed: a token bucket of one second of capacity, the busy answer at once without a token; queue: one FIFO line served at capacity."),
        Field("latency", .duration, title: "Latency",
              help: "How long an answer takes (shed), or how long after its service an answer arrives (queue)."),
        Field("queueLimit", .integer(min: 0, max: Scenario.Bounds.maxQueueLimit), required: false, title: "Queue limit",
              help: "Queue mode only: a request arriving while this many wait gets the busy answer at once. Absent: no limit."),
        Field("busy", .object(busy), required: false, title: "Busy answer",
              help: "What a request turned away gets: {status: 503, retryAfter: 1s} when absent."),
        Field("rejectCost", .decimal(min: 0, max: 1), required: false, title: "Cost of a refusal",
              help: "What turning a request away costs, as a fraction of serving one (0 to 1), out of the same capacity: 0 when absent."),
    ]

    public static let fault: [Field] = [
        Field("kind", .choice(faultKinds), title: "Kind of fault",
              help: "outage: every request is answered with status (or never); surge: calls start factor times as often; brownout: capacity times factor; reset: every attempt under way at one instant fails with a network error."),
        Field("from", .duration, required: false, title: "Start", help: "When the fault starts, from the start of the run (not for a reset)."),
        Field("to", .duration, required: false, title: "End", help: "When the fault ends (not included); after from, at most the duration (not for a reset)."),
        Field("at", .duration, required: false, title: "Instant",
              help: "Reset only, required: the instant every attempt under way fails, before the end of the run."),
        Field("status", .statusOrNone, required: false, title: "Outage answer",
              help: "Outage only, required: the status every request gets, or none (never answered: the client times out)."),
        Field("retryAfter", .duration, required: false, title: "Outage Retry-After",
              help: "Outage only: the Retry-After of its answers; absent or 0s: none."),
        Field("factor", .decimal(min: 0, max: Scenario.Bounds.maxFactor), required: false, title: "Factor",
              help: "Surge and brownout only, required: how many times the calls (surge) or the capacity (brownout)."),
    ]

    public static let root: [Field] = [
        Field("version", .integer(min: Int.min, max: Int.max), title: "Language version",
              help: "The version of the scenario language; must be 1."),
        Field("scenario", .name, title: "Scenario name",
              help: "Lowercase, camelCase or dash-separated, as a policy name; shown in every result."),
        Field("description", .string, required: false, title: "Description", help: "Free text."),
        Field("duration", .duration, title: "Duration",
              help: "How long the run lasts: whole seconds, from 1s to 24h."),
        Field("seed", .integer(min: 0, max: Values.maxMagnitude), required: false, title: "Seed",
              help: "Seeds the random draws: the same policy, scenario and seed give the same results. 1 when absent."),
        Field("fleet", .object(fleet), title: "Fleet", help: "The clients and how often they call."),
        Field("server", .object(server), title: "Server", help: "How much the servers answer and what they do when overloaded."),
        Field("faults", .list(.object(fault), unique: false), required: false, title: "Faults",
              help: "Windows of time in which something goes wrong: outage, surge or brownout; or an instant: reset."),
    ]

    /// Keys each kind of fault takes.
    static func keys(of kind: Scenario.Fault.Kind) -> [String] {
        switch kind {
        case .outage: return ["kind", "from", "to", "status", "retryAfter"]
        case .surge, .brownout: return ["kind", "from", "to", "factor"]
        case .reset: return ["kind", "at"]
        }
    }

    /// Keys each kind of fault needs.
    static func required(of kind: Scenario.Fault.Kind) -> [String] {
        switch kind {
        case .outage: return ["from", "to", "status"]
        case .surge, .brownout: return ["from", "to", "factor"]
        case .reset: return ["at"]
        }
    }
}

/// The JSON Schema (draft 2020-12) of scenario files, rendered by the policy schema's generator
/// (`policyc schema --scenario`). As for policies, lint-like checks that a schema
/// cannot state well (fault windows within the duration, whole seconds) are left to the loader.
extension ScenarioLanguage {
    public static let schema = LanguageSchema(
        id: "urn:policyc:schema:scenario:1",
        title: "policyc simulation scenario, version 1",
        description: "A fleet of clients, a server and faults in time, for `policyc simulate`. "
            + "`policyc simulate --scenario FILE` is the full check.",
        comment: "Generated by policyc from its scenario language. DO NOT EDIT.",
        fields: root, limits: schemaLimits, usesPolicyDefinitions: true)

    static let schemaLimits = SchemaLimits(
        of: { path in
            switch path {
            case "version": return ["const": .int(1)]
            case "server.capacity": return ["exclusiveMinimum": .int(0)]
            case "fleet.groups": return ["minItems": .int(1), "maxItems": .int(Scenario.Bounds.maxGroups)]
            default: return [:]
            }
        },
        ofObject: { path in
            switch path {
            case "faults[]":
                // Each kind takes its own keys: an outage needs a status, surges and brownouts a factor.
                let kinds = Scenario.Fault.Kind.allCases.map { kind -> JSON in
                    let allowed = ScenarioLanguage.keys(of: kind)
                    let banned = ScenarioLanguage.fault.map(\.key).filter { !allowed.contains($0) }
                    var then: [String: JSON] = ["required": .array(ScenarioLanguage.required(of: kind).map(JSON.string))]
                    if !banned.isEmpty { then["not"] = .object(["anyOf": .array(banned.map { .object(["required": .array([.string($0)])]) })]) }
                    return .object([
                        "if": .object(["properties": .object(["kind": .object(["const": .string(kind.rawValue)])]),
                                       "required": .array([.string("kind")])]),
                        "then": .object(then),
                    ])
                }
                return ["allOf": .array(kinds)]
            case "fleet":
                // Either one group (clients and a rate) or groups, not both.
                return ["oneOf": .array([
                    .object(["required": .array([.string("clients"), .string("callsPerMinute")]),
                             "not": .object(["required": .array([.string("groups")])])]),
                    .object(["required": .array([.string("groups")]),
                             "not": .object(["anyOf": .array(["clients", "callsPerMinute", "profile"].map {
                                 .object(["required": .array([.string($0)])])
                             })])]),
                ])]
            case "server":
                return [
                    "if": .object(["properties": .object(["mode": .object(["const": .string("shed")])]),
                                   "required": .array([.string("mode")])]),
                    "then": .object(["not": .object(["required": .array([.string("queueLimit")])])]),
                ]
            default: return [:]
            }
        })
}
