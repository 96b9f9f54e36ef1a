import PolicyKit

enum Init {
    static let spec = CommandSpec(
        name: "init",
        abstract: "Writes a canonical policy file; never overwrites.",
        usage: "policyc init",
        run: run)

    static func run(_ args: ParsedArguments) -> Int32 {
        Output.err("error: 'policyc init' is not built yet\n")
        return 2
    }
}
