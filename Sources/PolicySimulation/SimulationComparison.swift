import PolicySource
import PolicyCheck

/// `simulate --base REF`: a policy as REF had it (base) and as the working tree has it (head),
/// under the same scenario and seed, side by side. Pure functions of the runs, as the report.
public struct SimulationComparison: Sendable {
    /// The git revision of the base side, as given.
    public var ref: String
    /// Nil when the policy is new since `ref`.
    public var base: SimulationRun?
    public var head: SimulationRun

    public init(ref: String, base: SimulationRun?, head: SimulationRun) {
        self.ref = ref
        self.base = base
        self.head = head
    }

    /// The head's profiles, in its order, whose retry values (the profile's and the policy's: what
    /// a run reads) differ from the base's profile of the same name; every one when there is no
    /// base, a new one always.
    public static func changedProfiles(base: Policy?, head: Policy) -> [String] {
        head.profiles.filter { p in
            guard let base, let before = base.profiles.first(where: { $0.name == p.name }) else { return true }
            return SimulatedValues(base, before) != SimulatedValues(head, p)
        }.map(\.name)
    }

    /// "playback · interactive · outage (seed 1): base main → head Policies/playback.yaml".
    public var title: String {
        "\(printable(head.policy)) · \(printable(head.profile)) · \(printable(head.scenario.name)) (seed \(head.seed)): "
            + "base \(printable(ref)) → head \(printable(head.file))"
    }

    /// Each headline figure as text for base and head, and the change in words.
    var rows: [(figure: String, base: String, head: String, change: String)] {
        func times(_ x: Double?) -> String { Wording.times(x) }
        /// "–" without a base side; "no ticket" when that percentile's call got none.
        func ticket(_ s: SimulationSummary?, _ p: KeyPath<SimulationSummary.Percentiles, Int?>) -> String {
            guard let s else { return "–" }
            return s.timeToTicketMs[keyPath: p].map(Wording.duration) ?? "no ticket"
        }
        func change(_ a: Double?, _ b: Double?) -> String {
            guard let a, let b else { return a == nil && b == nil ? "" : "–" }
            return Wording.change(a, b)
        }
        let b = base?.summary, h = head.summary
        func d(_ x: Int?) -> Double? { x.map(Double.init) }
        return [
            ("calls", b.map { "\($0.calls)" } ?? "–", "\(h.calls)", change(d(b?.calls), Double(h.calls))),
            ("attempts per call", times(b?.amplification), times(h.amplification), change(b?.amplification, h.amplification)),
            ("peak load", times(b?.peakLoad), times(h.peakLoad), change(b?.peakLoad, h.peakLoad)),
            ("peak in 100 ms", times(b?.peakLoad100ms), times(h.peakLoad100ms), change(b?.peakLoad100ms, h.peakLoad100ms)),
            (head.interactive ? "viewers who saw Retry" : "calls that failed", Wording.percent(b?.failedPercent),
             Wording.percent(h.failedPercent),
             b?.failedPercent.flatMap { a in h.failedPercent.map { Wording.points($0 - a) } } ?? "–"),
            ("time to a ticket p50", ticket(b, \.p50), ticket(h, \.p50), change(d(b?.timeToTicketMs.p50), d(h.timeToTicketMs.p50))),
            ("time to a ticket p95", ticket(b, \.p95), ticket(h, \.p95), change(d(b?.timeToTicketMs.p95), d(h.timeToTicketMs.p95))),
            ("time to a ticket p99", ticket(b, \.p99), ticket(h, \.p99), change(d(b?.timeToTicketMs.p99), d(h.timeToTicketMs.p99))),
            ("recovery", b.map { SimulationReport.recovery($0.recoverySeconds) } ?? "–", SimulationReport.recovery(h.recoverySeconds),
             change(d(b?.recoverySeconds), d(h.recoverySeconds))),
            ("wasted attempts", b.map { "\($0.wastedAttempts)" } ?? "–", "\(h.wastedAttempts)", change(d(b?.wastedAttempts), Double(h.wastedAttempts))),
        ]
    }

    /// The largest attempts in a second of either side: the top of the scale both share.
    var sharedTop: Int {
        max(head.series.map(\.attempts).max() ?? 0, base?.series.map(\.attempts).max() ?? 0)
    }

