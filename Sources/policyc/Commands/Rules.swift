import PolicyKit

enum Rules {
    static let spec = CommandSpec(
        name: "rules",
        abstract: "Prints the rule catalog with examples.",
        usage: "policyc rules",
        run: run)

    static func run(_ args: ParsedArguments) -> Int32 {
        Output.err("error: 'policyc rules' is not built yet\n")
        return 2
    }
}
