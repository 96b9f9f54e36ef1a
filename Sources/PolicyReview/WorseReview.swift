import PolicySource
import PolicyCheck
import PolicyReport
import PolicySimulation

/// The headline figures of one profile in one built-in scenario: what `diff` compares between
/// base and head to say whether a change is worse in an outage.
public struct ScenarioFigures: Sendable, Hashable {
    public var scenario: String
    public var profile: String
    public var interactive: Bool
    public var peakLoad: Double?
    /// Peak load in 100 ms: the waves a second smooths out, which tell backoffs without full
    /// jitter apart (many clients failing at one instant come back together).
    public var peakLoad100ms: Double? = nil
    public var failedPercent: Double?
    public var p95Ms: Int?
    public var recoverySeconds: Int?

    public init(scenario: String, profile: String, interactive: Bool, peakLoad: Double?, failedPercent: Double?,
                p95Ms: Int?, recoverySeconds: Int?) {
        self.scenario = scenario
        self.profile = profile
        self.interactive = interactive
        self.peakLoad = peakLoad
        self.failedPercent = failedPercent
        self.p95Ms = p95Ms
        self.recoverySeconds = recoverySeconds
    }

    public init(_ run: SimulationRun, profile: Policy.Profile) {
        self.init(scenario: run.scenario.name, profile: profile.name, interactive: profile.isInteractive,
                  peakLoad: run.summary.peakLoad, failedPercent: run.summary.failedPercent,
                  p95Ms: run.summary.timeToTicketMs.p95, recoverySeconds: run.summary.recoverySeconds)
        peakLoad100ms = run.summary.peakLoad100ms
    }
}

/// One headline figure that moved past a threshold between base and head.
public struct FigureChange: Sendable, Hashable {
    public enum Figure: String, Sendable, CaseIterable {
        case peakLoad, sawRetry, p95, recovery, peakLoad100ms
    }

    public var policy: String
    public var profile: String
    public var scenario: String
    public var figure: Figure
    public var interactive: Bool
    /// The figure on each side (peak load as a multiple, percents, milliseconds, seconds); nil:
    /// none (no ticket at all, no recovery within the run).
    public var base: Double?
    public var head: Double?
    public var worse: Bool
    /// The guide's own policy's figure (the same kind of profile), when it ran.
    public var guide: Double? = nil
    /// Worse than the base, but not past the guide's own policy: listed, never a failure.
    public var withinGuide = false
    /// A new policy's figure, compared with the guide's policy alone (`base` is nil).
    public var newPolicy = false

    /// The figure as `ScenarioFigures` holds it.
    static func value(_ figure: Figure, of f: ScenarioFigures) -> Double? {
        switch figure {
        case .peakLoad: return f.peakLoad
        case .peakLoad100ms: return f.peakLoad100ms
        case .sawRetry: return f.failedPercent
        case .p95: return f.p95Ms.map(Double.init)
        case .recovery: return f.recoverySeconds.map(Double.init)
        }
    }

    /// "peak load", "viewers who see Retry", "p95 time to a ticket", "recovery".
    public var figureWords: String {
        switch figure {
        case .peakLoad: return "peak load"
        case .sawRetry: return interactive ? "viewers who see Retry" : "calls that fail"
        case .p95: return "p95 time to a ticket"
        case .recovery: return "recovery"
        case .peakLoad100ms: return "peak load in 100 ms"
        }
    }

    func value(_ x: Double?) -> String {
        switch figure {
        case .peakLoad, .peakLoad100ms: return Wording.times(x)
        case .sawRetry: return Wording.percent(x)
        case .p95: return x.map { Wording.duration(Int($0.rounded())) } ?? "no ticket"
        case .recovery: return x.map { "\(Int($0)) s" } ?? "none within the run"
        }
    }

    /// "+61 %", "+8.2 points", "+25 s", "no longer recovers".
    public var change: String {
        guard let b = base, let h = head else {
            switch figure {
            case .recovery: return head == nil ? "no longer recovers within the run" : "now recovers"
            case .p95: return head == nil ? "over 5 % of calls now get no ticket" : "95 % of calls now get one"
            default: return head == nil ? "none on the head side" : "now measured"
            }
        }
        switch figure {
        case .peakLoad, .peakLoad100ms, .p95: return Wording.change(b, h)
        case .sawRetry: return Wording.points(h - b)
        case .recovery: return Wording.difference(h - b, places: 0, unit: "s")
        }
    }

    /// "background in scenario surge: peak load 6.1× → 9.8× (+61 %; the guide's policy: 6.6×)";
    /// for a new policy "… peak load 14.7× where the guide's policy has 6.6× (+123 %)".
    public var line: String {
        let subject = "\(printable(profile)) in scenario \(scenario): \(figureWords)"
        if newPolicy {
            var compared = self
            compared.base = guide
            return "\(subject) \(value(head)) where the guide's policy has \(value(guide)) (\(compared.change))"
        }
        let yardstick = guide == nil || (!worse) ? "" : withinGuide
            ? "; within the guide's own policy: \(value(guide))" : "; the guide's policy: \(value(guide))"
        return "\(subject) \(value(base)) → \(value(head)) (\(change)\(yardstick))"
    }

