import Testing
@testable import PolicySource
@testable import PolicyCheck
@testable import PolicyEditor
@testable import TestSupport

/// The editor on a policy that `extends` a base: hover names where values come from, and a
/// finding in the base shows on the document at its `extends` key.
@Suite struct ExtendsEditorTests {
    static let base = Canonical.text
        .replacingFirst("policy: playback\n", with: "abstract: true\n")
        .replacingFirst("maxRetries: 3 ", with: "maxRetries: 4 ")
    static let child = "policy: tv\nextends: base.yaml\nprefetch:\n  ahead: 1\n"

    static var options: CheckOptions {
        var options = CheckOptions.example
        options.parents = .texts(["apps/base.yaml": base])
        return options
    }

    static func line(of text: String, in source: String) -> Int {
        source.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.contains(text) }! + 1
    }

    static func hover(at marker: String) -> String? {
        let lines = LineIndex(child)
        let offset = child.utf8.count - child.split(separator: marker, maxSplits: 1).last!.utf8.count - 1
        let effective = EffectivePolicy(Array(child.utf8), path: "apps/tv.yaml", options: options)
        let doc = Checker.check(Array(child.utf8), path: "apps/tv.yaml", options: options).doc
        return Hover.answer(lines: lines, offset: offset, doc: doc, markdown: true, effective: effective)?.text
    }

    @Test func hoverNamesWhereValuesComeFrom() throws {
        let unlocked = Self.line(of: "onlyUnlocked", in: Self.base)
        let prefetch = try #require(Self.hover(at: "prefetch"))
        #expect(prefetch.contains("Inherited: `onlyUnlocked: true` from apps/base.yaml:\(unlocked)"), "\(prefetch)")
        #expect(!prefetch.contains("`ahead: 1`"))
        let ahead = try #require(Self.hover(at: "ahead"))
        #expect(ahead.contains("Effective value: `1`, written here."), "\(ahead)")
        let extends = try #require(Self.hover(at: "extends"))
        #expect(extends.contains("Extends, in the order applied: apps/base.yaml."), "\(extends)")
    }

    @Test func aFindingInTheBaseShowsAtTheExtendsKey() throws {
        let file = Checker.check(Array(Self.child.utf8), path: "apps/tv.yaml", options: Self.options)
        let placed = EditorInheritance.placed(file.diagnostics, of: file)
        let d = try #require(placed.first)
        #expect(placed.count == 1)
        #expect(d.file == "apps/tv.yaml" && d.line == 2 && d.column == 1)
        let line = Self.line(of: "maxRetries: 4", in: Self.base)
        #expect(d.message.hasSuffix("(inherited from apps/base.yaml:\(line):19)"), "\(d.message)")
        #expect(d.related.first?.file == "apps/base.yaml")
    }

    @Test func anOpenBaseIsReadAsTypedAndItsChildrenAreCheckedAgain() {
        var w = EditorProjectTests.workspace(project: nil, disk: [:])
        let base = "file:///work/repo/Policies/base.yaml", child = "file:///work/repo/Policies/tv.yaml"
        w.openDocument(uri: base, path: "/work/repo/Policies/base.yaml", version: 1, text: Array(Self.base.utf8))
        w.openDocument(uri: child, path: "/work/repo/Policies/tv.yaml", version: 1, text: Array(Self.child.utf8))
        #expect(EditorProjectTests.codes(&w, child) == [.interactiveRetriesMax])
        let fixed = Self.base.replacingFirst("maxRetries: 4 ", with: "maxRetries: 3 ")
        w.change(uri: base, version: 2, changes: [.init(range: nil, text: fixed)], encoding: .utf16)
        #expect(EditorProjectTests.codes(&w, child) == [])
    }
}
