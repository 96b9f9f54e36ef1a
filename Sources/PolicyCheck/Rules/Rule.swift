import PolicySource

/// Where in the integration guide a rule comes from: the section and the sentence it enforces.
public struct Reference: Sendable, Hashable {
    public var section: String
    public var quote: String?

    public init(_ section: String, quote: String? = nil) {
        self.section = section
        self.quote = quote
    }

    /// `"give ticket requests at least 5 seconds of client timeout" (What Wandura does when it is busy)`
    public var text: String {
        guard let quote else { return section }
        return "\"\(quote)\" (\(section))"
    }
}

/// A YAML text for a rule: its test and its documentation. In a triggering example each `↓`
/// marks where a finding of the rule must point; nothing else may be found in the file except
/// findings of the rules listed in `alsoFinds`.
public struct Example: Sendable {
    public static let marker: Character = "↓"

    public var text: String
    public var triggers: Bool
    /// What the example shows, for the catalog ("a bare number has no unit").
    public var note: String
    public var alsoFinds: [RuleID]
    /// The text after `lint --fix` (its safe fixes), when they change it; nil: they change nothing.
    public var fixed: String?
    /// The text after `lint --fix --unsafe-fixes`, when it differs from `fixed`; nil: the same.
    public var unsafeFixed: String?
    /// Set when the example was built from edits that did not apply (a target text not found):
    /// the catalog test fails on it, so a stale example cannot pass silently.
    public var authoringError: String?
    /// What the example is checked with: a project's limits, a fixed today (see `CheckOptions`).
    public var options: CheckOptions

    public init(_ text: String, triggers: Bool, note: String, alsoFinds: [RuleID] = [],
                fixed: String? = nil, unsafeFixed: String? = nil, options: CheckOptions = .example) {
        self.text = text
        self.triggers = triggers
        self.note = note
        self.alsoFinds = alsoFinds
        self.fixed = fixed
        self.unsafeFixed = unsafeFixed
        self.options = options
    }

    /// The canonical policy (`Canonical.text`) with one piece of text replaced: most examples are a
    /// single change to a policy that is otherwise clean. `fixed` and `unsafeFixed` are what the
    /// fixes make of the replaced piece (see `fixed`).
    public static func canonical(replacing old: String, with new: String, triggers: Bool, note: String,
                                 alsoFinds: [RuleID] = [], fixed: String? = nil, unsafeFixed: String? = nil,
                                 limits: Limits? = nil) -> Example {
        canonical([(old, new)], triggers: triggers, note: note, alsoFinds: alsoFinds,
                  fixed: fixed.map { [(old, $0)] }, unsafeFixed: unsafeFixed.map { [(old, $0)] }, limits: limits)
    }

    /// The canonical policy with several pieces of text replaced, each at its first occurrence;
    /// `fixed` and `unsafeFixed` are replacements of the canonical policy too.
    public static func canonical(_ edits: [(String, String)], triggers: Bool, note: String,
                                 alsoFinds: [RuleID] = [], fixed: [(String, String)]? = nil,
                                 unsafeFixed: [(String, String)]? = nil, limits: Limits? = nil) -> Example {
        var missing: [String] = []
        func apply(_ edits: [(String, String)]) -> String {
            var text = Canonical.text
            for (old, new) in edits {
                if old.isEmpty || !text.contains(old) { missing.append(old) }
                text = text.replacingFirst(old, with: new)
            }
            return text
        }
        var example = Example(apply(edits), triggers: triggers, note: note, alsoFinds: alsoFinds,
                              fixed: fixed.map(apply), unsafeFixed: unsafeFixed.map(apply))
        if let limits { example.options.limits = limits }
        if !missing.isEmpty {
            example.authoringError = "not in the canonical policy: " + missing.map { "'\($0)'" }.joined(separator: ", ")
        }
        return example
    }

    /// What `lint --fix` makes of the example, and `lint --fix --unsafe-fixes`.
    public var expectedSafe: String { fixed ?? source }
    public var expectedUnsafe: String { unsafeFixed ?? expectedSafe }

    /// The text without markers, as the checker sees it.
    public var source: String { String(text.filter { $0 != Example.marker }) }

    /// The positions the markers stand at in `source`, as findings are placed.
    public var markedPositions: [Mark] {
        var offsets: [Int] = [], bytes: [UInt8] = []
        for c in text {
            if c == Example.marker { offsets.append(bytes.count) } else { bytes += c.utf8 }
        }
        let lines = LineIndex(bytes)
        return offsets.map { lines.mark(at: $0) }
    }
}

/// One rule of the catalog. Structural rules (YAML, keys, types) are found by the loader and the
/// decoder and have no `check`; the others check a decoded policy and skip values that are absent.
public struct Rule: Sendable {
    public typealias Check = @Sendable (PolicyDoc, inout Findings) -> Void

    public let id: RuleID
    public let severity: Severity
    /// The kinds of fix its findings may carry (none: it has no fix).
    public let fixes: [Fix.Safety]
    /// One line: when the rule fires.
    public let summary: String
    /// The guide's sentence and section, or nil for rules of the language itself.
    public let reference: Reference?
    /// Built on each use, not with the catalog: every `lint` touches the catalog, and building
    /// the examples (edits of the canonical text) cost more than checking a file.
    public var examples: [Example] { makeExamples() }
    private let makeExamples: @Sendable () -> [Example]
    public let check: Check?

