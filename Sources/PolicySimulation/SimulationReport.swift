import PolicySource
import PolicyCheck

/// The runs of `policyc simulate`, in each output format. Every format is a pure function of the
/// runs, so repeated runs give the same bytes.
public struct SimulationReport: Sendable {
    public var runs: [SimulationRun]

    public init(_ runs: [SimulationRun]) {
        self.runs = runs
    }

    // MARK: JSON

    /// `{"runs": [{"policy", "profile", "scenario", "seed", "summary": {…}, "series": [{…}]}]}`.
    public var json: JSON {
        .object(["runs": .array(runs.map(\.json))])
    }

    // MARK: CSV

    /// The series of every run, one row per second, under one header.
    public var csv: String {
        var out = "policy,profile,scenario,seed,second,calls,attempts,retries,succeeded,busy,timeouts,inFlight\n"
        for run in runs {
            let head = [run.policy, run.profile, run.scenario.name].map(CSV.field).joined(separator: ",")
                + ",\(run.seed)"
            for s in run.series {
                out += "\(head),\(s.second),\(s.calls),\(s.attempts),\(s.retries),\(s.succeeded),\(s.busy),\(s.timeouts),\(s.inFlight)\n"
            }
        }
        return out
    }

    // MARK: text

    public var text: String {
        var out = ""
        for (n, run) in runs.enumerated() {
            if n > 0 { out += "\n" }
            out += run.textBlock
        }
        return out
    }

    // MARK: markdown

    public var markdown: String {
        var out = "| Policy | Profile | Scenario | Calls | Attempts per call | Peak load | Peak in 100 ms | Failed | Time to a ticket (p50 / p95 / p99) | Recovery | Wasted attempts |\n"
        out += "|---|---|---|---|---|---|---|---|---|---|---|\n"
        for run in runs {
            let s = run.summary
            out += "| \(Wording.code(run.policy)) | \(Wording.code(run.profile)) | \(Wording.code(run.scenario.name)) (seed \(run.seed)) | "
                + "\(s.calls) | \(Wording.times(s.amplification)) | \(Wording.times(s.peakLoad)) | \(Wording.times(s.peakLoad100ms)) | "
                + "\(Wording.percent(s.failedPercent))\(run.interactive ? " saw Retry" : "") | "
                + "\(SimulationReport.percentiles(s.timeToTicketMs)) | \(SimulationReport.recovery(s.recoverySeconds)) | \(s.wastedAttempts) |\n"
        }
        out += "\n"
        for run in runs {
            out += "- \(Wording.code(run.policy)) · \(Wording.code(run.profile)) · \(Wording.code(run.scenario.name)): load `"
                + Sparkline.line(run.series.map(\.attempts)) + "` " + Wording.markdown(run.loadNote) + "\n"
        }
        return out
    }

    // MARK: numbers as people read them

    /// "38 s", or "none within the run": the words of every report, `diff`'s and `explain`'s too.
    package static func recovery(_ seconds: Int?) -> String {
        seconds.map { "\($0) s" } ?? "none within the run"
    }

    static func percentiles(_ p: SimulationSummary.Percentiles) -> String {
        [p.p50, p.p95, p.p99].map { $0.map(Wording.duration) ?? "no ticket" }.joined(separator: " / ")
    }

    /// Rounded to `places` decimals for JSON: the double nearest the rounded decimal.
    package static func rounded(_ x: Double, _ places: Int) -> Double {
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        let r = (x * scale).rounded() / scale
        return r.isFinite ? r : x
    }
}

extension SimulationRun {
    public var json: JSON { json(side: nil) }

    /// The run as JSON; with `side` ("base" or "head", for `simulate --base`), that key too.
    public func json(side: String?) -> JSON {
        let s = summary
        func optional(_ x: Double?, _ places: Int) -> JSON { x.map { .double(SimulationReport.rounded($0, places)) } ?? .null }
        func optional(_ x: Int?) -> JSON { x.map(JSON.int) ?? .null }
        var object: [String: JSON] = [
            "policy": .string(policy),
            "profile": .string(profile),
            "scenario": .string(scenario.name),
            "seed": .int(Int(truncatingIfNeeded: seed)),
            "summary": .object([
                "calls": .int(s.calls),
                "attempts": .int(s.attempts),
                "retries": .int(s.retries),
                "succeeded": .int(s.succeeded),
                "failed": .int(s.failed),
                "unfinished": .int(s.unfinished),
                "failedBy": .object([
                    "notRetryable": .int(s.failedBy.notRetryable),
                    "retriesUsed": .int(s.failedBy.retriesUsed),
                    "budget": .int(s.failedBy.budget),
                    "deadline": .int(s.failedBy.deadline),
                ]),
                "amplification": optional(s.amplification, 4),
                "peakLoad": optional(s.peakLoad, 4),
                "peakLoad100ms": optional(s.peakLoad100ms, 4),
                "failedPercent": optional(s.failedPercent, 3),
                "timeToTicketMs": .object([
                    "p50": optional(s.timeToTicketMs.p50),
                    "p95": optional(s.timeToTicketMs.p95),
                    "p99": optional(s.timeToTicketMs.p99),
                ]),
                "recoverySeconds": optional(s.recoverySeconds),
                "wastedAttempts": .int(s.wastedAttempts),
            ]),
            "series": .array(series.map { x in
                .object([
                    "second": .int(x.second), "calls": .int(x.calls), "attempts": .int(x.attempts),
                    "retries": .int(x.retries), "succeeded": .int(x.succeeded), "busy": .int(x.busy),
                    "timeouts": .int(x.timeouts), "inFlight": .int(x.inFlight),
                ])
            }),
        ]
        if let side { object["side"] = .string(side) }
        if !groups.isEmpty {
            object["groups"] = .array(groups.map { g in
                .object([
                    "name": .string(g.name), "profile": .string(g.profile), "clients": .int(g.clients),
                    "calls": .int(g.calls), "attempts": .int(g.attempts), "retries": .int(g.retries),
                    "succeeded": .int(g.succeeded), "failed": .int(g.failed), "budget": .int(g.budget),
                    "amplification": optional(g.amplification, 4), "peakLoad": optional(g.peakLoad, 4),
                    "failedPercent": optional(g.failedPercent, 3),
                ])
            })
        }
        return .object(object)
    }

