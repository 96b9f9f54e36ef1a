import PolicyKit

enum Lint {
    static let formats = ReportFormat.allCases.map(\.rawValue)

    static let spec = CommandSpec(
        name: "lint",
        abstract: "Checks policy files against the language and the integration guide's limits.",
        usage: "policyc lint [--format FORMAT] [--strict] [--fix] [--unsafe-fixes] [--diff] [--project-only] [--baseline FILE] [--write-baseline FILE] [--config FILE] [--today DATE] [PATH ...]",
        arguments: [("PATH", "Policy files, folders, or - for standard input (default: the project file's policies, else Policies/).")],
        options: [
            OptionSpec(name: "--format", valueName: "FORMAT", allowed: formats,
                       help: "How findings are printed.", defaultValue: "text"),
            OptionSpec(name: "--strict", valueName: nil, help: "Warnings fail the check too."),
            OptionSpec(name: "--fix", valueName: nil, help: "Apply the safe fixes to the files, in place."),
            OptionSpec(name: "--unsafe-fixes", valueName: nil, help: "Apply the unsafe fixes too (implies --fix without --diff)."),
            OptionSpec(name: "--diff", valueName: nil, help: "Print the fixes as a unified diff; write nothing."),
            OptionSpec(name: "--project-only", valueName: nil,
                       help: "Check only the PATHs that are the project's policies, skipping others quietly (for pre-commit hooks)."),
            OptionSpec(name: "--baseline", valueName: "FILE",
                       help: "Findings recorded in FILE are notes; only new ones count (default: the project file's baseline)."),
            OptionSpec(name: "--write-baseline", valueName: "FILE", help: "Record every finding in FILE and exit 0."),
            Project.option,
            Project.todayOption,
        ],
        discussion: """
            Machine formats (json, github, sarif, junit) go to stdout and carry inputs that could
            not be read and folders without policy files too; the summary goes to stderr.

            With --project-only, a PATH is checked only when it is one of the policies lint checks
            without a PATH (the project file's policies, else Policies/); the project file itself
            among the PATHs checks every policy of the project. Hooks pass every changed YAML file:
            policyc, not the hook's pattern, decides which are policies.

            FIXES:
              Safe fixes are certain (8 sec -> 8s, yes -> true, "503" -> 503); unsafe ones are a
              choice (a bare number's unit, the nearest value a limit allows, a canonical section).
              A fix changes only the text it corrects; a file formatted as 'policyc fmt' writes
              it stays formatted. Files are replaced whole (temporary file,
              then rename), only when they change, keeping their mode; nothing is written when an
              input cannot be read. What was fixed goes to stderr; the report (stdout) is of the
              findings that remain. With - (standard input) and --fix, the fixed text goes to
              stdout and the report to stderr.

            EXIT STATUS:
              0  no errors (warnings allowed unless --strict)
              1  the check failed: errors, or warnings under --strict (a folder without
                 policy files is a warning); with --fix, the findings that remain; with --diff,
                 also when a fix would change a file
              2  usage error, an error in the project file, or unreadable input
            """,
        run: run)

    static func run(_ args: ParsedArguments) -> Int32 {
        let fixing = args.flag("--fix") || args.flag("--unsafe-fixes") || args.flag("--diff")
        // The project file first: its mistakes would stop the run before any policy is fixed.
        let projectFix = fixing ? Project.fix(args, unsafe: args.flag("--unsafe-fixes"), diff: args.flag("--diff")) : (status: nil, fixed: nil, applied: 0)
        if let status = projectFix.status { return status }
        guard var project = Project.load(args, text: projectFix.fixed) else { return 2 }
        if let note = project.editionNote { Output.err(note) }
        if let out = args.value("--write-baseline") {
            return writeBaseline(out, args: args, project: project)
        }
        guard project.readBaseline(args) else { return 2 }
        // The parser already refused any other value.
        let format = ReportFormat(rawValue: args.value("--format") ?? "text") ?? .text
        let strict = args.flag("--strict")
        let gathered: Files.Expanded
        if args.flag("--project-only"), !args.positionals.isEmpty {
            // nil: the project file is among them, and so every policy is; none: nothing to check.
            let chosen = Workspace.projectPolicies(among: args.positionals, project: project)
            gathered = chosen?.isEmpty == true ? Files.Expanded() : Workspace.gather(chosen ?? [], project: project, allowStdin: false)
        } else {
            gathered = Workspace.gather(args.positionals, project: project, allowStdin: true)
        }
        if fixing {
            return LintFix.run(args, project: project, gathered: gathered, format: format, strict: strict, projectFixes: projectFix.applied)
        }
        let run = Workspace.check(gathered.paths, scenarios: true, options: project.options)
        let readErrors = gathered.errors + run.readErrors
        let notices = notices(readErrors: readErrors, empty: gathered.empty, skipped: gathered.skipped)
        writeReport(format, run.files, notices: notices, options: reportOptions(format, strict: strict, project: project), to: 1)
        reportInputProblems(readErrors: readErrors, empty: gathered.empty, skipped: gathered.skipped)
        let summary = ReportSummary(run.files, notices: notices)
        run.keepUntilExit()
        Output.err(summary.line(strict: strict) + "\n")

        if !readErrors.isEmpty { return 2 }
        return summary.failed(strict: strict) ? 1 : 0
    }

