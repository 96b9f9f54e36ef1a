import Testing
@testable import PolicySource
@testable import PolicyCheck
@testable import TestSupport

/// Findings past the end of a file's report are counted, not made: the report must be the one
/// that making all of them, sorting and cutting would give.
@Suite struct ReportEndTests {
    @Test func everyMarkAmongTheEarliestIsAdmitted() {
        var rng = Rng(state: 53)
        for keeping in [0, 1, 2, 7, 50] {
            for _ in 0..<30 {
                let marks = (0..<rng.below(200)).map { _ in Mark(line: 1 + rng.below(40), column: 1 + rng.below(3)) }
                var end = ReportEnd(keeping: keeping)
                let admitted = marks.map { end.admits($0) }
                let sorted = marks.sorted()
                // Every mark not after the keeping-th earliest is admitted; no more than needed are
                // turned away: a mark turned away has `keeping` admitted marks before it.
                for (i, mark) in marks.enumerated() {
                    if keeping > 0, marks.count <= keeping || !(sorted[keeping - 1] < mark) {
                        #expect(admitted[i], "\(keeping): \(mark) of \(marks)")
                    }
                    if !admitted[i] {
                        #expect(marks[..<i].indices.count { admitted[$0] && marks[$0] < mark } >= keeping)
                    }
                }
                if keeping == 0 { #expect(!admitted.contains(true)) }
            }
        }
    }

    /// A file of thousands of findings from the loader, the decoder and the rules, in mixed order.
    static func hostile(_ rng: inout Rng) -> String {
        var text = "version: 1\npolicy: many\nretry:\n  profiles:\n"
        for i in 0..<2500 {
            switch rng.below(5) {
            case 0: text += "    Bad_\(i): {kind: interactive, maxRetries: 3, base: 500ms, cap: 8s, timeout: 8s, deadline: 15s}\n"
            case 1: text += "    p\(i): {}\n"
            case 2: text += "    q\(i)-a: {kind: interactive, maxRetries: 3, base: 500ms, cap: 8s, timeout: 8s, deadline: 15s}\n"
                    text += "    q\(i)A: {kind: interactive, maxRetries: 3, base: 500ms, cap: 8s, timeout: 8s, deadline: 15s}\n"
            case 3: text += "    r\(i): {kind: interactive, maxRetries: 9, base: 500ms, cap: 8s, timeout: 1s, deadline: 15s, x: 1}\n"
            default: text += "    ok\(i): {kind: interactive, maxRetries: 3, base: 500ms, cap: 8s, timeout: 8s, deadline: 15s}\n"
            }
        }
        return text
    }

    @Test func theReportIsTheEarliestOfAllFindingsAndTheCountIsExact() throws {
        var rng = Rng(state: 59)
        for _ in 0..<3 {
            let bytes = Array(Self.hostile(&rng).utf8)
            let file = Checker.check(bytes, path: "many.yaml")
            // Reference: every finding made, sorted, cut.
            let loaded = Loader.load(bytes)
            var decoder = PolicyDecoder()
            decoder.room = Loader.maxFindings - loaded.diagnostics.count
            decoder.source = LineIndex(bytes)
            var root = loaded.root
            var tree = decoder.decodeRoot(root.take())
            let doc = PolicyDoc(tree.take())
            var all = Findings(keeping: .max)
            for rule in Catalog.rules {
                guard let check = rule.check else { continue }
                all.rule = (rule.id, rule.severity)
                check(doc, &all)
            }
            #expect(all.skipped == 0)
            var everything = loaded.diagnostics + decoder.diagnostics + all.diagnostics
            for i in everything.indices { everything[i].file = "many.yaml" }
            everything.sort(by: Diagnostic.inReportOrder)
            let total = everything.count + loaded.suppressed + decoder.suppressed
            #expect(total > 3 * Loader.maxFindings)
            let reported = file.diagnostics.filter { $0.rule != "input-limit" }
            #expect(reported.map(\.message) == everything.prefix(Loader.maxFindings).map(\.message))
            #expect(Set(reported.map(\.rule)).isSuperset(of: ["bad-name", "name-collision", "missing-key", "unknown-key"]))
            let limit = try #require(file.diagnostics.first { $0.rule == "input-limit" })
            #expect(limit.message == "the file has \(total) findings; only the first \(Loader.maxFindings) are reported")
            // The notice stands where the report's order puts it: the whole report is in order.
            #expect(zip(file.diagnostics, file.diagnostics.dropFirst()).allSatisfy { !Diagnostic.inReportOrder($1, $0) })
        }
    }

    /// Handed the only tree (`owned`), the decoder lets a long list's items and a long mapping's
    /// profiles go once the report is full (`PolicyDecoder.decodeOwned`): its findings, its count past the report's end and what it decodes are those of a decoder
    /// that keeps the tree, whether the report fills before the list, inside it, or never; and it
    /// hands the tree back only when it kept it.
    @Test(arguments: [(0, true), (400, true), (1500, true), (0, false)])
    func longListsLetGoGiveWhatAKeptTreeGives(_ early: Int, _ findings: Bool) throws {
        var text = "version: 1\npolicy: lists\n"
        for i in 0..<early { text += "u\(i): 1\n" }
        text += "retry:\n  retryOn: [429, 503, 503, x]\n  neverRetry: [\n"
        for i in 0..<3000 {
            text += findings && i % 3 != 0 ? "    {code: c\(i)},\n" : "    {status: 503, code: c\(findings ? i % 700 : i)},\n"
        }
        text += "  ]\n  profiles:\n"
        for i in 0..<5000 {
            text += findings && i % 7 == 0 ? "    p\(i): {kind: x, cap: 9s}\n" : "    p\(i): {kind: interactive, maxRetries: 3, base: 500ms, cap: 8s, timeout: 8s, deadline: 15s}\n"
        }
        text += "tickets:\n  reuseKey: [viewer, viewer, nobody]\n"
        let bytes = Array(text.utf8)
        let loaded = Loader.load(bytes)
        #expect(loaded.diagnostics.isEmpty)
        func decoder() -> PolicyDecoder {
            var decoder = PolicyDecoder()
            decoder.room = Loader.maxFindings
            decoder.source = LineIndex(bytes)
            return decoder
        }
        var kept = decoder()
        let keptTree = kept.decodeRoot(loaded.root)
        #expect(kept.releaseTree() != nil)
        var owned = decoder()
        let ownedTree = owned.decodeRoot(Loader.load(bytes).root, owned: true)
        let handedBack = owned.releaseTree()
        #expect(owned.diagnostics == kept.diagnostics)
        #expect(owned.suppressed == kept.suppressed)
        #expect(ownedTree == keptTree)
        // The document read from the tree handed over, its profiles let go as each is read, is the
        // one read from a tree kept.
        let keptDoc = PolicyDoc(keptTree)
        #expect(keptDoc.profiles.count == 5000)
        #expect(PolicyDoc(owning: ownedTree) == keptDoc)
        #expect((kept.diagnostics.count >= Loader.maxFindings) == findings)
        #expect((handedBack == nil) == findings, "the tree is let go once the report is full")
        if !findings { #expect(handedBack.map { PolicyDecoder.mapping(of: $0)?.count } == 4) }
    }

    /// `PolicyDoc(owning:)` takes the profiles out of the tree it reads; documents without them,
    /// or with them where they do not belong, read as they do from a tree kept.
    @Test func documentsReadFromATreeHandedOverAreTheSame() {
        let texts = ["version: 1\n", "retry: 3\n", "retry: {profiles: 3}\n", "retry: {profiles: {}}\n",
                     "retry:\n  profiles:\n    a: {kind: background}\n    b: {}\n  retryOn: [429]\n",
                     "profiles: {a: {}}\nretry: {backoff: full-jitter}\n", ""]
        for text in texts {
            var decoder = PolicyDecoder()
            let tree = decoder.decodeRoot(Loader.load(Array(text.utf8)).root)
            #expect(PolicyDoc(owning: tree) == PolicyDoc(tree), "\(text)")
        }
    }

    /// Past the report's end the decoder only counts, by the fast readings alone: it counts what
    /// it would have reported, for every kind of value a profile or a list item takes.
    @Test func pastTheReportsEndEveryFindingIsCounted() throws {
        let items = ["network", "netwrk", "503", "503.5", "5e2", "+503", "-1", "0x1F", "99999999999999999999", "'503'",
                     "\"network\"", "٣", "1_000", "", "~", "[1]", "{a: 1}", "NETWORK", "6000", "99"]
        let durations = ["1s", "1.5s", "1.0000000000001s", "99999999999999999999s", "1e400s", "-0", ".inf", "5 sec", "8S",
                         "500", "1." + String(repeating: "0", count: 50) + "s", "0.5ms", "x", "'2s'"]
        let counts = ["3", "-1", "99", "3.0", "1e3", "zwei", "0x3", "+3", "٣", "99999999999999999999", "'3'"]
        var text = "version: 1\npolicy: counted\nretry:\n  retryOn:\n"
        for item in items { text += "    - \(item)\n" }
        text += "  profiles:\n"
        for (i, d) in durations.enumerated() {
            text += "    d\(i): {kind: background, maxRetries: \(counts[i % counts.count]), base: \(d), cap: \(d), timeout: 10s, deadline: 60s}\n"
        }
        let loaded = Loader.load(Array(text.utf8))
        var everything = PolicyDecoder()
        everything.room = .max
        _ = everything.decodeRoot(loaded.root)
        var counted = PolicyDecoder()
        counted.room = 0
        _ = counted.decodeRoot(loaded.root)
        #expect(counted.diagnostics.isEmpty)
        #expect(everything.diagnostics.count > 30)
        #expect(counted.suppressed == everything.diagnostics.count)
    }

    /// Thousands of valid profiles, with findings placed early and late, in the last profile,
    /// enough of them late to fill the report, a key misplaced late whose home then is not also
    /// missing it, and aliases, which leave a profile out without a finding of the decoder's:
    /// every profile's finding is reported (the report's first thousand when there are more).
    @Test(arguments: [[], [0], [511], [512, 513], [1_100], [2_600], [4_999], [3_000, 4_000, 4_500],
                      Array(2_000..<3_200), [4_990, -1], [-2], [-2, 4_321]])
    func profilesWithFindingsEarlyAndLateReportEach(findingsAt places: [Int]) throws {
        let count = 5_000
        var text = "version: 1\npolicy: ahead\nretry:\n  profiles:\n"
        for i in 0..<count {
            if places.contains(i) {
                text += i % 2 == 0 ? "    p\(i): {kind: sometimes, maxRetries: 3, base: 500ms, cap: 8s, timeout: 8s, deadline: 15s}\n"
                    : "    p\(i):\n"
            } else if places.contains(-2), i % 700 == 0 {
                // An alias (the loader's finding) is left out without one of the decoder's.
                text += i == 0 ? "    p0: &p {kind: interactive, maxRetries: 3, base: 500ms, cap: 8s, timeout: 8s, deadline: 15s}\n"
                    : "    p\(i): *p\n"
            } else if i == count - 1, places.contains(-1) {
                // `budget` belongs in `retry`, which lacks it: one finding, not two.
                text += "    p\(i): {kind: interactive, maxRetries: 3, base: 500ms, cap: 8s, timeout: 8s, deadline: 15s, budget: {ratio: 10%, minPerMinute: 10}}\n"
            } else {
                text += "    p\(i): {kind: interactive, maxRetries: 3, base: 500ms, cap: 8s, timeout: 8s, deadline: 15s}\n"
            }
        }
        let bytes = Array(text.utf8)
        let one = Checker.check(bytes, path: "ahead.yaml")
        // The profiles' own findings are all there (the report's first thousand when there are
        // more): -1 and -2 make one each, the misplaced key and the aliases (one for all).
        let profileFindings = one.diagnostics.filter { $0.span.start.line > 4 && $0.rule != "input-limit" }
        #expect(profileFindings.count == min(places.count, Loader.maxFindings))
        if places.contains(-1) {
            #expect(one.diagnostics.contains { $0.message.contains("'budget' belongs in") })
            #expect(!one.diagnostics.contains { $0.message.contains("lacks the required key 'budget'") })
        }
    }
}
