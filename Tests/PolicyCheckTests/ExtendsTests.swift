import Testing
@testable import PolicySource
@testable import PolicyCheck
@testable import TestSupport

/// `extends`: the merge of a policy over its parents, where each value comes from, and every
/// problem with a parent as a finding at the entry that names it.
@Suite struct ExtendsTests {
    /// The canonical policy as an organisation's base: no name of its own.
    static let base = Canonical.text.replacingFirst("policy: playback\n", with: "abstract: true\n")

    static func check(_ child: String, path: String = "apps/tv.yaml", parents: [String: String]) -> CheckedFile {
        var options = CheckOptions.example
        options.parents = .texts(parents)
        return Checker.check(Array(child.utf8), path: path, options: options)
    }

    static func tree(_ text: String) -> Node {
        Loader.load(Array(text.utf8)).root!
    }

    static func keys(_ node: Node) -> [String] {
        guard case .mapping(let entries) = node.kind else { return [] }
        return entries.map(\.key)
    }

    static func scalar(_ node: Node, _ path: String...) -> String? {
        var node = node
        for key in path {
            guard let entry = TreeMerge.entry(key, of: node) else { return nil }
            node = entry.value
        }
        if case .scalar(let text, _) = node.kind { return text }
        return nil
    }

    @Test func mappingsMergeAndListsAndScalarsReplace() {
        let parent = Self.tree("a: 1\nm:\n  x: 1\n  y: 2\nl: [1, 2]\n")
        let child = Self.tree("m:\n  y: 3\n  z: 4\nl: [9]\nb: 2\n")
        let merged = TreeMerge.merge(parent, child)
        #expect(Self.keys(merged) == ["a", "m", "l", "b"])
        #expect(Self.keys(TreeMerge.entry("m", of: merged)!.value) == ["x", "y", "z"])
        #expect(Self.scalar(merged, "m", "x") == "1" && Self.scalar(merged, "m", "y") == "3")
        guard case .sequence(let items) = TreeMerge.entry("l", of: merged)!.value.kind else {
            Issue.record("l is not a list")
            return
        }
        #expect(items.count == 1)
    }

    @Test func aChildCompletesItsBaseAndIsClean() {
        let file = Self.check("policy: tv\nextends: ../org/base.yaml\nprefetch:\n  ahead: 1\n", parents: ["org/base.yaml": Self.base])
        #expect(file.diagnostics.isEmpty, "\(file.diagnostics.map(\.headline))")
        let policy = file.policy
        #expect(policy?.name == "tv")
        #expect(policy?.prefetchAhead == 1)
        #expect(policy?.profiles.count == 2)
        #expect(policy?.parents == ["org/base.yaml"])
        #expect(file.inheritance?.files == ["apps/tv.yaml", "org/base.yaml"])
    }