    /// Text: the title, the two sparklines on one scale, and a column per side with the change.
    public var text: String {
        var out = "\(title)\n"
        let top = sharedTop
        if let base { out += "  base \(Sparkline.line(base.series.map(\.attempts), top: top))  \(base.loadNote(top: top))\n" }
        else { out += "  base: \(printable(ref)) has no such policy or profile (it is new)\n" }
        out += "  head \(Sparkline.line(head.series.map(\.attempts), top: top))  \(head.loadNote(top: top))\n"
        let r = rows
        let w0 = r.map(\.figure.count).max() ?? 0, w1 = max(4, r.map(\.base.count).max() ?? 0), w2 = max(4, r.map(\.head.count).max() ?? 0)
        func pad(_ s: String, _ w: Int) -> String { s + String(repeating: " ", count: max(0, w - s.count)) }
        out += "  \(pad("", w0))  \(pad("base", w1))  \(pad("head", w2))  change\n"
        for row in r {
            out += "  \(pad(row.figure, w0))  \(pad(row.base, w1))  \(pad(row.head, w2))  \(row.change)\n"
        }
        return out
    }

    /// Markdown: a table with base and head in adjacent columns, a mermaid `xychart-beta` of
    /// attempts per second (at most 60 points, so GitHub renders it in a comment) and the numbers
    /// behind it in `<details>`.
    public var markdown: String {
        var out = "#### \(Wording.markdown(title))\n\n| Figure | Base (`\(Wording.markdown(ref))`) | Head | Change |\n|---|---|---|---|\n"
        for row in rows {
            out += "| \(row.figure) | \(row.base) | \(row.head) | \(row.change) |\n"
        }
        let points = SimulationComparison.points(head.series.count)
        let headValues = SimulationComparison.buckets(head.series.map(\.attempts), points)
        let baseValues = base.map { SimulationComparison.buckets($0.series.map(\.attempts), points) }
        let top = max(headValues.max() ?? 0, baseValues?.max() ?? 0, 1)
        let labels = SimulationComparison.bucketStarts(head.series.count, points)
        // GitHub's mermaid draws no legend: the lines get fixed colours, named in the title and above.
        let colors = (base: "#7b3294", head: "#f28e2b")
        let palette = baseValues == nil ? colors.head : "\(colors.base), \(colors.head)"
        out += baseValues == nil
            ? "\nAttempts per second of head (the orange line); \(Wording.code(ref)) has no such policy or profile (it is new).\n\n"
            : "\nAttempts per second: base \(Wording.code(ref)) is the purple line, head the orange line.\n\n"
        out += "```mermaid\n%%{init: {\"themeVariables\": {\"xyChart\": {\"plotColorPalette\": \"\(palette)\"}}}}%%\nxychart-beta\n"
        out += "    title \"attempts per second: " + (baseValues == nil ? "head (orange)" : "base (purple), head (orange)") + "\"\n"
        out += "    x-axis \"s\" [\(labels.map(String.init).joined(separator: ", "))]\n"
        out += "    y-axis \"attempts/s\" 0 --> \(Int(SimulationChart.axis(Double(top) * 1.05).max))\n"
        if let baseValues { out += "    line [\(baseValues.map(String.init).joined(separator: ", "))]\n" }
        out += "    line [\(headValues.map(String.init).joined(separator: ", "))]\n"
        out += "```\n\n<details><summary>The numbers (mean attempts per second from each second shown)</summary>\n\n"
        out += "| From second | Base | Head |\n|---|---|---|\n"
        for (i, start) in labels.enumerated() {
            out += "| \(start) | \(baseValues.map { "\($0[i])" } ?? "–") | \(headValues[i]) |\n"
        }
        out += "\n</details>\n"
        return out
    }

    /// How many points a series of `seconds` is shown with: one per second up to 60, else 60.
    static func points(_ seconds: Int) -> Int { max(1, min(60, seconds)) }

    static func bucketStarts(_ seconds: Int, _ points: Int) -> [Int] {
        (0..<points).map { $0 * seconds / points }
    }

    /// The mean of each of `points` runs of seconds, rounded.
    static func buckets(_ values: [Int], _ points: Int) -> [Int] {
        let n = values.count
        return (0..<points).map { i in
            let from = i * n / points, to = max(from + 1, (i + 1) * n / points)
            guard from < n else { return 0 }
            let part = values[from..<min(to, n)]
            return Int((Double(part.reduce(0, +)) / Double(part.count)).rounded())
        }
    }

