import PolicyKit

enum Schema {
    static let spec = CommandSpec(
        name: "schema",
        abstract: "Prints the JSON Schema of the policy language.",
        usage: "policyc schema [--scenario]",
        options: [
            OptionSpec(name: "--scenario", valueName: nil,
                       help: "Print the JSON Schema of simulation scenario files (policyc simulate) instead."),
        ],
        discussion: """
            The schema (JSON Schema draft 2020-12) is what editors use for completion and hover help;
            it is byte for byte the policy.schema.json that 'policyc generate' writes.
            """,
        run: run)

    static func run(_ args: ParsedArguments) -> Int32 {
        if let extra = args.positionals.first {
            return CommandLine.usageError("unexpected argument '\(printable(extra))'", command: spec)
        }
        Output.out(args.flag("--scenario") ? ScenarioSchema.text : SchemaGenerator.text)
        return 0
    }
}
