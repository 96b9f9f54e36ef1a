import PolicyKit

enum Rules {
    static let spec = CommandSpec(
        name: "rules",
        abstract: "Prints the rule catalog with examples.",
        usage: "policyc rules [--format FORMAT]",
        options: [
            OptionSpec(name: "--format", valueName: "FORMAT", allowed: CatalogReport.Format.allCases.map(\.rawValue),
                       help: "text with examples, the README's markdown table, or json with everything.",
                       defaultValue: "text"),
        ],
        discussion: """
            EXIT STATUS:
              0  printed
              2  usage error
            """,
        run: run)

    static func run(_ args: ParsedArguments) -> Int32 {
        if let extra = args.positionals.first {
            return CommandLine.usageError("unexpected argument '\(printable(extra))'; 'rules' takes no path", command: spec)
        }
        let format = CatalogReport.Format(rawValue: args.value("--format") ?? "text") ?? .text
        Output.out(CatalogReport.render(format))
        return 0
    }
}
