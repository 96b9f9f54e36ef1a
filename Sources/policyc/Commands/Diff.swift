import PolicyKit

enum Diff {
    static let spec = CommandSpec(
        name: "diff",
        abstract: "Reviews a change of policies: what it means for viewers, servers and apps.",
        usage: "policyc diff",
        run: run)

    static func run(_ args: ParsedArguments) -> Int32 {
        Output.err("error: 'policyc diff' is not built yet\n")
        return 2
    }
}
