import Foundation
import Testing
@testable import PolicySource
@testable import PolicyCheck
@testable import PolicySimulation
@testable import TestSupport

/// The output formats of `simulate` as pure functions: numbers, escaping, the sparkline, the chart.
@Suite struct SimulationReportTests {
    static func run(_ scenario: String = "brownout") throws -> SimulationRun {
        let policy = try SimulationModelTests.policy()
        return try SimulationModelTests.run(policy, try #require(Scenario.builtin(scenario)))
    }

    @Test func numbersAreRoundedWithoutFoundation() {
        #expect(Wording.number(4.2648, places: 1) == "4.3")
        #expect(Wording.number(4.25, places: 1) == "4.3")     // half away from zero
        #expect(Wording.number(0.04, places: 1) == "0.0")
        #expect(Wording.number(-1.5, places: 0) == "-2")
        #expect(Wording.number(12, places: 2) == "12.00")
        #expect(Wording.number(Double.nan, places: 1) == "–")
        #expect(Wording.percent(15.634) == "15.6 %" && Wording.percent(9.0) == "9 %")
        #expect(Wording.percent(nil) == "–")
        #expect(SimulationReport.rounded(1.49393, 4) == 1.4939)
        #expect(Wording.times(2.1408) == "2.14×" && Wording.times(10.33) == "10.3×")
    }

    @Test func textIsEscapedForEachFormat() {
        #expect(SimulationChart.xml("a<b>&\"c'\u{1B}") == "a&lt;b&gt;&amp;&quot;c&apos;\\u{1B}")
        #expect(CSV.field("plain") == "plain")
        #expect(CSV.field("a,b") == "\"a,b\"")
        #expect(CSV.field("say \"hi\"") == "\"say \"\"hi\"\"\"")
        #expect(CSV.field("=SUM(A1)") == "\"=SUM(A1)\"")
    }

    @Test func theSparklineFollowsTheLoad() {
        #expect(Sparkline.line([0, 0, 0]) == "▁▁▁")
        #expect(Sparkline.line([0, 7, 14]) == "▁▅█")
        #expect(Sparkline.line(Array(repeating: 5, count: 600)).count == 60)
        #expect(Sparkline.line([]) == "")
    }

    @Test func theChartHasEveryPartForEveryRun() throws {
        let one = try Self.run()
        let svg = SimulationChart.svg([one, one])
        #expect(svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"800\" height=\"800\" viewBox=\"0 0 800 800\""))
        #expect(svg.components(separatedBy: "<g transform=").count == 3)
        #expect(svg.contains("<g transform=\"translate(0,400)\">"))
        for part in ["brownout 0.5×", "first attempts", "retries", "successes", "capacity", "normal calls",
                     "time (s)", "requests per second", "stroke-dasharray=\"6 4\""] {
            #expect(svg.contains(part), "no \(part)")
        }
        // The capacity line halves during the brownout: two levels of the dashed line.
        let axis = SimulationChart.axis(3554 * 1.05)
        #expect(axis.max == 4000 && axis.step == 1000)
        #expect(SimulationChart.capacitySteps(one.scenario).map(\.1) == [1000, 500, 1000])
        #expect(svg.hasSuffix("</svg>\n"))
        // The normal calls' dotted line, on its white halo, comes after (above) both areas.
        let chart = SimulationChart.chart(one)
        let areas = try #require(chart.range(of: "fill=\"\(SimulationChart.retryColor)\""))
        let normal = try #require(chart.range(of: "stroke=\"#333333\" stroke-width=\"1.5\" stroke-dasharray=\"2 3\""))
        let halo = try #require(chart.range(of: "stroke=\"#ffffff\" stroke-width=\"3\""))
        #expect(areas.upperBound < halo.lowerBound && halo.upperBound < normal.lowerBound)
    }

    @Test func textAndMarkdownSummariseEachRun() throws {
        let r = try Self.run("surge")
        let report = SimulationReport([r])
        #expect(report.text.hasPrefix("playback (test.yaml) · interactive · surge (seed 1)\n  Three times the calls"))
        #expect(report.text.contains("viewers who saw Retry"))
        #expect(report.text.contains("recovery: "))
        #expect(report.markdown.contains("| `playback` | `interactive` | `surge` (seed 1) | \(r.summary.calls) |"))
        let csv = report.csv.split(separator: "\n")
        #expect(csv.count == 1 + 180)
        #expect(csv[1].hasPrefix("playback,interactive,surge,1,0,"))
    }
}