    @Test func aFindingInAParentPointsAtItsLineAndNamesTheChild() throws {
        let loose = Self.base.replacingFirst("maxRetries: 3 ", with: "maxRetries: 5 ")
        let file = Self.check("policy: tv\nextends: base.yaml\n", parents: ["apps/base.yaml": loose])
        let d = try #require(file.diagnostics.first)
        #expect(file.diagnostics.count == 1)
        #expect(d.rule == .interactiveRetriesMax)
        #expect(d.file == "apps/base.yaml")
        let line = loose.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.contains("maxRetries: 5") }! + 1
        #expect(d.line == line && d.column == 19)
        #expect(d.message.hasSuffix("(inherited by apps/tv.yaml)"))
        // A fix of the child's lint does not edit its parent.
        #expect(d.fix == nil)
    }

    @Test func aFindingInTheChildKeepsItsPlaceAndFix() throws {
        let file = Self.check("policy: tv\nextends: base.yaml\nprefetch:\n  ahead: 7\n", parents: ["apps/base.yaml": Self.base])
        let d = try #require(file.diagnostics.first { $0.rule == .prefetchAheadMax })
        #expect(d.file == "apps/tv.yaml" && d.line == 4 && d.column == 10)
        #expect(!d.message.contains("inherited"))
        #expect(d.fix != nil)
    }

    @Test func aListOfParentsIsAppliedInOrder() {
        let tight = "abstract: true\nretry:\n  budget:\n    ratio: 5%\nprefetch:\n  ahead: 1\n"
        let wide = "abstract: true\nprefetch:\n  ahead: 2\n"
        let file = Self.check("policy: tv\nextends: [base.yaml, tight.yaml, wide.yaml]\n",
                              parents: ["apps/base.yaml": Self.base, "apps/tight.yaml": tight, "apps/wide.yaml": wide])
        #expect(file.diagnostics.isEmpty, "\(file.diagnostics.map(\.headline))")
        #expect(file.policy?.budgetRatio.percent == 5)
        #expect(file.policy?.prefetchAhead == 2)
        #expect(file.policy?.budgetMinPerMinute == 10)
    }

    @Test func aMissingParentIsOneFindingAtItsEntry() throws {
        let file = Self.check("version: 1\npolicy: tv\nextends:\n  - base.yaml\n  - gone.yaml\n", parents: ["apps/base.yaml": Self.base])
        let d = try #require(file.diagnostics.first)
        #expect(file.diagnostics.count == 1, "\(file.diagnostics.map(\.headline))")
        #expect(d.rule == .extendsParent && d.file == "apps/tv.yaml" && d.line == 5 && d.column == 5)
        #expect(d.message.contains("apps/gone.yaml"))
    }

    @Test func aCycleIsAFindingInEachFileOfIt() throws {
        let a = "policy: a\nextends: b.yaml\n", b = "policy: b\nextends: [a.yaml]\n"
        let file = Self.check(a, path: "a.yaml", parents: ["a.yaml": a, "b.yaml": b])
        let d = try #require(file.diagnostics.first { $0.rule == .extendsParent })
        #expect(d.file == "a.yaml" && d.line == 2 && d.column == 10)
        #expect(d.message == "extends forms a cycle: a.yaml → b.yaml → a.yaml")
        #expect(!file.diagnostics.contains { $0.rule == .missingKey })
        // Extending itself, spelt another way.
        let selfish = Self.check("policy: s\nextends: ./../x/s.yaml\n", path: "x/s.yaml", parents: [:])
        #expect(selfish.diagnostics.map(\.message) == ["extends forms a cycle: x/s.yaml → x/s.yaml"])
    }

    @Test func anInvalidParentIsAFindingThatSaysWhere() throws {
        let file = Self.check("policy: tv\nextends: bad.yaml\n", parents: ["apps/bad.yaml": "version: 1\nretry: [\n"])
        let d = try #require(file.diagnostics.first)
        #expect(file.diagnostics.count == 1)
        #expect(d.rule == .extendsParent && d.line == 2 && d.column == 10)
        #expect(d.message.hasPrefix("the parent 'apps/bad.yaml' is not a valid policy file: apps/bad.yaml:3:1: "))
        let list = Self.check("policy: tv\nextends: list.yaml\n", parents: ["apps/list.yaml": "- 1\n"])
        #expect(list.diagnostics.map(\.message) == ["the parent 'apps/list.yaml' holds no policy mapping"])
    }

    @Test func deepAndWideChainsAreBounded() {
        var files: [String: String] = [:]
        for n in 0..<20 { files["p\(n).yaml"] = "abstract: true\nextends: p\(n + 1).yaml\n" }
        let deep = Self.check("policy: tv\nextends: p0.yaml\n", path: "tv.yaml", parents: files)
        #expect(deep.diagnostics.contains { $0.rule == .extendsParent && $0.message.contains("past the limit") })
        let wide = (0..<40).map { "w\($0).yaml" }
        for name in wide { files[name] = "abstract: true\n" }
        let fan = Self.check("policy: tv\nextends: [\(wide.joined(separator: ", "))]\n", path: "tv.yaml", parents: files)
        #expect(fan.diagnostics.count { $0.rule == .extendsParent } == 40 - ParentChain.maxFiles + 1)
    }

    @Test func aBaseMayLackRequiredKeysButNotBreakTheLanguage() {
        let base = Self.check("abstract: true\nretry:\n  budget:\n    ratio: 20%\n    minPerMinte: 3\n", path: "base.yaml", parents: [:])
        #expect(base.diagnostics.map(\.rule) == [.retryBudgetMax, .unknownKey])
        #expect(base.policy == nil)
        let complete = Self.check(Self.base, path: "base.yaml", parents: [:])
        #expect(complete.diagnostics.isEmpty)
        #expect(complete.policy == nil)
        #expect(complete.doc?.isAbstract == true)
    }

    @Test func extendsMustBeAPathOrAListOfPaths() {
        let file = Self.check("policy: tv\nextends: {a: 1}\n", parents: [:])
        #expect(file.diagnostics.contains { $0.rule == .typeMismatch && $0.line == 2 })
        let abstract = Self.check(Self.base.replacingFirst("abstract: true", with: "abstract: yes"), parents: [:])
        #expect(abstract.diagnostics.contains { $0.rule == .typeMismatch && $0.line == 2 })
    }

    @Test func showGivesEachValueItsOrigin() throws {
        var options = CheckOptions.example
        options.parents = .texts(["apps/base.yaml": Self.base])
        let effective = EffectivePolicy(Array("policy: tv\nextends: base.yaml\nprefetch:\n  ahead: 1\n".utf8), path: "apps/tv.yaml",
                                        options: options)
        #expect(!effective.hasErrors)
        let root = try #require(effective.root)
        #expect(TreeMerge.entry("extends", of: root) == nil)
        let ahead = try #require(TreeMerge.entry("prefetch", of: root).flatMap { TreeMerge.entry("ahead", of: $0.value) })
        #expect(effective.inheritance.locate(ahead.value.span).file == "apps/tv.yaml")
        let unlocked = try #require(TreeMerge.entry("prefetch", of: root).flatMap { TreeMerge.entry("onlyUnlocked", of: $0.value) })
        let origin = effective.inheritance.locate(unlocked.value.span)
        let line = Self.base.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.contains("onlyUnlocked") }! + 1
        #expect(origin.file == "apps/base.yaml" && origin.span.start.line == line)
    }
}
