import PolicySource
import PolicyCheck

/// The SVG chart of `simulate --format svg` and `--chart FILE`: per run, 800×400, attempts per
/// second split into first attempts and retries (stacked areas), successes (a line), the capacity
/// (dashed) and normal demand (dotted), fault windows shaded, axes with units, a legend and a title.
/// Self-contained: no script, no link, no external font (the generic `sans-serif`), every text
/// escaped. Several runs are stacked one above the other.
public enum SimulationChart {
    public static let width = 800
    public static let height = 400

    static let left = 72.0, right = 784.0, top = 64.0, bottom = 340.0
    static let firstColor = "#4e79a7", retryColor = "#f28e2b", successColor = "#2e7d32"
    static let faultColors: [Scenario.Fault.Kind: String] = [.outage: "#e15759", .surge: "#edc948", .brownout: "#9c755f", .reset: "#b07aa1"]

    public static func svg(_ runs: [SimulationRun]) -> String {
        let total = height * max(1, runs.count)
        var out = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(width)\" height=\"\(total)\" "
            + "viewBox=\"0 0 \(width) \(total)\" font-family=\"sans-serif\" font-size=\"11\">\n"
        out += "<title>\(xml(runs.map(\.title).joined(separator: "; ")))</title>\n"
        out += "<rect width=\"\(width)\" height=\"\(total)\" fill=\"#ffffff\"/>\n"
        for (i, run) in runs.enumerated() {
            out += "<g transform=\"translate(0,\(i * height))\">\n" + chart(run) + "</g>\n"
        }
        return out + "</svg>\n"
    }

    /// Per column (one or more seconds): mean first attempts, retries and successes per second.
    struct Column {
        var from: Int, to: Int
        var first: Double, retries: Double, successes: Double
    }

    static func columns(_ series: [SimulationSecond]) -> [Column] {
        // At most one column per 2 pixels.
        let n = series.count
        let per = max(1, (n + 355) / 356)
        var out: [Column] = []
        var start = 0
        while start < n {
            let end = min(n, start + per)
            var f = 0, r = 0, s = 0
            for x in series[start..<end] {
                f += x.firstAttempts
                r += x.retries
                s += x.succeeded
            }
            let len = Double(end - start)
            out.append(Column(from: start, to: end, first: Double(f) / len, retries: Double(r) / len, successes: Double(s) / len))
            start = end
        }
        return out
    }

    /// The capacity over time: (second, requests per second) at each change.
    static func capacitySteps(_ scenario: Scenario) -> [(Double, Double)] {
        var points = Set([0])
        for f in scenario.faults where f.kind == .brownout { points.formUnion([f.fromMs, f.toMs]) }
        return points.sorted().filter { $0 < scenario.durationMs }.map { t in
            var factor = 1.0
            for f in scenario.faults where f.kind == .brownout && f.fromMs <= t && t < f.toMs { factor *= f.factor }
            return (Double(t) / 1000, scenario.capacity * factor)
        }
    }

    /// One run's chart; with `base`, that run's attempts per second as a dashed line over it (the
    /// other side of `simulate --base`), and the legend names both.
    static func chart(_ run: SimulationRun, base baseRun: SimulationRun? = nil, ref: String = "", title: String? = nil) -> String {
        var drawing = Drawing(run: run, base: baseRun)
        drawing.out += "<text x=\"\(Int(left))\" y=\"22\" font-size=\"14\" font-weight=\"bold\" fill=\"#222222\">\(xml(title ?? run.title))</text>\n"
        drawing.faults()
        drawing.grid()
        drawing.series()
        drawing.axes()
        drawing.legend(ref: ref)
        return drawing.out
    }

    /// One run's chart as it is drawn: its scales and the SVG so far.
    struct Drawing {
        let run: SimulationRun
        let baseRun: SimulationRun?
        let n: Int
        let cols: [Column], baseCols: [Column]
        let capacity: [(Double, Double)]
        let normal: Double
        let yMax: Double, yStep: Double
        var out = ""

        init(run: SimulationRun, base baseRun: SimulationRun?) {
            self.run = run
            self.baseRun = baseRun
            n = max(1, run.series.count)
            cols = columns(run.series)
            baseCols = baseRun.map { columns($0.series) } ?? []
            capacity = capacitySteps(run.scenario)
            normal = run.scenario.normalCallsPerSecond
            var peak = normal
            for c in cols + baseCols { peak = max(peak, c.first + c.retries, c.successes) }
            for (_, v) in capacity { peak = max(peak, v) }
            (yMax, yStep) = axis(peak * 1.05)
        }

        func x(_ t: Double) -> String { Wording.number(left + t / Double(n) * (right - left), places: 1) }
        func y(_ v: Double) -> String { Wording.number(bottom - min(v, yMax) / yMax * (bottom - top), places: 1) }

