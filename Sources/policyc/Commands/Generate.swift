import PolicyKit

enum Generate {
    static let spec = CommandSpec(
        name: "generate",
        abstract: "Validates, then writes the generated Swift, Kotlin and JSON Schema.",
        usage: "policyc generate",
        run: run)

    static func run(_ args: ParsedArguments) -> Int32 {
        Output.err("error: 'policyc generate' is not built yet\n")
        return 2
    }
}
