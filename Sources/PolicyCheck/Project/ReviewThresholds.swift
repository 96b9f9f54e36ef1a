import PolicySource

/// How much worse a headline figure of a simulated outage may get before `diff` calls a change
/// worse: the project file's `review:` mapping, with these defaults for keys left out.
public struct ReviewThresholds: Sendable, Hashable {
    /// Peak load may rise by this many percent of the base's.
    public var peakLoadPercent: Double = 20
    /// Viewers who see Retry (calls that fail) may rise by this many percentage points.
    public var sawRetryPoints: Double = 5
    /// The p95 time to a ticket may rise by this many percent of the base's.
    public var p95Percent: Double = 25
    /// Recovery may take this many more milliseconds.
    public var recoveryMs: Int = 10_000

    public init() {}

    /// The keys of `review:`, as the decoder and the schema read them.
    public static let fields: [Field] = [
        Field("peakLoad", .percent, required: false, title: "Peak load rise",
              help: "How much higher the peak load of a simulated outage may get, in percent of the base's. Default: 20%."),
        Field("sawRetry", .decimal(min: 0, max: 100), required: false, title: "Viewers who see Retry",
              help: "How many more percentage points of viewers who see Retry (calls that fail) are allowed. Default: 5."),
        Field("p95", .percent, required: false, title: "p95 time to a ticket rise",
              help: "How much longer the p95 time to a ticket may get, in percent of the base's. Default: 25%."),
        Field("recovery", .duration, required: false, title: "Longer recovery",
              help: "How much longer recovery after an outage may take. Default: 10s."),
    ]

    /// The decoded `review:` mapping; keys that did not decode keep their defaults.
    static func read(_ decoded: Decoded) -> ReviewThresholds {
        var t = ReviewThresholds()
        if case .percent(let p) = decoded["peakLoad"]?.value { t.peakLoadPercent = p.percent }
        switch decoded["sawRetry"]?.value {
        case .decimal(let d): t.sawRetryPoints = d
        case .integer(let n): t.sawRetryPoints = Double(n)
        default: break
        }
        if case .percent(let p) = decoded["p95"]?.value { t.p95Percent = p.percent }
        if case .duration(let ms) = decoded["recovery"]?.value { t.recoveryMs = ms }
        return t
    }

    /// "peak load +20 %, viewers who see Retry +5 points, p95 time to a ticket +25 %, recovery +10 s".
    public var words: String {
        "peak load +\(Wording.number(peakLoadPercent)) %, viewers who see Retry +\(Wording.number(sawRetryPoints)) points, "
            + "p95 time to a ticket +\(Wording.number(p95Percent)) %, recovery +\(Wording.number(Double(recoveryMs) / 1000)) s"
    }
}
