import PolicyKit

enum Explain {
    static let spec = CommandSpec(
        name: "explain",
        abstract: "What each policy means for a viewer and for the servers.",
        usage: "policyc explain",
        run: run)

    static func run(_ args: ParsedArguments) -> Int32 {
        Output.err("error: 'policyc explain' is not built yet\n")
        return 2
    }
}