        /// Fault windows, under everything else; a reset is an instant, a line.
        mutating func faults() {
            for f in run.scenario.faults {
                let color = faultColors[f.kind] ?? "#999999"
                let x0 = x(Double(f.fromMs) / 1000)
                if f.kind == .reset {
                    out += "<line x1=\"\(x0)\" x2=\"\(x0)\" y1=\"\(Int(top))\" y2=\"\(Int(bottom))\" stroke=\"\(color)\" stroke-width=\"2\"/>\n"
                    out += "<text x=\"\(x0)\" dx=\"3\" y=\"\(Int(top) + 24)\" fill=\"\(color)\">\(xml(faultLabel(f)))</text>\n"
                    continue
                }
                let w = Wording.number(max(0.5, (Double(f.toMs - f.fromMs) / 1000) / Double(n) * (right - left)), places: 1)
                out += "<rect x=\"\(x0)\" y=\"\(Int(top))\" width=\"\(w)\" height=\"\(Int(bottom - top))\" fill=\"\(color)\" fill-opacity=\"0.15\"/>\n"
                out += "<text x=\"\(x0)\" dx=\"3\" y=\"\(Int(top) + 12)\" fill=\"\(color)\">\(xml(faultLabel(f)))</text>\n"
            }
        }

        /// Grid and y-axis labels.
        mutating func grid() {
            var v = 0.0
            while v <= yMax + yStep / 2 {
                out += "<line x1=\"\(Int(left))\" x2=\"\(Int(right))\" y1=\"\(y(v))\" y2=\"\(y(v))\" stroke=\"#dddddd\" stroke-width=\"1\"/>\n"
                out += "<text x=\"\(Int(left) - 6)\" y=\"\(y(v))\" dy=\"4\" text-anchor=\"end\" fill=\"#444444\">\(number(v, step: yStep))</text>\n"
                v += yStep
            }
        }

        /// First attempts as an area from 0, retries stacked on them, successes, capacity (dashed),
        /// normal demand (dotted) and the base's attempts.
        mutating func series() {
            var firstTop: [String] = [], retryTop: [String] = []
            for c in cols {
                for t in [c.from, c.to] {
                    firstTop.append("\(x(Double(t))),\(y(c.first))")
                    retryTop.append("\(x(Double(t))),\(y(c.first + c.retries))")
                }
            }
            let base = ["\(x(Double(n))),\(y(0))", "\(x(0)),\(y(0))"]
            out += "<polygon points=\"\((firstTop + base).joined(separator: " "))\" fill=\"\(firstColor)\" fill-opacity=\"0.85\"/>\n"
            out += "<polygon points=\"\((retryTop + firstTop.reversed()).joined(separator: " "))\" fill=\"\(retryColor)\" fill-opacity=\"0.85\"/>\n"
            let successes = cols.map { "\(x(Double($0.from + $0.to) / 2)),\(y($0.successes))" }
            out += "<polyline points=\"\(successes.joined(separator: " "))\" fill=\"none\" stroke=\"\(successColor)\" stroke-width=\"2\"/>\n"
            var capacityPoints: [String] = []
            for (i, (t, c)) in capacity.enumerated() {
                let next = i + 1 < capacity.count ? capacity[i + 1].0 : Double(n)
                capacityPoints += ["\(x(t)),\(y(c))", "\(x(next)),\(y(c))"]
            }
            out += "<polyline points=\"\(capacityPoints.joined(separator: " "))\" fill=\"none\" stroke=\"#222222\" stroke-width=\"1.5\" stroke-dasharray=\"6 4\"/>\n"
            // Normal demand, over the areas, on a white halo: it runs through the first attempts'
            // area, where a grey dotted line alone does not show.
            out += "<line x1=\"\(x(0))\" x2=\"\(x(Double(n)))\" y1=\"\(y(normal))\" y2=\"\(y(normal))\" stroke=\"#ffffff\" stroke-width=\"3\" stroke-opacity=\"0.8\"/>\n"
            out += "<line x1=\"\(x(0))\" x2=\"\(x(Double(n)))\" y1=\"\(y(normal))\" y2=\"\(y(normal))\" stroke=\"#333333\" stroke-width=\"1.5\" stroke-dasharray=\"2 3\"/>\n"
            if baseRun != nil {
                let points = baseCols.map { "\(x(Double($0.from + $0.to) / 2)),\(y($0.first + $0.retries))" }
                out += "<polyline points=\"\(points.joined(separator: " "))\" fill=\"none\" stroke=\"#7b3294\" stroke-width=\"2\" stroke-dasharray=\"5 3\"/>\n"
            }
        }

