import PolicyKit

enum Lint {
    static let formats = ["text", "json", "github", "sarif", "junit"]

    static let spec = CommandSpec(
        name: "lint",
        abstract: "Checks policy files against the language and the integration guide's limits.",
        usage: "policyc lint [--format <format>] [--strict] [<path> ...]",
        arguments: [("PATH", "Policy files, folders, or - for standard input (default: Policies/).")],
        options: [
            OptionSpec(name: "--format", valueName: "FORMAT", allowed: formats,
                       help: "How findings are printed.", defaultValue: "text"),
            OptionSpec(name: "--strict", valueName: nil, help: "Warnings fail the check too."),
        ],
        discussion: """
            EXIT STATUS:
              0  no errors (warnings allowed unless --strict)
              1  the check failed
              2  usage error or unreadable input
            """,
        run: run)

    static func run(_ args: ParsedArguments) -> Int32 {
        let paths: [String]
        switch Workspace.inputs(args.positionals, allowStdin: true) {
        case .failure(let error):
            Output.err("error: \(error.message)\n")
            return 2
        case .success(let p):
            paths = p
        }
        let run = Workspace.check(paths)
        for file in run.files {
            for d in file.diagnostics {
                Output.out("\(d.file):\(d.line):\(d.column): \(d.severity.rawValue): \(d.message) [\(d.rule)]\n")
            }
        }
        for error in run.readErrors {
            Output.err("error: \(error.message)\n")
        }
        if !run.readErrors.isEmpty { return 2 }
        let errors = run.files.reduce(0) { $0 + $1.errorCount }
        let warnings = run.files.reduce(0) { $0 + $1.warningCount }
        return errors > 0 || (args.flag("--strict") && warnings > 0) ? 1 : 0
    }
}
