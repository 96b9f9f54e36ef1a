import PolicyKit

enum Lint {
    static let formats = ReportFormat.allCases.map(\.rawValue)

    static let spec = CommandSpec(
        name: "lint",
        abstract: "Checks policy files against the language and the integration guide's limits.",
        usage: "policyc lint [--format <format>] [--strict] [--fix] [--unsafe-fixes] [--diff] [<path> ...]",
        arguments: [("PATH", "Policy files, folders, or - for standard input (default: Policies/).")],
        options: [
            OptionSpec(name: "--format", valueName: "FORMAT", allowed: formats,
                       help: "How findings are printed.", defaultValue: "text"),
            OptionSpec(name: "--strict", valueName: nil, help: "Warnings fail the check too."),
            OptionSpec(name: "--fix", valueName: nil, help: "Apply the safe fixes to the files, in place."),
            OptionSpec(name: "--unsafe-fixes", valueName: nil, help: "Apply the unsafe fixes too (implies --fix without --diff)."),
            OptionSpec(name: "--diff", valueName: nil, help: "Print the fixes as a unified diff; write nothing."),
        ],
        discussion: """
            FIXES:
              Safe fixes are certain (8 sec -> 8s, yes -> true, "503" -> 503); unsafe ones are a
              choice (a bare number's unit, the nearest value a limit allows, a canonical section).
              A fix changes only the text it corrects. Files are replaced whole (temporary file,
              then rename), only when they change, keeping their mode; nothing is written when an
              input cannot be read. What was fixed goes to stderr; the report (stdout) is of the
              findings that remain. With - (standard input) and --fix, the fixed text goes to
              stdout and the report to stderr.

            EXIT STATUS:
              0  no errors (warnings allowed unless --strict)
              1  the check failed (with --fix, the findings that remain; with --diff, also when
                 a fix would change a file)
              2  usage error or unreadable input
            """,
        run: run)

    static func run(_ args: ParsedArguments) -> Int32 {
        // The parser already refused any other value.
        let format = ReportFormat(rawValue: args.value("--format") ?? "text") ?? .text
        let strict = args.flag("--strict")
        if args.flag("--fix") || args.flag("--unsafe-fixes") || args.flag("--diff") {
            return LintFix.run(args, format: format, strict: strict)
        }
        let gathered = Workspace.gather(args.positionals, allowStdin: true)
        let run = Workspace.check(gathered.paths)
        let readErrors = gathered.errors + run.readErrors

        let options = ReportOptions(color: format == .text && Output.useColor(fd: 1), strict: strict)
        Output.out(Reporters.render(format, run.files, options: options))

        for error in readErrors {
            Output.err("error: \(error.message)\n")
        }
        for folder in gathered.empty {
            Output.err("warning: no *.yaml or *.yml file under '\(printable(folder))'\n")
        }
        let summary = ReportSummary(run.files)
        var line = summary.text
        if !readErrors.isEmpty {
            line += "; \(readErrors.count) \(readErrors.count == 1 ? "path" : "paths") could not be read"
        }
        Output.err(line + "\n")

        if !readErrors.isEmpty { return 2 }
        return summary.failed(strict: strict) ? 1 : 0
    }
}
