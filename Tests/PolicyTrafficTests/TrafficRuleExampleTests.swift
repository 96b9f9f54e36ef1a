import Testing
@testable import PolicySource
@testable import PolicyCheck
@testable import PolicyTraffic

/// Every traffic rule's examples are its tests: the HAR made from each is read and checked, and
/// the rule names exactly the marked entries; nothing else is found but what `alsoFinds` allows.
@Suite struct TrafficRuleExampleTests {
    static func findings(_ har: String, options: TrafficOptions? = nil) throws -> [TrafficFinding] {
        let options = try options ?? TrafficOptions(policy: #require(Traffic.guidePolicy))
        let recording = try Traffic.read(Array(har.utf8), file: "example.har", options: options).get()
        return Traffic.check(recording)
    }

    @Test(arguments: Traffic.rules.map(\.rule.id.rawValue))
    func examples(_ id: String) throws {
        let rule = try #require(Traffic.rules.first { $0.rule.id.rawValue == id })
        #expect(rule.examples.contains { $0.triggers } && rule.examples.contains { !$0.triggers })
        for example in rule.examples {
            let found = try Self.findings(example.har)
            let own = found.filter { $0.rule == rule.rule.id }
            #expect(own.map(\.entry) == example.marked, "\(id): \(example.note): \(own.map(\.message))")
            #expect(example.triggers == !own.isEmpty, "\(id): \(example.note)")
            let others = found.filter { $0.rule != rule.rule.id && !example.alsoFinds.contains($0.rule) }
            #expect(others.isEmpty, "\(id): \(example.note): \(others.map { "\($0.rule): \($0.message)" })")
        }
    }

    @Test func everyFindingListsItsEntryAmongItsEntries() throws {
        for rule in Traffic.rules {
            for example in rule.examples {
                for finding in try Self.findings(example.har) {
                    #expect(finding.entries.contains(finding.entry))
                    #expect(finding.message.contains("entries[\(finding.entry)]"))
                }
            }
        }
    }

    @Test func noJitterFindingListsEveryRetry() throws {
        let example = try #require(TrafficRule.retryAfterJitter.examples.first { $0.note.hasPrefix("five retries") })
        let finding = try #require(try Self.findings(example.har).first { $0.rule == .trafficRetryAfterJitter })
        #expect(finding.entries == [1, 3, 5, 7, 9])
    }

    @Test func catalogHoldsEveryTrafficRuleOnce() {
        let ids = Traffic.catalog.map(\.id)
        #expect(Set(ids).count == ids.count)
        #expect(ids.filter { $0.rawValue.hasPrefix("traffic-") }.count == 12)
    }
}
