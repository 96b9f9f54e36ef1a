import PolicySource
import PolicyCheck

/// The scenarios `simulate --scenario NAME` knows by name: peak time as the guide describes it
/// ("when traffic peaks"), with one thing going wrong in each. Written as scenario files and read
/// by the same loader, so each is also an example of the format.
///
/// Peak time: 100 000 devices, each starting a ticket call every two minutes (a viewer starting
/// an episode), 833 calls a second; servers that answer 1 000 a second — a fifth more than that —
/// in 50 ms, and that shed the rest with 503 and Retry-After, as "What Wandura does when it is
/// busy" says. A refusal costs a fifth of serving a ticket (`rejectCost: 0.2`): turning a request
/// away still takes its connection, TLS and HTTP work, while a ticket adds a lookup and a
/// signature ("Handling Overload", Google SRE book: rejecting is cheaper than serving, not free).
/// `outage` is the standard scenario of `diff` and `explain`. Together they are chosen so that
/// breaking any one rule of the guide makes a headline figure clearly worse in at least one of
/// them (Docs/simulate.md, "What each rule protects, in numbers").
extension Scenario {
    public static let builtinTexts: [(name: String, text: String)] = [
        ("outage", """
            version: 1
            scenario: outage
            description: A 30 s outage at peak time; every request in it is answered 503 without Retry-After.
            duration: 3m
            seed: 1
            fleet:
              clients: 100000
              callsPerMinute: 0.5
            server:
              capacity: 1000
              mode: shed
              latency: 50ms
              busy: {status: 503, retryAfter: 1s}
              rejectCost: 0.2
            faults:
              - {kind: outage, from: 60s, to: 90s, status: 503}

            """),
        ("surge", """
            version: 1
            scenario: surge
            description: Three times the calls for 60 s at peak time (a new episode is out); the servers shed what they cannot answer.
            duration: 3m
            seed: 1
            fleet:
              clients: 100000
              callsPerMinute: 0.5
            server:
              capacity: 1000
              mode: shed
              latency: 50ms
              busy: {status: 503, retryAfter: 1s}
              rejectCost: 0.2
            faults:
              - {kind: surge, from: 60s, to: 120s, factor: 3}

            """),
        ("brownout", """
            version: 1
            scenario: brownout
            description: Half the capacity for 60 s at peak time; the servers shed what they cannot answer.
            duration: 3m
            seed: 1
            fleet:
              clients: 100000
              callsPerMinute: 0.5
            server:
              capacity: 1000
              mode: shed
              latency: 50ms
              busy: {status: 503, retryAfter: 1s}
              rejectCost: 0.2
            faults:
              - {kind: brownout, from: 60s, to: 120s, factor: 0.5}

            """),
        ("spike", """
            version: 1
            scenario: spike
            description: Five times the calls for 5 s (a push notification); the servers shed with 503 and Retry-After 5 s, the time the spike lasts.
            duration: 2m
            seed: 1
            fleet:
              clients: 100000
              callsPerMinute: 0.5
            server:
              capacity: 1000
              mode: shed
              latency: 50ms
              busy: {status: 503, retryAfter: 5s}
              rejectCost: 0.2
            faults:
              - {kind: surge, from: 60s, to: 65s, factor: 5}

            """),
        ("reset", """
            version: 1
            scenario: reset
            description: The servers stop answering for 10 s, then the load balancer restarts, and every request still waiting fails at that instant.
            duration: 2m
            seed: 1
            fleet:
              clients: 100000
              callsPerMinute: 0.5
            server:
              capacity: 1000
              mode: shed
              latency: 50ms
              busy: {status: 503, retryAfter: 1s}
              rejectCost: 0.2
            faults:
              - {kind: outage, from: 60s, to: 70s, status: none}
              - {kind: reset, at: 70s}

            """),
        ("backlog", """
            version: 1
            scenario: backlog
            description: Servers that queue instead of shedding; twice the calls for 10 s make the line about 6 s long before it drains.
            duration: 2m
            seed: 1
            fleet:
              groups:
                - {name: viewers, clients: 100000, callsPerMinute: 0.5, profile: interactive}
                - {name: sync, clients: 20000, callsPerMinute: 0.5, profile: background}
            server:
              capacity: 1200
              mode: queue
              latency: 50ms
              rejectCost: 0.2
            faults:
              - {kind: surge, from: 60s, to: 70s, factor: 2}

            """),
        ("backend", """
            version: 1
            scenario: backend
            description: Backend clients whose budgets bind (40 services calling 600 times a minute, 2000 jobs calling 6 times a minute) through a 60 s outage answered 503.
            duration: 3m
            seed: 1
            fleet:
              groups:
                - {name: services, clients: 40, callsPerMinute: 600, profile: background}
                - {name: jobs, clients: 2000, callsPerMinute: 6, profile: background}
            server:
              capacity: 700
              mode: shed
              latency: 50ms
              busy: {status: 503, retryAfter: 1s}
              rejectCost: 0.2
            faults:
              - {kind: outage, from: 60s, to: 120s, status: 503}

            """),
    ]

    public static var builtinNames: [String] { builtinTexts.map(\.name) }

    /// The built-in scenario of that name, loaded.
    public static func builtin(_ name: String) -> Scenario? {
        guard let text = builtinTexts.first(where: { $0.name == name })?.text else { return nil }
        return ScenarioLoader.load(Array(text.utf8), path: "built-in \(name)").scenario
    }

    /// The scenario `diff` and `explain` run: the built-in `outage`.
    public static let standard: Scenario = builtin("outage")!
}
