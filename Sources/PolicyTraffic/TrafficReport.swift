import PolicySource
import PolicyCheck
import PolicyReport

/// What one run of `verify` found: the findings, the per-client summary, and the recordings
/// that could not be read (with why and where).
public struct TrafficRun: Sendable {
    public var files: [String]
    public var findings: [TrafficFinding]
    public var summaries: [ClientSummary]
    public var errors: [(file: String, error: HARError)]
    /// What the traffic was judged by: `Policies/playback.yaml`, or the guide's own policy.
    public var policy: String

    public init(files: [String], findings: [TrafficFinding], summaries: [ClientSummary],
                errors: [(file: String, error: HARError)], policy: String) {
        self.files = files
        self.findings = findings
        self.summaries = summaries
        self.errors = errors
        self.policy = policy
    }

    public var errorCount: Int { findings.count { $0.severity == .error } }
    public var warningCount: Int { findings.count { $0.severity == .warning } }

    /// `2 errors, 1 warning in 3 recordings (4 clients)`.
    public var summaryLine: String {
        var line = "\(Wording.count(errorCount, "error")), \(Wording.count(warningCount, "warning")) in "
            + "\(Wording.count(files.count, "recording")) (\(Wording.count(Set(summaries.map { $0.file + "\u{0}" + $0.client }).count, "client")))"
        if !errors.isEmpty { line += "; \(Wording.count(errors.count, "recording")) could not be read" }
        return line
    }

    /// `file:line:col: error: ...`, as the text format and stderr show a recording that cannot be read.
    public static func errorLine(_ file: String, _ error: HARError) -> String {
        "\(printable(file)):\(error.line):\(error.column): error: \(error.message) (byte \(error.offset)) [\(error.rule)]"
    }
}

public enum TrafficReport {
    public enum Format: String, Sendable, CaseIterable {
        case text, json, sarif, github, junit, markdown
    }

    public static func render(_ format: Format, _ run: TrafficRun) -> String {
        switch format {
        case .text: return text(run)
        case .json: return json(run).rendered()
        case .sarif: return sarif(run)
        case .github: return github(run)
        case .junit: return junit(run)
        case .markdown: return markdown(run)
        }
    }

    /// Lint's shape (`file:line:col: severity: message [rule]`), the entries involved and the
    /// guide's words below each, then the clients and the summary line.
    static func text(_ run: TrafficRun) -> String {
        var out = ""
        for (file, error) in run.errors { out += TrafficRun.errorLine(file, error) + "\n" }
        for finding in run.findings {
            out += "\(printable(finding.file)):\(finding.mark.line):\(finding.mark.column): \(finding.severity.rawValue): \(printable(finding.message)) [\(finding.rule)]\n"
            out += "    entries: \(finding.entries.map(String.init).joined(separator: ", ")); client: \(printable(finding.client))\n"
            if let reference = Traffic.rule(finding.rule)?.reference { out += "    guide: \(printable(reference.text))\n" }
        }
        if !run.summaries.isEmpty {
            out += (out.isEmpty ? "" : "\n") + "clients (judged by \(printable(run.policy))):\n"
            for s in run.summaries {
                out += "  \(printable(s.file)): \(printable(s.client)), profile \(printable(s.profile)): \(s.words)\n"
            }
        }
        return out + run.summaryLine + "\n"
    }

    /// `{"findings": [{"rule", "severity", "message", "file", "entry", "entries", "client", "line",
    /// "column"}], "clients": [{"client", "file", "profile", "calls", "attempts", "retries",
    /// "mostRetries", "waitsMs", "allowedMaxMs"}], "errors": [...], "summary": {...}}`.
    static func json(_ run: TrafficRun) -> JSON {
        .object([
            "findings": .array(run.findings.map { f in
                .object([
                    "rule": .string(f.rule.rawValue), "severity": .string(f.severity.rawValue), "message": .string(f.message),
                    "file": .string(f.file), "entry": .int(f.entry), "entries": .array(f.entries.map(JSON.int)),
                    "client": .string(f.client), "line": .int(f.mark.line), "column": .int(f.mark.column),
                ])
            }),
            "clients": .array(run.summaries.map { s in
                .object([
                    "client": .string(s.client), "file": .string(s.file), "profile": .string(s.profile),
                    "calls": .int(s.calls), "attempts": .int(s.attempts), "retries": .int(s.retries),
                    "mostRetries": .int(s.mostRetries),
                    "waitsMs": s.waits.map { .object(["min": .int($0.low), "max": .int($0.high)]) } ?? .null,
                    "allowedMaxMs": .int(s.allowedHigh),
                ])
            }),
            "errors": .array(run.errors.map { file, error in
                .object(["file": .string(file), "message": .string(error.message), "line": .int(error.line),
                         "column": .int(error.column), "offset": .int(error.offset), "rule": .string(error.rule)])
            }),
            "summary": .object(["recordings": .int(run.files.count), "errors": .int(run.errorCount),
                                "warnings": .int(run.warningCount), "unreadable": .int(run.errors.count),
                                "policy": .string(run.policy)]),
        ])
    }

