import PolicyKit

enum Waivers {
    static let spec = CommandSpec(
        name: "waivers",
        abstract: "Lists every waiver of the policies, the soonest to expire first.",
        usage: "policyc waivers [--expiring DAYS] [--format FORMAT] [--config FILE] [--today DATE] [PATH ...]",
        arguments: [("PATH", "Policy files or folders (default: the project file's policies, else Policies/).")],
        options: [
            OptionSpec(name: "--expiring", valueName: "DAYS",
                       help: "Only the waivers that expire within DAYS days of today (expired ones included)."),
            OptionSpec(name: "--format", valueName: "FORMAT", allowed: WaiverReport.Format.allCases.map(\.rawValue),
                       help: "text, json ({\"waivers\": [...]}), csv (RFC 4180) or a markdown table.", defaultValue: "text"),
            Project.option,
            Project.todayOption,
        ],
        discussion: """
            Each waiver with its policy, file and line, rule, at, allow, owner, reason, expiry and
            the days left (negative once expired). A count goes to stderr. For a scheduled job:
            policyc waivers --expiring 30 fails once a waiver has expired and lists those due.

            EXIT STATUS:
              0  listed, none of them expired
              1  a waiver listed has expired
              2  usage error, an error in the project file, or an input that cannot be read
                 (a file that is not YAML: its waivers would be missing from the list)
            """,
        run: run)

    static func run(_ args: ParsedArguments) -> Int32 {
        var within: Int?
        if let text = args.value("--expiring") {
            guard let days = Int(text), days >= 0, text.allSatisfy(\.isASCII) else {
                return CommandLine.usageError("'--expiring' is '\(printable(text))'; write a number of days, 0 or more, such as 30", command: spec)
            }
            within = days
        }
        let format = WaiverReport.Format(rawValue: args.value("--format") ?? "text") ?? .text
        guard let project = Project.load(args) else { return 2 }
        let gathered = Workspace.gather(args.positionals, project: project, allowStdin: false)
        let run = Workspace.check(gathered.paths, options: project.options)
        let today = project.options.today ?? Day.todayUTC()
        let rows = WaiverInventory.rows(run.files, today: today, expiringWithin: within)
        Output.out(WaiverReport.render(format, rows))

        Lint.reportInputProblems(readErrors: gathered.errors + run.readErrors, empty: gathered.empty, skipped: gathered.skipped)
        let unreadable = WaiverInventory.unreadable(run.files)
        for file in unreadable {
            Output.err("error: the waivers of '\(printable(file.file))' cannot be listed: \(file.why)\n")
        }
        Output.err(WaiverInventory.summary(rows, files: run.files.count, expiringWithin: within) + " (today is \(today))\n")
        if !gathered.errors.isEmpty || !run.readErrors.isEmpty || !unreadable.isEmpty { return 2 }
        return rows.contains(where: \.hasExpired) ? 1 : 0
    }
}
