import PolicySource
import PolicyCheck

/// The scenarios `simulate --scenario NAME` knows by name: peak time as the guide describes it
/// ("when traffic peaks"), with one thing going wrong in each. Written as scenario files and read
/// by the same loader, so each is also an example of the format.
///
/// Peak time: 100 000 devices, each starting a ticket call every two minutes (a viewer starting
/// an episode), 833 calls a second; servers that answer 1 000 a second — a fifth more than that —
/// in 50 ms, and that shed the rest with 503 and Retry-After 1 s, as "What Wandura does when it
/// is busy" says. `outage` is the standard scenario of `diff` and `explain`.
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
            faults:
              - {kind: outage, from: 60s, to: 90s, status: 503}

            """),
        ("surge", """
            version: 1
            scenario: surge
            description: Three times the calls for 60 s at peak time (a new episode is out); the servers shed what they cannot answer.
            duration: 4m
            seed: 1
            fleet:
              clients: 100000
              callsPerMinute: 0.5
            server:
              capacity: 1000
              mode: shed
              latency: 50ms
              busy: {status: 503, retryAfter: 1s}
            faults:
              - {kind: surge, from: 60s, to: 120s, factor: 3}

            """),
        ("brownout", """
            version: 1
            scenario: brownout
            description: Half the capacity for 60 s at peak time; the servers shed what they cannot answer.
            duration: 4m
            seed: 1
            fleet:
              clients: 100000
              callsPerMinute: 0.5
            server:
              capacity: 1000
              mode: shed
              latency: 50ms
              busy: {status: 503, retryAfter: 1s}
            faults:
              - {kind: brownout, from: 60s, to: 120s, factor: 0.5}

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
