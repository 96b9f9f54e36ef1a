import PolicySource
import PolicyCheck

/// A short recording for a rule: its test (a HAR made from it is checked, and the rule must find
/// exactly the marked entries) and its documentation (`policyc rules` shows it as a timeline).
public struct TrafficExample: Sendable {
    /// One ticket request: when it starts (seconds from the recording's start), how long it
    /// took, what it asks (`"play 4"`, `"prefetch 5"`) and what came back.
    public struct Step: Sendable {
        var at: Double
        var took: Double
        var asks: [String]
        var answer: Answer
        var marked: Bool
        var device: String
        var viewer: String
    }

    /// The answer: one status for the whole request (with Retry-After seconds and an error code),
    /// a status per item (`"200"`, `"429"`, `"404 not_ready"`, `"503 retry_after=2"`), or a
    /// network failure with the recorder's error text.
    public enum Answer: Sendable {
        case status(Int, retryAfter: Int? = nil, code: String? = nil)
        case items([String])
        case network(String)
    }

    public var note: String
    public var triggers: Bool
    public var steps: [Step]
    public var alsoFinds: [RuleID]

    init(_ note: String, triggers: Bool, alsoFinds: [RuleID] = [], _ steps: [Step]) {
        self.note = note
        self.triggers = triggers
        self.steps = steps
        self.alsoFinds = alsoFinds
    }

    public static let viewer = "k3Jd9sQm2vXa7LpT0bWc1e:Zr8uYq2nM4a"
    public static let film = "the-heiress-returns"
    /// 2026-12-07T10:00:00Z, the examples' start.
    static let startMs = Day(year: 2026, month: 12, day: 7).daysSinceEpoch * 86_400_000 + 36_000_000

    /// The indices of the marked steps: the entries the rule must name.
    public var marked: [Int] { steps.indices.filter { steps[$0].marked } }

    /// The catalog's form: one line per entry, `↓` before those the rule names.
    public var example: Example {
        let lines = steps.enumerated().map { n, step -> String in
            let asks = step.asks.joined(separator: ", ")
            let who = step.device == "phone-1" && step.viewer == TrafficExample.viewer ? "" : "  [\(step.device), viewer \(step.viewer)]"
            return (step.marked ? String(Example.marker) : "") + "entries[\(n)] +\(Wording.number(step.at, places: 3))s, took \(Wording.number(step.took, places: 3))s: "
                + asks + " → " + step.answer.words + who
        }
        return Example(lines.joined(separator: "\n") + "\n", triggers: triggers, note: note, alsoFinds: alsoFinds)
    }

    /// The example as a HAR 1.2 file, in the shape of Chrome's export.
    public var har: String {
        let entries = steps.map { step -> JSON in
            let asks = step.asks.map { ask -> (Int, String) in
                let parts = ask.split(separator: " ")
                return (Int(parts.last ?? "") ?? 0, String(parts.first ?? "play"))
            }
            let body = JSON.object([
                "episodes": .array(asks.map { .object(["film_ref": .string(TrafficExample.film), "episode_no": .int($0.0), "intent": .string($0.1)]) }),
                "union_info": .string(step.device), "drm_kek": .string("pk-" + step.device), "viewer_ref": .string(step.viewer),
            ])
            let end = TrafficExample.startMs + Int((step.at + step.took) * 1000)
            return .object([
                "startedDateTime": .string(Clock.iso(TrafficExample.startMs + Int(step.at * 1000))),
                "time": .double(step.took * 1000),
                "request": .object([
                    "method": .string("POST"), "url": .string("https://api.wandura.example/v1/tickets"),
                    "headers": .array([.object(["name": .string("Content-Type"), "value": .string("application/json")])]),
                    "postData": .object(["mimeType": .string("application/json"), "text": .string(body.rendered(pretty: false))]),
                ]),
                "response": step.answer.response(asks, endMs: end),
            ])
        }
        return JSON.object(["log": .object(["version": .string("1.2"), "creator": .object(["name": .string("policyc example")]),
                                           "entries": .array(entries)])]).rendered()
    }
}

extension TrafficExample.Step {
    /// A step of an example: `at` seconds, `asks`, `answer`; `marked` when the rule names it.
    static func at(_ at: Double, took: Double = 0.1, _ asks: [String], _ answer: TrafficExample.Answer, marked: Bool = false,
                   device: String = "phone-1", viewer: String = TrafficExample.viewer) -> Self {
        Self(at: at, took: took, asks: asks, answer: answer, marked: marked, device: device, viewer: viewer)
    }
}

extension TrafficExample.Answer {
    /// Every item given a ticket valid for an hour.
    static let ok = Self.items([])

    var words: String {
        switch self {
        case .status(let status, let retryAfter, let code):
            return "\(status)" + (code.map { " \($0)" } ?? "") + (retryAfter.map { ", Retry-After: \($0)" } ?? "")
        case .items(let items): return items.isEmpty ? "200, tickets" : "200, items " + items.joined(separator: " | ")
        case .network(let error): return "no answer (\(error))"
        }
    }

    func response(_ asks: [(Int, String)], endMs: Int) -> JSON {
        func response(_ status: Int, headers: [(String, String)], body: JSON) -> JSON {
            .object(["status": .int(status), "statusText": .string(""),
                     "headers": .array(headers.map { .object(["name": .string($0.0), "value": .string($0.1)]) }),
                     "content": .object(["mimeType": .string("application/json"), "text": .string(body.rendered(pretty: false))])])
        }
        switch self {
        case .network(let error):
            return .object(["status": .int(0), "statusText": .string(""), "headers": .array([]),
                            "content": .object(["size": .int(0)]), "_error": .string(error)])
        case .status(let status, let retryAfter, let code):
            return response(status, headers: retryAfter.map { [("Retry-After", String($0))] } ?? [],
                            body: .object(["code": code.map(JSON.string) ?? .string("unavailable")]))
        case .items(let statuses):
            let items: [JSON] = asks.enumerated().map { n, ask in
                let words = n < statuses.count ? statuses[n].split(separator: " ") : ["200"]
                var item: [String: JSON] = ["film_ref": .string(TrafficExample.film), "episode_no": .int(ask.0),
                                            "status": .int(Int(words.first ?? "200") ?? 200)]
                for word in words.dropFirst() {
                    if word.hasPrefix("retry_after=") { item["retry_after"] = .int(Int(word.dropFirst(12)) ?? 0) }
                    else { item["code"] = .string(String(word)) }
                }
                if item["status"] == .int(200) {
                    item["ticket"] = .string("t-\(ask.0)")
                    item["expires_at"] = .string(Clock.iso(endMs + 3_600_000))
                }
                return .object(item)
            }
            return response(200, headers: [], body: .object(["tickets": .array(items)]))
        }
    }
}
