import PolicyKit

enum Lint {
    static let formats = ReportFormat.allCases.map(\.rawValue)

    static let spec = CommandSpec(
        name: "lint",
        abstract: "Checks policy files against the language and the integration guide's limits.",
        usage: "policyc lint [--format FORMAT] [--strict] [--config FILE] [PATH ...]",
        arguments: [("PATH", "Policy files, folders, or - for standard input (default: the project file's policies, else Policies/).")],
        options: [
            OptionSpec(name: "--format", valueName: "FORMAT", allowed: formats,
                       help: "How findings are printed.", defaultValue: "text"),
            OptionSpec(name: "--strict", valueName: nil, help: "Warnings fail the check too."),
            Project.option,
        ],
        discussion: """
            Machine formats (json, github, sarif, junit) go to stdout and carry inputs that could
            not be read and folders without policy files too; the summary goes to stderr.

            EXIT STATUS:
              0  no errors (warnings allowed unless --strict)
              1  the check failed: errors, or warnings under --strict (a folder without
                 policy files is a warning)
              2  usage error, an error in the project file, or unreadable input
            """,
        run: run)

    static func run(_ args: ParsedArguments) -> Int32 {
        guard let project = Project.load(args) else { return 2 }
        // The parser already refused any other value.
        let format = ReportFormat(rawValue: args.value("--format") ?? "text") ?? .text
        let strict = args.flag("--strict")
        let gathered = Workspace.gather(args.positionals, project: project, allowStdin: true)
        let run = Workspace.check(gathered.paths)
        let readErrors = gathered.errors + run.readErrors
        let notices = readErrors.map { InputNotice(.unreadable, path: $0.path == "-" ? Files.stdinPath : $0.path, message: $0.message) }
            + gathered.empty.map { InputNotice.empty(folder: $0) }

        var options = ReportOptions(color: format == .text && Output.useColor(fd: 1), strict: strict)
        if format == .github { options.repository = Repository.location() }
        Output.out(Reporters.render(format, run.files, notices: notices, options: options))

        for error in readErrors {
            Output.err("error: \(error.message)\n")
        }
        for folder in gathered.empty {
            Output.err("warning: no *.yaml or *.yml file under '\(printable(folder))'\n")
        }
        let summary = ReportSummary(run.files, notices: notices)
        Output.err(summary.line(strict: strict) + "\n")

        if !readErrors.isEmpty { return 2 }
        return summary.failed(strict: strict) ? 1 : 0
    }
}
