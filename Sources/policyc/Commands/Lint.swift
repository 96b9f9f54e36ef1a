import PolicyKit

enum Lint {
    static let formats = ReportFormat.allCases.map(\.rawValue)

    static let spec = CommandSpec(
        name: "lint",
        abstract: "Checks policy files against the language and the integration guide's limits.",
        usage: "policyc lint [--format <format>] [--strict] [<path> ...]",
        arguments: [("PATH", "Policy files, folders, or - for standard input (default: Policies/).")],
        options: [
            OptionSpec(name: "--format", valueName: "FORMAT", allowed: formats,
                       help: "How findings are printed.", defaultValue: "text"),
            OptionSpec(name: "--strict", valueName: nil, help: "Warnings fail the check too."),
        ],
        discussion: """
            EXIT STATUS:
              0  no errors (warnings allowed unless --strict)
              1  the check failed
              2  usage error or unreadable input
            """,
        run: run)

    static func run(_ args: ParsedArguments) -> Int32 {
        // The parser already refused any other value.
        let format = ReportFormat(rawValue: args.value("--format") ?? "text") ?? .text
        let strict = args.flag("--strict")
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
