import PolicyKit

enum Schema {
    static let spec = CommandSpec(
        name: "schema",
        abstract: "Prints the JSON Schema of the policy language.",
        usage: "policyc schema [--project | --scenario]",
        options: [
            OptionSpec(name: "--project", valueName: nil, help: "Print the JSON Schema of the project file (policyc.yaml) instead."),
            OptionSpec(name: "--scenario", valueName: nil,
                       help: "Print the JSON Schema of simulation scenario files (policyc simulate) instead."),
        ],
        discussion: """
            The schema (JSON Schema draft 2020-12) is what editors use for completion and hover help;
            it is byte for byte the policy.schema.json that 'policyc generate' writes.

            EXIT STATUS:
              0  printed
              2  usage error
            """,
        run: run)

    static func run(_ args: ParsedArguments) -> Int32 {
        if let extra = args.positionals.first {
            return CommandLine.usageError("unexpected argument '\(printable(extra))'", command: spec)
        }
        if args.flag("--project"), args.flag("--scenario") {
            return CommandLine.usageError("'--project' and '--scenario' ask for two schemas; give one", command: spec)
        }
        Output.out(args.flag("--project") ? SchemaGenerator.text(of: ProjectConfig.schema) : args.flag("--scenario") ? SchemaGenerator.text(of: ScenarioLanguage.schema) : SchemaGenerator.text)
        return 0
    }
}