    /// `--write-baseline FILE`: every finding that counts, recorded (the file replaced only when
    /// its bytes change); exit 0 unless an input cannot be read.
    static func writeBaseline(_ out: String, args: ParsedArguments, project: Project) -> Int32 {
        guard !out.isEmpty else { return CommandLine.usageError("'--write-baseline' needs a file", command: spec) }
        let gathered = Workspace.gather(args.positionals, project: project, allowStdin: true)
        let run = Workspace.check(gathered.paths, options: project.options)
        reportInputProblems(readErrors: gathered.errors + run.readErrors, empty: gathered.empty, skipped: gathered.skipped)
        let baseline = Baseline.record(run.files)
        let bytes = Array(baseline.rendered.utf8)
        let written: Result<Bool, OutputFolder.Failure> = Files.exists(out)
            ? OutputFolder.replaceFile(out, with: bytes)
            : OutputFolder.writeNew(out, bytes).map { true }
        if case .failure(let failure) = written {
            Output.err("error: \(failure.message)\n")
            return 2
        }
        Output.err("recorded \(Wording.count(baseline.entries.count, "finding")) in \(printable(out))\n")
        return gathered.errors.isEmpty && run.readErrors.isEmpty ? 0 : 2
    }

    /// What the machine formats carry besides findings: unreadable inputs and empty folders.
    static func notices(readErrors: [Files.ReadError], empty: [String], skipped: [Files.ReadError]) -> [InputNotice] {
        readErrors.map { InputNotice(.unreadable, path: $0.path == "-" ? Files.stdinPath : $0.path, message: $0.message) }
            + empty.map { InputNotice.empty(folder: $0) }
            + skipped.map { InputNotice(.brokenLink, path: $0.path, message: $0.message) }
    }

    /// The report in `format` to `fd`; the text report as the bytes it is made of (made a String,
    /// its UTF-8 would be checked once more, for nothing).
    static func writeReport(_ format: ReportFormat, _ files: [CheckedFile], notices: [InputNotice],
                            options: ReportOptions, to fd: Int32) {
        if format == .text {
            Output.emit(Reporters.textBytes(files, color: options.color), to: fd)
        } else {
            Output.emit(Reporters.render(format, files, notices: notices, options: options), to: fd)
        }
    }

    /// Colour only on a terminal (the one the report goes to), repository paths for GitHub, the
    /// project's rule book for SARIF's links.
    static func reportOptions(_ format: ReportFormat, strict: Bool, project: Project, fd: Int32 = 1) -> ReportOptions {
        var options = ReportOptions(color: format == .text && Output.useColor(fd: fd), strict: strict,
                                    rulePages: project.config.rulePages)
        if format == .github { options.repository = Repository.location() }
        return options
    }

    /// The same problems, for people, on stderr.
    static func reportInputProblems(readErrors: [Files.ReadError], empty: [String], skipped: [Files.ReadError]) {
        for error in readErrors {
            Output.err("error: \(error.message)\n")
        }
        for folder in empty {
            Output.err("warning: no *.yaml or *.yml file under '\(printable(folder))'\n"
                       + "  help: 'policyc init \(Shell.quoted(folder))' writes a first policy there\n")
        }
        for link in skipped {
            Output.err("warning: \(link.message)\n")
        }
    }
}