    /// JSON of both runs, each with its side.
    public var jsonRuns: [JSON] {
        var out: [JSON] = []
        if let base { out.append(base.json(side: "base")) }
        out.append(head.json(side: "head"))
        return out
    }

    /// The SVG chart: head's chart, with base's attempts per second as a dashed line over it and
    /// a legend naming both.
    public static func svg(_ comparisons: [SimulationComparison]) -> String {
        let w = SimulationChart.width, h = SimulationChart.height
        let total = h * max(1, comparisons.count)
        var out = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(w)\" height=\"\(total)\" "
            + "viewBox=\"0 0 \(w) \(total)\" font-family=\"sans-serif\" font-size=\"11\">\n"
        out += "<title>\(SimulationChart.xml(comparisons.map(\.title).joined(separator: "; ")))</title>\n"
        out += "<rect width=\"\(w)\" height=\"\(total)\" fill=\"#ffffff\"/>\n"
        for (i, c) in comparisons.enumerated() {
            out += "<g transform=\"translate(0,\(i * h))\">\n" + SimulationChart.chart(c.head, base: c.base, ref: c.ref, title: c.title) + "</g>\n"
        }
        return out + "</svg>\n"
    }
}

/// Everything of a policy and one of its profiles that a run reads (`ClientRules`): two profiles
/// with equal values here give equal runs.
struct SimulatedValues: Equatable {
    var profile: [Int]
    var kind: ProfileKind
    var backoff: Backoff
    var honor: Bool
    var jitter: Int
    var ratio: String
    var floor: Int
    var network: Bool
    var statuses: Set<Int>

    init(_ policy: Policy, _ p: Policy.Profile) {
        profile = [p.maxRetries, p.baseMs, p.capMs, p.timeoutMs, p.deadlineMs]
        kind = p.kind
        backoff = policy.backoff
        honor = policy.retryAfterHonor
        jitter = policy.retryAfterMaxJitterMs
        ratio = policy.budgetRatio.canonical
        floor = policy.budgetMinPerMinute
        network = policy.retryOnNetwork
        statuses = Set(policy.retryStatuses)
    }
}

extension SimulationComparison {
    /// The runs of `simulate --base`: base and head of each pair under each scenario, for every
    /// profile whose retry values differ (`profile` when given; the scenario's own when none
    /// differs). `slots` says which jobs make each comparison (a profile the base lacks is new:
    /// head alone).
    public static func plan(_ pairs: [(base: Policy?, head: Policy)], scenarios: [Scenario], profile: String?)
        -> (jobs: [(Policy, Scenario, String?)], slots: [(base: Int?, head: Int)]) {
        var jobs: [(Policy, Scenario, String?)] = []
        var slots: [(base: Int?, head: Int)] = []
        for pair in pairs {
            let changed = changedProfiles(base: pair.base, head: pair.head)
            let profiles: [String?] = profile.map { [$0] } ?? (changed.isEmpty ? [nil] : changed.map { Optional($0) })
            for name in profiles {
                let base = pair.base.flatMap { b in name == nil || b.profiles.contains { $0.name == name } ? b : nil }
                for s in scenarios {
                    var b: Int?
                    if let base {
                        b = jobs.count
                        jobs.append((base, s, name))
                    }
                    slots.append((b, jobs.count))
                    jobs.append((pair.head, s, name))
                }
            }
        }
        return (jobs, slots)
    }

    /// `simulate --base --format json`: the ref and every run of both sides.
    public static func json(_ comparisons: [SimulationComparison], ref: String) -> JSON {
        .object(["base": .string(ref), "runs": .array(comparisons.flatMap(\.jsonRuns))])
    }

    /// `simulate --base --format csv`: the report's rows, each marked with its side.
    public static func csv(_ comparisons: [SimulationComparison]) -> String {
        var out = "side," + SimulationReport([]).csv
        for c in comparisons {
            for (side, run) in [("base", c.base), ("head", c.head)] {
                guard let run else { continue }
                for line in SimulationReport([run]).csv.split(separator: "\n").dropFirst() { out += "\(side),\(line)\n" }
            }
        }
        return out
    }
}
