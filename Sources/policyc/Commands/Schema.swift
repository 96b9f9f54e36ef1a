import PolicyKit

enum Schema {
    static let spec = CommandSpec(
        name: "schema",
        abstract: "Prints the JSON Schema of the policy language.",
        usage: "policyc schema",
        run: run)

    static func run(_ args: ParsedArguments) -> Int32 {
        Output.err("error: 'policyc schema' is not built yet\n")
        return 2
    }
}
