import PolicyKit

enum Rules {
    static let spec = CommandSpec(
        name: "rules",
        abstract: "Prints the rule catalog with examples.",
        usage: "policyc rules [--format FORMAT] [--config FILE]",
        options: [
            OptionSpec(name: "--format", valueName: "FORMAT", allowed: CatalogReport.Format.allCases.map(\.rawValue),
                       help: "text with examples, the README's markdown table, or json with everything.",
                       defaultValue: "text"),
            Project.option,
        ],
        discussion: """
            The catalog ends with the limits in effect: the guide edition's, or the project
            file's (guide: and limits: in policyc.yaml), each with where it comes from.

            EXIT STATUS:
              0  printed
              2  usage error, or an error in the project file
            """,
        run: run)

    static func run(_ args: ParsedArguments) -> Int32 {
        if let extra = args.positionals.first {
            return CommandLine.usageError("unexpected argument '\(printable(extra))'; 'rules' takes no path", command: spec)
        }
        let format = CatalogReport.Format(rawValue: args.value("--format") ?? "text") ?? .text
        guard let project = Project.load(args) else { return 2 }
        Output.out(CatalogReport.render(format, limits: project.options.limits, Traffic.catalog))
        return 0
    }
}
