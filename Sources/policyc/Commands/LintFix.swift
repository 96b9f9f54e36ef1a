import Dispatch
import PolicyKit

/// `lint --fix`, `--unsafe-fixes` and `--diff`: each file fixed in memory (`Fixer`), then written
/// back as `generate` writes (`OutputFolder.replaceFile`) or shown as a diff. The findings that
/// remain decide the exit status, as for `lint`.
enum LintFix {
    typealias Fixed = (path: String, old: [UInt8], outcome: Fixer.Outcome)

    static func run(_ args: ParsedArguments, project: Project, gathered: Files.Expanded,
                    format: ReportFormat, strict: Bool, projectFixes: Int = 0) -> Int32 {
        let unsafe = args.flag("--unsafe-fixes")
        let diff = args.flag("--diff")
        let paths = gathered.paths
        let stdinOnly = paths == ["-"]
        if paths.contains("-"), !diff, !stdinOnly {
            return CommandLine.usageError("with --fix, standard input ('-') must be the only PATH (its fixed text goes to stdout)",
                                          command: Lint.spec)
        }
        if diff, format != .text {
            return CommandLine.usageError("--diff prints a diff, not findings: it takes no --format", command: Lint.spec)
        }
        var (fixed, readErrors) = fixAll(paths, unsafe: unsafe, options: project.options)
        readErrors = gathered.errors + readErrors
        let notices = Lint.notices(readErrors: readErrors, empty: gathered.empty, skipped: gathered.skipped)
        // Written before anything is reported: a file that could not be written keeps its
        // findings and reports no fix. Nothing is written unless every input could be read: a
        // fix run acts on all it was given.
        let unwritten = !diff && !stdinOnly && readErrors.isEmpty ? write(&fixed) : 0
        var files = fixed.map(\.outcome.file)
        Checker.checkAcrossFiles(&files)
        // A finding across files on a file clean on its own: its text was not kept with it.
        for i in files.indices where files[i].source.isEmpty && !files[i].diagnostics.isEmpty {
            files[i].source = fixed[i].outcome.bytes
        }
        if !diff { removeStaleBaselineEntries(project, &files) }

        // What was (or would be) fixed, on stderr; the project file's fixes were reported as they
        // were made (`Project.fix`).
        let changed = fixed.filter(\.outcome.changed)
        let report = changed.map { FixReport.lines($0.outcome.applied, path: shown($0.path), wouldFix: diff) }.joined()
        let changedFiles = changed.count + (projectFixes > 0 ? 1 : 0)
        let appliedCount = changed.reduce(projectFixes) { $0 + $1.outcome.applied.count }
        if diff {
            Output.out(changed.map { UnifiedDiff.render(old: $0.old, new: $0.outcome.bytes, path: shown($0.path)) }.joined())
            Output.err(report)
        } else if stdinOnly, let only = fixed.first {
            // The fixed text is the output; the report goes beside it, to stderr.
            Output.out(String(decoding: only.outcome.bytes, as: UTF8.self))
            Output.err(report)
            Lint.writeReport(format, files, notices: notices, options: Lint.reportOptions(format, strict: strict, project: project, fd: 2), to: 2)
        } else {
            Output.err(report)
            Lint.writeReport(format, files, notices: notices, options: Lint.reportOptions(format, strict: strict, project: project), to: 1)
        }

        Lint.reportInputProblems(readErrors: readErrors, empty: gathered.empty, skipped: gathered.skipped)
        let verb = diff ? "would fix" : (readErrors.isEmpty ? "fixed" : "nothing written; would fix")
        let summary = ReportSummary(files, notices: notices)
        Output.err(FixReport.done(applied: appliedCount, files: changedFiles, unwritten: unwritten, verb: verb)
            + summary.line(strict: strict) + (unsafe ? "" : FixReport.unsafeAvailable(files)) + "\n")

        if !readErrors.isEmpty { return 2 }
        if unwritten > 0 { return 2 }
        if diff, changedFiles > 0 { return 1 }
        return summary.failed(strict: strict) ? 1 : 0
    }

    static func shown(_ path: String) -> String { path == "-" ? Files.stdinPath : path }

    /// Each file read and fixed on its own: in parallel, or one after the other with
    /// POLICYC_THREADS=1, as `Workspace.check` does. By path, the order of every report.
    static func fixAll(_ paths: [String], unsafe: Bool, options: CheckOptions) -> (fixed: [Fixed], readErrors: [Files.ReadError]) {
        let work = { @Sendable (path: String) -> Result<(bytes: [UInt8], outcome: Fixer.Outcome), Files.ReadError> in
            Files.read(path).map { bytes in
                var outcome = Fixer.fix(bytes, path: shown(path), unsafe: unsafe, options: options)
                // A formatted file stays formatted (`policyc fmt`), its findings read again where they now stand.
                let formatted = PolicyFormatter.keepingLayout(of: bytes, fixed: outcome.bytes)
                if formatted != outcome.bytes {
                    outcome.bytes = formatted
                    outcome.file = Checker.check(formatted, path: shown(path), options: options)
                }
                // A scenario gets no policy's fixes (a `policy:` key added, say): its own findings.
                if let scenario = Workspace.asScenario(bytes, path: shown(path), hasFindings: outcome.changed || !outcome.file.diagnostics.isEmpty) {
                    outcome.bytes = bytes
                    outcome.applied = []
                    outcome.file = scenario
                }
                return (bytes, outcome)
            }
        }
        var results = parallelMap(paths.count) { i -> Result<(bytes: [UInt8], outcome: Fixer.Outcome), Files.ReadError>? in
            work(paths[i])
        }
        var readErrors: [Files.ReadError] = []
        var fixed: [Fixed] = []
        for i in results.indices {
            switch results[i].take()! {
            case .success(let done): fixed.append((paths[i], done.bytes, done.outcome))
            case .failure(let error): readErrors.append(error)
            }
        }
        fixed.sort { $0.path < $1.path }
        return (fixed, readErrors)
    }

    /// Writes the fixed files; one that cannot be written is reported and keeps its old text
    /// and findings. Answers how many could not be written.
    static func write(_ fixed: inout [Fixed]) -> Int {
        var unwritten = 0
        for i in fixed.indices where fixed[i].outcome.changed {
            if case .failure(let f) = OutputFolder.replaceFile(fixed[i].path, with: fixed[i].outcome.bytes) {
                Output.err("error: \(f.message)\n")
                unwritten += 1
                fixed[i].outcome.bytes = fixed[i].old
                fixed[i].outcome.applied = []
                fixed[i].outcome.file = Checker.check(fixed[i].old, path: fixed[i].path)
            }
        }
        return unwritten
    }

    /// The baseline's stale entries are removed from it, as a safe fix removes text.
    static func removeStaleBaselineEntries(_ project: Project, _ files: inout [CheckedFile]) {
        guard let baseline = project.options.baseline else { return }
        let kept = baseline.withoutStale(files)
        let removed = baseline.entries.count - kept.entries.count
        guard removed > 0 else { return }
        switch OutputFolder.replaceFile(baseline.file, with: Array(kept.rendered.utf8)) {
        case .failure(let failure):
            Output.err("error: \(failure.message)\n")
        case .success:
            Output.err("removed \(removed == 1 ? "1 stale entry" : "\(removed) stale entries") from \(printable(baseline.file))\n")
            for i in files.indices { files[i].diagnostics.removeAll { $0.rule == RuleID.baselineStale } }
        }
    }
}