    /// GitHub workflow commands, escaped as `lint --format github` escapes them.
    static func github(_ run: TrafficRun) -> String {
        var out = ""
        for (file, error) in run.errors {
            out += "::error file=\(Reporters.githubProperty(file)),line=\(error.line),col=\(error.column),title=\(error.rule)::\(Reporters.githubData(error.message))\n"
        }
        for f in run.findings {
            let kind = f.severity == .error ? "error" : "warning"
            out += "::\(kind) file=\(Reporters.githubProperty(f.file)),line=\(f.mark.line),col=\(f.mark.column),title=\(Reporters.githubProperty(f.rule.rawValue))::"
                + Reporters.githubData(f.message + "\nentries: " + f.entries.map(String.init).joined(separator: ", ") + "; client: " + f.client) + "\n"
        }
        return out
    }

    /// One testsuite per recording, one testcase per finding (failing for an error).
    static func junit(_ run: TrafficRun) -> String {
        var suites = "", tests = 0, failures = 0
        func x(_ s: String) -> String { Wording.xml(s, attribute: true) }
        for file in run.files {
            let own = run.findings.filter { $0.file == file }
            var cases = ""
            if let error = run.errors.first(where: { $0.file == file })?.error {
                cases += "    <testcase name=\"read\" classname=\"\(x(file))\"><error message=\"\(x(error.description))\" type=\"\(x(error.rule))\"/></testcase>\n"
            }
            for f in own {
                cases += "    <testcase name=\"\(x("\(f.rule) at entries[\(f.entry)]"))\" classname=\"\(x(file))\" file=\"\(x(file))\" line=\"\(f.mark.line)\">"
                cases += f.severity == .error
                    ? "<failure message=\"\(x(f.message))\" type=\"\(x(f.rule.rawValue))\">\(Wording.xml("entries: \(f.entries.map(String.init).joined(separator: ", ")); client: \(f.client)", attribute: false))</failure>"
                    : "<system-out>\(Wording.xml(f.message, attribute: false))</system-out>"
                cases += "</testcase>\n"
            }
            if cases.isEmpty { cases = "    <testcase name=\"verify\" classname=\"\(x(file))\" file=\"\(x(file))\"/>\n" }
            let count = max(1, own.count), failed = own.count { $0.severity == .error }
            let errored = run.errors.contains { $0.file == file } ? 1 : 0
            tests += count
            failures += failed
            suites += "  <testsuite name=\"\(x(file))\" tests=\"\(count + errored)\" failures=\"\(failed)\" errors=\"\(errored)\" skipped=\"0\">\n" + cases + "  </testsuite>\n"
        }
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"policyc verify\" tests=\"\(tests)\" failures=\"\(failures)\" errors=\"\(run.errors.count)\">\n"
            + suites + "</testsuites>\n"
    }

    /// A pull request comment: the findings and the clients as tables.
    static func markdown(_ run: TrafficRun) -> String {
        func cell(_ s: String) -> String { printable(s).replacingAll("|", with: "\\|") }
        var out = "## policyc verify\n\n" + run.summaryLine + " — judged by `\(cell(run.policy))`.\n"
        for (file, error) in run.errors { out += "\n**\(cell(file))** could not be read: \(cell(error.description))\n" }
        if !run.findings.isEmpty {
            out += "\n| recording | entry | rule | severity | finding |\n|---|---|---|---|---|\n"
            for f in run.findings {
                out += "| \(cell(f.file)) | \(f.entry) | `\(f.rule)` | \(f.severity.rawValue) | \(cell(f.message)) |\n"
            }
        }
        if !run.summaries.isEmpty {
            out += "\n| recording | client | profile | calls | attempts | retries | most in a call | waits |\n|---|---|---|---|---|---|---|---|\n"
            for s in run.summaries {
                let waits = s.waits.map { "\(Clock.wait($0.low))–\(Clock.wait($0.high)) (allowed ≤ \(Clock.wait(s.allowedHigh)))" } ?? "—"
                out += "| \(cell(s.file)) | \(cell(s.client)) | \(cell(s.profile)) | \(s.calls) | \(s.attempts) | \(s.retries) | \(s.mostRetries) | \(waits) |\n"
            }
        }
        return out
    }
}