        /// Axes, x ticks and titles.
        mutating func axes() {
            out += "<line x1=\"\(Int(left))\" x2=\"\(Int(left))\" y1=\"\(Int(top))\" y2=\"\(Int(bottom))\" stroke=\"#222222\"/>\n"
            out += "<line x1=\"\(Int(left))\" x2=\"\(Int(right))\" y1=\"\(Int(bottom))\" y2=\"\(Int(bottom))\" stroke=\"#222222\"/>\n"
            let (_, xStep) = axis(Double(n))
            var t = 0.0
            while t <= Double(n) + xStep / 1000 {
                out += "<line x1=\"\(x(t))\" x2=\"\(x(t))\" y1=\"\(Int(bottom))\" y2=\"\(Int(bottom) + 4)\" stroke=\"#222222\"/>\n"
                out += "<text x=\"\(x(t))\" y=\"\(Int(bottom) + 17)\" text-anchor=\"middle\" fill=\"#444444\">\(number(t, step: xStep))</text>\n"
                t += xStep
            }
            out += "<text x=\"\(Wording.number((left + right) / 2, places: 1))\" y=\"\(Int(bottom) + 36)\" text-anchor=\"middle\" fill=\"#222222\">time (s)</text>\n"
            out += "<text transform=\"translate(18,\(Wording.number((top + bottom) / 2, places: 1))) rotate(-90)\" text-anchor=\"middle\" fill=\"#222222\">requests per second</text>\n"
        }

        /// The legend: a swatch drawn like its series, then the label; items that would pass the
        /// plot's right edge start a second row (a label is about 6.2 px a character at 11 px).
        mutating func legend(ref: String) {
            var lx = left, row = 0.0
            func item(_ label: String, _ swatch: (String, String, Double) -> String) {
                let width = 19 + Double(label.count) * 6.2
                if lx > left, lx + width > right {
                    lx = left
                    row += 1
                }
                out += swatch(Wording.number(lx, places: 1), Wording.number(lx + 14, places: 1), row * 14)
                out += "<text x=\"\(Wording.number(lx + 19, places: 1))\" y=\"\(Int(48 + row * 14))\" fill=\"#222222\">\(xml(label))</text>\n"
                lx += width + 11
            }
            func box(_ color: String, _ opacity: String = "0.85") -> (String, String, Double) -> String {
                { x0, _, dy in "<rect x=\"\(x0)\" y=\"\(Int(39 + dy))\" width=\"14\" height=\"10\" fill=\"\(color)\" fill-opacity=\"\(opacity)\"/>\n" }
            }
            func line(_ color: String, _ width: String, _ dash: String?) -> (String, String, Double) -> String {
                { x0, x1, dy in
                    "<line x1=\"\(x0)\" x2=\"\(x1)\" y1=\"\(Int(44 + dy))\" y2=\"\(Int(44 + dy))\" stroke=\"\(color)\" stroke-width=\"\(width)\""
                        + (dash.map { " stroke-dasharray=\"\($0)\"" } ?? "") + "/>\n"
                }
            }
            // A long revision (a full SHA, a long branch) is shortened: the legend names, the title tells.
            let shownRef = ref.count > 20 ? String(ref.prefix(19)) + "…" : ref
            item(baseRun == nil ? "first attempts" : "head: first attempts", box(firstColor))
            item(baseRun == nil ? "retries" : "head: retries", box(retryColor))
            if baseRun != nil { item("base \(shownRef): attempts", line("#7b3294", "2", "5 3")) }
            item("successes", line(successColor, "2", nil))
            item("capacity", line("#222222", "1.5", "6 4"))
            item("normal calls", line("#333333", "1.5", "2 3"))
            for kind in Scenario.Fault.Kind.allCases where run.scenario.faults.contains(where: { $0.kind == kind }) {
                item(kind.rawValue, box(faultColors[kind] ?? "#999999", "0.3"))
            }
        }
    }

    static func faultLabel(_ f: Scenario.Fault) -> String {
        switch f.kind {
        case .outage: return "outage, " + (f.status.map(String.init) ?? "no answer")
        case .surge: return "surge \(JSON.number(f.factor))×"
        case .brownout: return "brownout \(JSON.number(f.factor))×"
        case .reset: return "reset"
        }
    }

    /// A round top of the axis above `value` and its step: 1, 2 or 5 times a power of ten, about
    /// five steps.
    static func axis(_ value: Double) -> (max: Double, step: Double) {
        let target = max(value, 1e-9) / 5
        var power = 1.0
        while power * 10 <= target { power *= 10 }
        while power > target { power /= 10 }
        let step = [1.0, 2, 5, 10].map { $0 * power }.first { $0 >= target } ?? power * 10
        var top = step
        while top < value { top += step }
        return (top, step)
    }

    static func number(_ v: Double, step: Double) -> String {
        if step >= 1 { return String(Int(v.rounded())) }
        var places = 0, s = step
        while s < 1 && places < 6 {
            s *= 10
            places += 1
        }
        return Wording.number(v, places: places)
    }

    /// Text for the SVG: printable first (a control character becomes `\u{…}`), then escaped.
    static func xml(_ text: String) -> String { Wording.xml(printable(text), attribute: true) }
}
