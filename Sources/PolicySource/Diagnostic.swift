public enum Severity: String, Sendable, Hashable, Comparable, CaseIterable {
    /// A finding that is accepted (a waiver or the baseline holds it): shown, never counted.
    case note
    case warning
    case error

    private var rank: Int {
        switch self {
        case .note: return 0
        case .warning: return 1
        case .error: return 2
        }
    }

    public static func < (a: Severity, b: Severity) -> Bool { a.rank < b.rank }
}

/// The waiver that turned a finding into a note: who accepted it, why, until when, and where.
public struct Waived: Sendable, Hashable {
    public var owner: String
    public var reason: String
    /// `YYYY-MM-DD`, as written.
    public var expires: String
    public var span: Span

    public init(owner: String, reason: String, expires: String, span: Span) {
        self.owner = owner
        self.reason = reason
        self.expires = expires
        self.span = span
    }
}

/// One finding, as every reporter shows it. A value: stages return these, they never throw them.
public struct Diagnostic: Sendable, Hashable {
    /// The path as the user gave it (or `<stdin>`), never made absolute.
    public var file: String
    public var span: Span
    public var severity: Severity
    public var rule: RuleID
    /// One sentence naming the value found and the limit.
    public var message: String
    /// A suggestion such as a did-you-mean, when there is one.
    public var help: String?
    /// Other places the finding involves (the first of two duplicate keys, say).
    public var related: [Related]
    /// The correction, when the finding has one (see `Fix`).
    public var fix: Fix?
    /// The waiver that accepted the finding (its severity is then `note`).
    public var waived: Waived?
    /// Whether the baseline holds the finding (its severity is then `note`).
    public var baselined = false

    public struct Related: Sendable, Hashable {
        public var file: String
        public var span: Span
        public var message: String

        public init(file: String, span: Span, message: String) {
            self.file = file
            self.span = span
            self.message = message
        }
    }

    public init(
        file: String = "", span: Span, severity: Severity, rule: RuleID, message: String,
        help: String? = nil, related: [Related] = [], fix: Fix? = nil
    ) {
        self.file = file
        self.span = span
        self.severity = severity
        self.rule = rule
        self.message = message
        self.help = help
        self.related = related
        self.fix = fix
    }

    public var line: Int { span.start.line }
    public var column: Int { span.start.column }

    /// The order every report uses: by file, then position, then rule id.
    public static func inReportOrder(_ a: Diagnostic, _ b: Diagnostic) -> Bool {
        if a.file != b.file { return a.file < b.file }
        if a.span.start != b.span.start { return a.span.start < b.span.start }
        if a.rule != b.rule { return a.rule < b.rule }
        return a.message < b.message
    }
}

extension Array where Element == Diagnostic {
    /// Puts the findings in report order (`Diagnostic.inReportOrder`), as a stable sort does. A
    /// list in order, as most are, is only compared; one out of order is sorted by index and each
    /// finding then moved once: sorting the findings themselves copied each (a dozen references)
    /// at every step.
    package mutating func sortForReport() {
        var inOrder = true
        for i in indices.dropFirst() where Diagnostic.inReportOrder(self[i], self[i - 1]) {
            inOrder = false
            break
        }
        if inOrder { return }
        let order = indices.sorted { Diagnostic.inReportOrder(self[$0], self[$1]) }
        self = order.map { self[$0] }
    }

    /// The findings in report order, `sortForReport()` on a copy.
    package func sortedForReport() -> [Diagnostic] {
        var sorted = self
        sorted.sortForReport()
        return sorted
    }
}

extension Diagnostic {
    /// A span's end for the machine formats: never before its start (as SARIF requires).
    package static func end(of span: Span) -> Mark {
        let start = Mark(line: max(1, span.start.line), column: max(1, span.start.column))
        return span.end < start ? start : span.end
    }

    /// `file:line:col: severity: message [rule]`, the first line of the compiler-style text format.
    public var headline: String {
        "\(file):\(line):\(column): \(severity.rawValue): \(printable(message)) [\(rule)]"
    }
}
