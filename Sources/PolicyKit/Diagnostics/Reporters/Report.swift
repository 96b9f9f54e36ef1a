/// The formats of `policyc lint --format`, each a pure function of the checked files.
public enum ReportFormat: String, Sendable, CaseIterable {
    case text, json, github, sarif, junit

    /// Formats read by programs: the report goes to stdout, a one-line summary to stderr.
    public var isMachineReadable: Bool { self != .text }
}

/// How a report is made beyond the files themselves.
public struct ReportOptions: Sendable {
    /// ANSI colour in `text` (the CLI decides: a terminal, and no `NO_COLOR`).
    public var color: Bool
    /// `--strict`: warnings fail the check, so `junit` shows them as failures.
    public var strict: Bool

    public init(color: Bool = false, strict: Bool = false) {
        self.color = color
        self.strict = strict
    }
}

/// Counts of a run: what the summary line and the `json` summary say.
public struct ReportSummary: Sendable, Hashable {
    public var files: Int
    public var errors: Int
    public var warnings: Int

    public init(files: Int, errors: Int, warnings: Int) {
        self.files = files
        self.errors = errors
        self.warnings = warnings
    }

    public init(_ files: [CheckedFile]) {
        // By index, and from the findings themselves: passing each file along, or asking it for
        // its counts, copied it, its whole policy with it.
        var errors = 0, warnings = 0
        for i in files.indices {
            errors += files[i].diagnostics.count { $0.severity == .error }
            warnings += files[i].diagnostics.count { $0.severity == .warning }
        }
        self.init(files: files.count, errors: errors, warnings: warnings)
    }

    /// Lint's one decision: errors fail, warnings fail only under `--strict`.
    public func failed(strict: Bool) -> Bool {
        errors > 0 || (strict && warnings > 0)
    }

    /// `2 errors, 1 warning in 3 files`.
    public var text: String {
        "\(Reporters.count(errors, "error")), \(Reporters.count(warnings, "warning")) in \(Reporters.count(files, "file"))"
    }
}

/// Every reporter, as `[CheckedFile]` → `String`. Output is sorted (files by path, findings by
/// position) so that it does not depend on the order of the arguments or of parallel work.
public enum Reporters {
    public static func render(_ format: ReportFormat, _ files: [CheckedFile],
                              options: ReportOptions = ReportOptions()) -> String {
        switch format {
        case .text: return text(files, color: options.color)
        case .json: return json(files)
        case .github: return github(files)
        case .sarif: return sarif(files)
        case .junit: return junit(files, strict: options.strict)
        }
    }

    /// Files by path, the order `Diagnostic.inReportOrder` gives their findings: those that
    /// `include` accepts. Sorted by index: sorting the files themselves copied each one, its
    /// whole policy with it, and a clean run's report cost more than its checks.
    static func sortedFiles(_ files: [CheckedFile], where include: (CheckedFile) -> Bool = { _ in true }) -> [CheckedFile] {
        files.indices.filter { include(files[$0]) }.sorted { a, b in
            files[a].path != files[b].path ? files[a].path < files[b].path : a < b
        }.map { files[$0] }
    }

    static func sortedDiagnostics(_ files: [CheckedFile]) -> [Diagnostic] {
        var all: [Diagnostic] = []
        for i in files.indices { all += files[i].diagnostics }
        return all.sorted(by: Diagnostic.inReportOrder)
    }

    /// `1 file`, `2 files`, `0 errors`.
    static func count(_ n: Int, _ noun: String) -> String {
        "\(n) \(noun)\(n == 1 ? "" : "s")"
    }

    /// The guide's words behind a rule, for the `guide:` line and the machine formats.
    static func reference(of rule: String) -> Reference? {
        Catalog.rule(named: rule)?.reference
    }

    /// The span's end for formats whose end column is inclusive: never before the start.
    static func inclusiveEnd(_ span: Span) -> Mark {
        if span.end <= span.start { return span.start }
        if span.end.line == span.start.line { return Mark(line: span.end.line, column: max(span.start.column, span.end.column - 1)) }
        return span.end
    }
}
