import PolicySource
import PolicyCheck

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
    /// Where the run is, for formats that name files by their path in the repository (`github`);
    /// nil outside a repository, and paths are then shown as given.
    public var repository: RepositoryLocation?
    /// Where each rule's page is, for the formats that link to it (`sarif`'s `helpUri`).
    public var rulePages: RulePages

    public init(color: Bool = false, strict: Bool = false, repository: RepositoryLocation? = nil,
                rulePages: RulePages = .standard) {
        self.color = color
        self.strict = strict
        self.repository = repository
        self.rulePages = rulePages
    }
}

/// The repository's root and the working folder, both absolute: a path given relative to the
/// working folder becomes a path relative to the root, as GitHub matches annotations.
public struct RepositoryLocation: Sendable, Hashable {
    public var root: String
    public var workingDirectory: String

    public init(root: String, workingDirectory: String) {
        self.root = root
        self.workingDirectory = workingDirectory
    }

    /// `path` (as given on the command line) relative to the root, when it lies below it; else
    /// as given. Resolved lexically, as the paths were given.
    public func relative(_ path: String) -> String {
        guard !path.isEmpty, path != "<stdin>" else { return path }
        let absolute = path.hasPrefix("/") ? path : workingDirectory + "/" + path
        var parts: [Substring] = []
        for part in absolute.split(separator: "/") {
            if part == "." { continue }
            if part == ".." {
                if parts.isEmpty { return path }
                parts.removeLast()
                continue
            }
            parts.append(part)
        }
        let rootParts = root.split(separator: "/").filter { $0 != "." }
        guard parts.count > rootParts.count, parts.starts(with: rootParts) else { return path }
        return parts[rootParts.count...].joined(separator: "/")
    }
}

/// A problem with an input itself rather than with what it says: a path that could not be read
/// (the run exits 2), or a folder without a policy file (a warning, which `--strict` fails).
/// Every format carries them, so a report read by a program never looks clean when it is not.
public struct InputNotice: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable {
        /// `unreadable-input`: a file or folder that could not be read.
        case unreadable = "unreadable-input"
        /// `no-policy-files`: a folder without any `*.yaml` or `*.yml` file.
        case empty = "no-policy-files"
        /// `broken-link`: a `*.yaml` symbolic link in a folder that leads to no file (a missing
        /// target, a loop): a warning, as the policy it stood for is not checked.
        case brokenLink = "broken-link"
    }

    public var kind: Kind
    /// The path as given or found (`Policies/sub`).
    public var path: String
    /// `cannot read 'Policies/sub': Permission denied`.
    public var message: String

    public init(_ kind: Kind, path: String, message: String) {
        self.kind = kind
        self.path = path
        self.message = message
    }

    /// A folder without policy files, with the message lint prints for it.
    public static func empty(folder: String) -> InputNotice {
        InputNotice(.empty, path: folder, message: "no *.yaml or *.yml file under '\(printable(folder))'")
    }

    public var severity: Severity { kind == .unreadable ? .error : .warning }
}

/// Counts of a run: what the summary line and the `json` summary say.
public struct ReportSummary: Sendable, Hashable {
    public var files: Int
    /// Error findings in the files.
    public var errors: Int
    /// Warning findings in the files, and folders without policy files.
    public var warnings: Int
    /// Paths that could not be read: not findings, but they fail the run (exit 2).
    public var unreadable: Int
    /// Findings accepted by a waiver or the baseline (notes): shown, not counted.
    public var accepted = 0

    public init(files: Int, errors: Int, warnings: Int, unreadable: Int = 0) {
        self.files = files
        self.errors = errors
        self.warnings = warnings
        self.unreadable = unreadable
    }

    public init(_ files: [CheckedFile], notices: [InputNotice] = []) {
        // By index, and from the findings themselves: passing each file along, or asking it for
        // its counts, copied it, its whole policy with it; and `count(where:)` copied each
        // finding.
        var errors = 0, warnings = 0, accepted = 0
        for i in files.indices {
            for j in files[i].diagnostics.indices {
                switch files[i].diagnostics[j].severity {
                case .error: errors += 1
                case .warning: warnings += 1
                case .note: accepted += 1
                }
            }
        }
        warnings += notices.count { $0.severity == .warning }
        self.init(files: files.count, errors: errors, warnings: warnings,
                  unreadable: notices.count { $0.kind == .unreadable })
        self.accepted = accepted
    }

    /// Lint's one decision: errors fail, warnings fail only under `--strict`. (An unreadable
    /// path fails the run harder: exit 2.)
    public func failed(strict: Bool) -> Bool {
        errors > 0 || (strict && warnings > 0)
    }

    /// `2 errors, 1 warning in 3 files`.
    public var text: String {
        "\(Wording.count(errors, "error")), \(Wording.count(warnings, "warning")) in \(Wording.count(files, "file"))"
    }

    /// The summary line: `text`, the paths that could not be read, and why warnings alone fail
    /// (`0 errors, 1 warning in 1 file; failing because of --strict`).
    public func line(strict: Bool) -> String {
        var line = text
        if accepted > 0 {
            line += " (\(Wording.count(accepted, "accepted finding")) not counted: waived or in the baseline)"
        }
        if unreadable > 0 {
            line += "; \(unreadable) \(unreadable == 1 ? "path" : "paths") could not be read"
        }
        if strict, errors == 0, warnings > 0 {
            line += "; failing because of --strict (warnings fail the check)"
        }
        return line
    }
}

/// Every reporter, as `[CheckedFile]` → `String`. Output is sorted (files by path, findings by
/// position) so that it does not depend on the order of the arguments or of parallel work.
public enum Reporters {
    /// The report of `files`; `notices` are the run's problems with inputs themselves (the
    /// `text` format leaves them to the CLI's lines on stderr).
    public static func render(_ format: ReportFormat, _ files: [CheckedFile], notices: [InputNotice] = [],
                              options: ReportOptions = ReportOptions()) -> String {
        switch format {
        case .text: return text(files, color: options.color)
        case .json: return json(files, notices: notices)
        case .github: return github(files, notices: notices, repository: options.repository)
        case .sarif: return sarif(files, notices: notices, pages: options.rulePages)
        case .junit: return junit(files, notices: notices, strict: options.strict)
        }
    }

    /// Notices by path, then kind: the order of every report.
    static func sortedNotices(_ notices: [InputNotice]) -> [InputNotice] {
        notices.sorted { a, b in a.path != b.path ? a.path < b.path : a.kind.rawValue < b.kind.rawValue }
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
        all.sortForReport()
        return all
    }

    /// The guide's words behind a rule, for the `guide:` line and the machine formats.
    static func reference(of rule: RuleID) -> Reference? {
        Catalog.rule(rule)?.reference
    }

    /// The span's end for formats whose end column is inclusive: never before the start.
    static func inclusiveEnd(_ span: Span) -> Mark {
        if span.end <= span.start { return span.start }
        if span.end.line == span.start.line { return Mark(line: span.end.line, column: max(span.start.column, span.end.column - 1)) }
        return span.end
    }
}

extension Diagnostic {
    /// Why an accepted finding does not count: `waived until 2027-03-31 by @payments-platform
    /// (policy.yaml:40:5): reason`, or that the baseline holds it; nil for a finding that counts.
    public var acceptance: String? {
        if let waived {
            return "waived until \(waived.expires) by \(excerpt(waived.owner)) (\(file):\(waived.span.start.line):\(waived.span.start.column)): \(excerpt(waived.reason))"
        }
        return baselined ? "accepted: recorded in the baseline" : nil
    }
}
