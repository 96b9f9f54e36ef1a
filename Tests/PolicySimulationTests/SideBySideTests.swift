import Foundation
import Testing
@testable import PolicySource
@testable import PolicyCheck
@testable import PolicySimulation
@testable import TestSupport

/// Issue 46, item 7: `simulate --base` side by side, every changed profile, one scale.
@Suite struct SideBySideTests {
    @Test func everyProfileWhoseRetryValuesDifferIsCompared() throws {
        let base = try SimulationModelTests.policy()
        #expect(SimulationComparison.changedProfiles(base: base, head: base).isEmpty)
        // A profile's own value: that profile only.
        let retries = try SimulationModelTests.policy(maxRetries: 2)
        #expect(SimulationComparison.changedProfiles(base: base, head: retries) == ["interactive"])
        // A value of the policy every profile reads: every profile.
        let ratio = try SimulationModelTests.policy(ratio: "5%")
        #expect(SimulationComparison.changedProfiles(base: base, head: ratio) == ["interactive", "background"])
        #expect(SimulationComparison.changedProfiles(base: try SimulationModelTests.policy(backoff: "exponential"), head: base)
            == ["interactive", "background"])
        // No base: all of them; a profile the base lacks: new, so compared.
        #expect(SimulationComparison.changedProfiles(base: nil, head: base) == ["interactive", "background"])
        var renamed = base
        renamed.profiles[1].name = "sync"
        #expect(SimulationComparison.changedProfiles(base: base, head: renamed) == ["sync"])
    }

    @Test func baseAndHeadShareOneScale() throws {
        let scenario = try #require(Scenario.builtin("outage"))
        let base = try SimulationModelTests.run(try SimulationModelTests.policy(), scenario)
        let head = try SimulationModelTests.run(try SimulationModelTests.policy(maxRetries: 1), scenario)
        let c = SimulationComparison(ref: "main", base: base, head: head)
        let top = max(base.series.map(\.attempts).max() ?? 0, head.series.map(\.attempts).max() ?? 0)
        #expect(c.sharedTop == top)
        let lines = c.text.split(separator: "\n")
        let b = try #require(lines.first { $0.hasPrefix("  base ") }), h = try #require(lines.first { $0.hasPrefix("  head ") })
        // Both say what █ stands for, the same value; only the side with the top reaches it.
        #expect(b.hasSuffix("█ = \(top) attempts/s") && h.hasSuffix("█ = \(top) attempts/s"), "\(c.text)")
        let headTop = head.series.map(\.attempts).max() ?? 0, baseTop = base.series.map(\.attempts).max() ?? 0
        #expect(headTop != baseTop, "the fixture needs two different peaks")
        let lower = headTop < baseTop ? h : b
        let sparkline = lower.dropFirst(7).prefix { $0 != " " }
        #expect(sparkline.count == 60 && !sparkline.contains("█"), "the lower side does not reach the top: \(lower)")
        #expect(Sparkline.line([0, 7], top: 14) == "▁▅")
        #expect(Sparkline.line([0, 14], top: 7) == "▁█", "a top below the values never clips")
    }

    @Test func theChartsLegendFitsAndTheMermaidChartNamesItsLines() throws {
        let scenario = try #require(Scenario.builtin("outage"))
        let base = try SimulationModelTests.run(try SimulationModelTests.policy(), scenario)
        let head = try SimulationModelTests.run(try SimulationModelTests.policy(maxRetries: 1), scenario)
        let ref = "0123456789abcdef0123456789abcdef01234567"
        let svg = SimulationComparison.svg([SimulationComparison(ref: ref, base: base, head: head)])
        // Every legend label starts inside the plot and ends (at about 6.2 px a character) before its right edge.
        var labels = 0
        for line in svg.split(separator: "\n") where line.hasPrefix("<text x=\"") && line.contains("fill=\"#222222\">") {
            guard let y = Int(line.split(separator: "y=\"")[1].prefix { $0 != "\"" }), y == 48 || y == 62 else { continue }
            let x = try #require(Double(line.split(separator: "x=\"")[1].prefix { $0 != "\"" }))
            let label = line.split(separator: ">")[1].split(separator: "<")[0]
            #expect(x + Double(label.count) * 6.2 <= SimulationChart.right, "\(line)")
            labels += 1
        }
        #expect(labels >= 7, "\(svg)")
        #expect(svg.contains(">base 0123456789abcdef012…: attempts</text>"), "a full SHA is shortened in the legend")
        let md = SimulationComparison(ref: "main", base: base, head: head).markdown
        #expect(md.contains("Attempts per second: base `main` is the purple line, head the orange line."))
        #expect(md.contains("```mermaid\n%%{init: {\"themeVariables\": {\"xyChart\": {\"plotColorPalette\": \"#7b3294, #f28e2b\"}}}}%%\nxychart-beta\n"))
        #expect(md.contains("    title \"attempts per second: base (purple), head (orange)\""))
        let alone = SimulationComparison(ref: "main", base: nil, head: head).markdown
        #expect(alone.contains("\"plotColorPalette\": \"#f28e2b\"") && alone.contains("head (orange)"))
    }
}