    public init(_ id: RuleID, _ severity: Severity, summary: String, reference: Reference?, fixes: [Fix.Safety] = [],
                examples: @autoclosure @escaping @Sendable () -> [Example], check: Check? = nil) {
        self.id = id
        self.severity = severity
        self.fixes = fixes
        self.summary = summary
        self.reference = reference
        self.makeExamples = examples
        self.check = check
    }
}

/// Collects a rule's findings with its id and severity filled in.
public struct Findings: Sendable {
    public private(set) var diagnostics: [Diagnostic] = []
    /// The rule being checked; findings added without one are dropped.
    var rule: (id: RuleID, severity: Severity)?
    /// The file's lines (see `PolicyDecoder.source`) and tree, from which
    /// fixes are made (none without them).
    var source: LineIndex?
    var root: Node?
    private var madeEditor: FixEditor?
    /// The limits the rules apply: the guide's edition, tightened by the project (see `Limits`).
    public internal(set) var limits = Limits.guide
    /// The languages generated (see `CheckOptions.targets`).
    public internal(set) var targets: Set<CodeTarget> = Set(CodeTarget.allCases)

    public init() {}

    /// Findings that keep `keeping` for the report (tests compare with keeping them all).
    init(keeping: Int) {
        reportEnd = ReportEnd(keeping: keeping)
    }

    /// Where the file's report ends: a finding that starts after the first `Loader.maxFindings`
    /// findings already made can never be reported. It is counted in `skipped`, and its texts
    /// are never made: a hostile file of 300 000 findings spent most of its time on them.
    var reportEnd = ReportEnd(keeping: Loader.maxFindings)
    /// Findings past `reportEnd`, counted and not made.
    public private(set) var skipped = 0

    /// `related` entries with an empty `file` are in the same file (the Checker fills it in).
    /// The texts are made only when the finding can be reported (see `reportEnd`).
    public mutating func add(at span: Span, _ message: @autoclosure () -> String,
                             help: @autoclosure () -> String? = nil,
                             related: @autoclosure () -> [Diagnostic.Related] = [], fix: Fix? = nil) {
        guard let rule else { return }
        guard reportEnd.admits(span.start) else {
            skipped += 1
            return
        }
        diagnostics.append(Diagnostic(span: span, severity: rule.severity, rule: rule.id,
                                      message: message(), help: help(), related: related(), fix: fix))
    }

    /// The file's editor, made on first use: only a finding with a fix needs it. Nil once the
    /// findings fill a file's report (a hostile file of thousands): most would not be reported.
    public mutating func editor() -> FixEditor? {
        guard diagnostics.count < Loader.maxFindings else { return nil }
        if let madeEditor { return madeEditor }
        let made = FixEditor(source, root: root)
        madeEditor = made
        return made
    }

    /// An unsafe fix that writes `key: value` over the value at `span` (quotes kept); `why`, when
    /// given, follows in the description (`write timeout: 5s, the least allowed; …`).
    public mutating func replacing(_ span: Span, key: String, with value: String, why: String? = nil) -> Fix? {
        editor()?.replaceValue(span, with: value).map { Fix(.unsafe, "write \(key): \(value)" + (why.map { ", " + $0 } ?? ""), edits: $0) }
    }
}

extension String {
    func replacingFirst(_ target: String, with replacement: String) -> String {
        guard !target.isEmpty else { return self }
        var result = ""
        var rest = self[...]
        while !rest.isEmpty {
            if rest.hasPrefix(target) {
                return result + replacement + rest.dropFirst(target.count)
            }
            result.append(rest.removeFirst())
        }
        return self
    }
}

/// The starts of the earliest `keeping` findings so far, as a max-heap: a finding is admitted
/// unless that many start before it, so none that report order could show is ever turned away.
struct ReportEnd {
    let keeping: Int
    private var heap: [Mark] = []

    init(keeping: Int) {
        self.keeping = keeping
    }

    /// Whether a finding at `start` may be among the earliest `keeping`; it is then one of them.
    mutating func admits(_ start: Mark) -> Bool {
        if heap.count < keeping {
            heap.append(start)
            siftUp(heap.count - 1)
            return true
        }
        guard let latest = heap.first, keeping > 0, !(latest < start) else { return false }
        heap[0] = start
        siftDown(0)
        return true
    }

    private mutating func siftUp(_ index: Int) {
        var child = index
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[parent] < heap[child] else { return }
            heap.swapAt(parent, child)
            child = parent
        }
    }

    private mutating func siftDown(_ index: Int) {
        var parent = index
        while true {
            var largest = parent
            let left = 2 * parent + 1, right = left + 1
            if left < heap.count && heap[largest] < heap[left] { largest = left }
            if right < heap.count && heap[largest] < heap[right] { largest = right }
            guard largest != parent else { return }
            heap.swapAt(parent, largest)
            parent = largest
        }
    }
}
