import Dispatch
import PolicyKit

/// `lint --fix`, `--unsafe-fixes` and `--diff`: each file fixed in memory (`Fixer`), then written
/// back as `generate` writes (`OutputFolder.replaceFile`) or shown as a diff. The findings that
/// remain decide the exit status, as for `lint`.
enum LintFix {
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

        // Each file read and fixed on its own: in parallel, or one after the other with
        // POLICYC_THREADS=1, as `Workspace.check` does.
        let options = project.options
        let work = { @Sendable (path: String) -> Result<(bytes: [UInt8], outcome: Fixer.Outcome), Files.ReadError> in
            Files.read(path).map { bytes in
                let shown = path == "-" ? Files.stdinPath : path
                var outcome = Fixer.fix(bytes, path: shown, unsafe: unsafe, options: options)
                // A scenario gets no policy's fixes (a `policy:` key added, say): its own findings.
                if let scenario = Workspace.asScenario(bytes, path: shown, hasFindings: outcome.changed || !outcome.file.diagnostics.isEmpty) {
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
        var readErrors = gathered.errors
        var fixed: [(path: String, old: [UInt8], outcome: Fixer.Outcome)] = []
        for i in results.indices {
            switch results[i].take()! {
            case .success(let done): fixed.append((paths[i], done.bytes, done.outcome))
            case .failure(let error): readErrors.append(error)
            }
        }
        let notices = Lint.notices(readErrors: readErrors, empty: gathered.empty, skipped: gathered.skipped)
        // In the order of every report: by path.
        fixed.sort { $0.path < $1.path }

        // Written before anything is reported: a file that could not be written keeps its
        // findings and reports no fix. Nothing is written unless every input could be read: a
        // fix run acts on all it was given.
        var status: Int32 = 0
        var unwritten = 0
        if !diff, !stdinOnly, readErrors.isEmpty {
            for i in fixed.indices where fixed[i].outcome.changed {
                if case .failure(let f) = OutputFolder.replaceFile(fixed[i].path, with: fixed[i].outcome.bytes) {
                    Output.err("error: \(f.message)\n")
                    status = 2
                    unwritten += 1
                    fixed[i].outcome.bytes = fixed[i].old
                    fixed[i].outcome.applied = []
                    fixed[i].outcome.file = Checker.check(fixed[i].old, path: fixed[i].path)
                }
            }
        }
        var files = fixed.map(\.outcome.file)
        Checker.checkAcrossFiles(&files)
        // A finding across files on a file clean on its own: its text was not kept with it.
        for i in files.indices where files[i].source.isEmpty && !files[i].diagnostics.isEmpty {
            files[i].source = fixed[i].outcome.bytes
        }
        // The baseline's stale entries are removed from it, as a safe fix removes text.
        if !diff, let baseline = project.options.baseline {
            let kept = baseline.withoutStale(files)
            let removed = baseline.entries.count - kept.entries.count
            if removed > 0 {
                switch OutputFolder.replaceFile(baseline.file, with: Array(kept.rendered.utf8)) {
                case .failure(let failure):
                    Output.err("error: \(failure.message)\n")
                case .success:
                    Output.err("removed \(removed == 1 ? "1 stale entry" : "\(removed) stale entries") from \(printable(baseline.file))\n")
                    for i in files.indices { files[i].diagnostics.removeAll { $0.rule == RuleID.baselineStale } }
                }
            }
        }

        // What was (or would be) fixed, on stderr.
        var report = ""
        // The project file's fixes were reported as they were made (`Project.fix`).
        var changedFiles = projectFixes > 0 ? 1 : 0, appliedCount = projectFixes
        for entry in fixed where entry.outcome.changed {
            changedFiles += 1
            appliedCount += entry.outcome.applied.count
            let shownPath = printable(entry.path == "-" ? Files.stdinPath : entry.path)
            // As many lines as a file has findings at most (a hostile file may have thousands of fixes).
            for a in entry.outcome.applied.prefix(Loader.maxFindings) {
                report += "\(shownPath):\(a.span.start.line):\(a.span.start.column): \(diff ? "would fix" : "fixed"): "
                    + "\(printable(a.description))\(a.safety == .unsafe ? " (unsafe)" : "") [\(a.rule)]\n"
            }
            if entry.outcome.applied.count > Loader.maxFindings {
                report += "\(shownPath): and \(entry.outcome.applied.count - Loader.maxFindings) more fixes\n"
            }
        }

        if diff {
            var out = ""
            for entry in fixed where entry.outcome.changed {
                out += UnifiedDiff.render(old: entry.old, new: entry.outcome.bytes,
                                          path: entry.path == "-" ? Files.stdinPath : entry.path)
            }
            Output.out(out)
            Output.err(report)
            if changedFiles > 0 { status = 1 }
        } else if stdinOnly, let only = fixed.first {
            // The fixed text is the output; the report goes beside it, to stderr.
            Output.out(String(decoding: only.outcome.bytes, as: UTF8.self))
            Output.err(report)
            Lint.writeReport(format, files, notices: notices, options: Lint.reportOptions(format, strict: strict, fd: 2), to: 2)
        } else {
            Output.err(report)
            Lint.writeReport(format, files, notices: notices, options: Lint.reportOptions(format, strict: strict), to: 1)
        }

        Lint.reportInputProblems(readErrors: readErrors, empty: gathered.empty, skipped: gathered.skipped)
        let verb = diff ? "would fix" : (readErrors.isEmpty ? "fixed" : "nothing written; would fix")
        var line = appliedCount == 0 && unwritten == 0
            ? "nothing to fix; "
            : appliedCount == 0 ? "" : "\(verb) \(Wording.count(appliedCount, "finding")) in \(Wording.count(changedFiles, "file")); "
        if unwritten > 0 { line += "nothing fixed in \(Wording.count(unwritten, "file")) that could not be written; " }
        let summary = ReportSummary(files, notices: notices)
        line += summary.line(strict: strict)
        if !unsafe {
            let available = files.reduce(0) { $0 + $1.diagnostics.count { $0.fix?.safety == .unsafe } }
            if available > 0 { line += "; \(Wording.count(available, "unsafe fix", "unsafe fixes")) available with --unsafe-fixes" }
        }
        Output.err(line + "\n")

        if !readErrors.isEmpty { return 2 }
        if status != 0 { return status }
        return summary.failed(strict: strict) ? 1 : 0
    }
}