    /// "playback (Policies/playback.yaml) · interactive · outage (seed 1)": the file tells two
    /// versions of one policy apart.
    public var title: String {
        let named = file.isEmpty ? printable(policy) : "\(printable(policy)) (\(printable(file)))"
        return "\(named) · \(printable(profile)) · \(printable(scenario.name)) (seed \(seed))"
    }

    /// "peak 4.1× of normal at 61 s; █ = 3412 attempts/s".
    var loadNote: String { loadNote(top: series.map(\.attempts).max() ?? 0) }

    /// The note with `top`, the value █ stands for (shared by two sparklines side by side).
    func loadNote(top: Int) -> String {
        var note = "0–\(scenario.seconds) s"
        if let peak = summary.peakLoad, let at = summary.peakSecond {
            note += "; peak \(Wording.times(peak)) of normal at \(at) s"
        }
        if let peak = summary.peakLoad100ms, let at = summary.peakTenthMs {
            note += ", \(Wording.times(peak)) in 100 ms at \(Wording.number(Double(at) / 1000, places: 1)) s"
        }
        return note + "; █ = \(top) attempts/s"
    }

    var failedWords: String { interactive ? "viewers who saw Retry" : "calls that failed" }

    /// The summary for a terminal: five lines and the load as a sparkline.
    var textBlock: String {
        let s = summary
        var out = "\(title)\n"
        if let d = scenario.description { out += "  \(printable(d))\n" }
        out += "  load \(Sparkline.line(series.map(\.attempts)))  \(loadNote)\n"
        out += "  calls \(s.calls), attempts \(s.attempts) (\(Wording.times(s.amplification)) per call), retries \(s.retries)\n"
        out += "  succeeded \(s.succeeded); failed \(s.failed) (\(Wording.percent(s.failedPercent)) of calls: \(failedWords))"
            + " — retries used \(s.failedBy.retriesUsed), budget \(s.failedBy.budget), deadline \(s.failedBy.deadline), "
            + "not retryable \(s.failedBy.notRetryable); unfinished \(s.unfinished)\n"
        out += "  time to a ticket (every call): p50 / p95 / p99 \(SimulationReport.percentiles(s.timeToTicketMs))\n"
        for g in groups {
            out += "  group \(printable(g.name)) (\(g.clients) clients, \(printable(g.profile))): calls \(g.calls), "
                + "\(Wording.times(g.amplification)) per call, peak \(Wording.times(g.peakLoad)) of its normal, "
                + "failed \(Wording.percent(g.failedPercent))\(g.interactive ? " (viewers who saw Retry)" : ""), budget refused \(g.budget)\n"
        }
        let end = scenario.faults.isEmpty ? "the start" : "the last fault ended (\(Wording.duration(scenario.lastFaultEndMs)))"
        out += "  recovery: \(s.recoverySeconds.map { "\($0) s after \(end)" } ?? "none within the run, after \(end)")"
            + "; wasted attempts \(s.wastedAttempts)\n"
        return out
    }
}

/// One line of block characters for a terminal: each column the largest value of its seconds.
enum Sparkline {
    static let levels: [Character] = ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]

    /// `top`: the value █ stands for; by default the largest of `values`. Two lines drawn with
    /// the same `top` share one scale.
    static func line(_ values: [Int], width: Int = 60, top shared: Int? = nil) -> String {
        guard !values.isEmpty else { return "" }
        let columns = min(width, values.count)
        var peaks: [Int] = []
        for c in 0..<columns {
            let from = c * values.count / columns, to = max(from + 1, (c + 1) * values.count / columns)
            peaks.append(values[from..<to].max() ?? 0)
        }
        let top = max(shared ?? 0, peaks.max() ?? 0)
        return String(peaks.map { v in
            top == 0 ? levels[0] : levels[Int((Double(v) / Double(top) * Double(levels.count - 1)).rounded())]
        })
    }
}

extension String {
    func replacingAll(_ target: Character, with replacement: String) -> String {
        var out = ""
        for c in self { if c == target { out += replacement } else { out.append(c) } }
        return out
    }
}