    public var json: JSON {
        func number(_ x: Double?) -> JSON {
            guard let x else { return .null }
            switch figure {
            case .peakLoad, .peakLoad100ms: return .double(SimulationReport.rounded(x, 2))
            case .sawRetry: return .double(SimulationReport.rounded(x, 1))
            case .p95, .recovery: return .int(Int(x))
            }
        }
        return .object([
            "policy": .string(policy), "profile": .string(profile), "scenario": .string(scenario),
            "figure": .string(figure.rawValue), "base": number(base), "head": number(head), "guide": number(guide),
            "change": changeNumber.map { .double(SimulationReport.rounded($0, 2)) } ?? .null, "changeText": .string(change),
            "newPolicy": .bool(newPolicy), "withinGuide": .bool(withinGuide)])
    }

    /// The change as a number, in the unit `change` says (percent, points or seconds); nil
    /// where it is said in words.
    public var changeNumber: Double? {
        guard let b = newPolicy ? guide : base, let h = head else { return nil }
        switch figure {
        case .peakLoad, .peakLoad100ms, .p95: return b > 0 ? (h - b) / b * 100 : h - b
        case .sawRetry, .recovery: return h - b
        }
    }
}

/// Base and head compared under the built-in scenarios: the pure part, from figures to verdict.
public enum WorseReview {
    /// The seed both sides run with.
    public static let seed: UInt64 = 1
    /// Below these a figure's move is noise whatever its percent: a p95 of 0.2 s that becomes
    /// 0.3 s is not an outage made worse.
    static let minP95Ms = 250.0
    static let minPeakLoad = 0.1

    /// The figures of one profile in one scenario that moved past `thresholds`, worse or better,
    /// in the order of `FigureChange.Figure`.
    public static func compare(policy: String, base: ScenarioFigures, head: ScenarioFigures,
                               thresholds: ReviewThresholds) -> [FigureChange] {
        var out: [FigureChange] = []
        func add(_ figure: FigureChange.Figure, _ b: Double?, _ h: Double?, worse: Bool) {
            out.append(FigureChange(policy: policy, profile: head.profile, scenario: head.scenario, figure: figure,
                                    interactive: head.interactive, base: b, head: h, worse: worse))
        }
        func relative(_ figure: FigureChange.Figure, _ b: Double?, _ h: Double?, percent: Double, floor: Double) {
            guard let b, let h, b > 0, abs(h - b) >= floor else { return }
            let change = (h - b) / b * 100
            if change > percent { add(figure, b, h, worse: true) } else if change < -percent { add(figure, b, h, worse: false) }
        }
        relative(.peakLoad, base.peakLoad, head.peakLoad, percent: thresholds.peakLoadPercent, floor: minPeakLoad)
        if let b = base.failedPercent, let h = head.failedPercent {
            if h - b > thresholds.sawRetryPoints { add(.sawRetry, b, h, worse: true) }
            else if b - h > thresholds.sawRetryPoints { add(.sawRetry, b, h, worse: false) }
        }
        let b95 = base.p95Ms.map(Double.init), h95 = head.p95Ms.map(Double.init)
        switch (b95, h95) {
        case (.some, .none): add(.p95, b95, nil, worse: true)
        case (.none, .some): add(.p95, nil, h95, worse: false)
        default: relative(.p95, b95, h95, percent: thresholds.p95Percent, floor: minP95Ms)
        }
        let bR = base.recoverySeconds.map(Double.init), hR = head.recoverySeconds.map(Double.init)
        switch (bR, hR) {
        case (.some, .none): add(.recovery, bR, nil, worse: true)
        case (.none, .some): add(.recovery, nil, hR, worse: false)
        case (.some(let b), .some(let h)):
            let limit = Double(thresholds.recoveryMs) / 1000
            if h - b > limit { add(.recovery, b, h, worse: true) } else if b - h > limit { add(.recovery, b, h, worse: false) }
        default: break
        }
        // Last, as explain's weakest point has always listed it.
        relative(.peakLoad100ms, base.peakLoad100ms, head.peakLoad100ms, percent: thresholds.peakLoadPercent, floor: minPeakLoad)
        return out
    }

    /// The verdict's words for the worse figures: "worse in an outage: <first> (and 3 more)".
    public static func verdict(_ worse: [FigureChange]) -> String? {
        guard let first = worse.first else { return nil }
        let more = worse.count > 1 ? " (and \(worse.count - 1) more)" : ""
        return "worse in an outage: policy \(printable(first.policy)), \(first.line)\(more)"
    }

    /// Where the figures come from, for a note under them.
    public static func source(_ thresholds: ReviewThresholds) -> String {
        "every built-in scenario, seed \(seed); thresholds: \(thresholds.words)"
    }
}

/// What `diff` found under the built-in scenarios: set by `addOutageFigures` when it ran them.
public struct ScenarioVerdict: Sendable, Hashable {
    public var thresholds: ReviewThresholds
    public var changes: [FigureChange]

    /// Worse past the thresholds than the base and than the guide's policy: these fail.
    public var worse: [FigureChange] { changes.filter { $0.worse && !$0.withinGuide } }
    /// Worse than the base, still within the guide's own policy's figures.
    public var withinGuide: [FigureChange] { changes.filter(\.withinGuide) }
    public var better: [FigureChange] { changes.filter { !$0.worse } }
}
