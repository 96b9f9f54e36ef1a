import PolicyKit

enum Explain {
    static let formats = ["text", "markdown", "json"]

    static let spec = CommandSpec(
        name: "explain",
        abstract: "What each policy means for a viewer and for the servers.",
        usage: "policyc explain [--format <format>] [<path> ...]",
        arguments: [("PATH", "Policy files or folders (default: Policies/).")],
        options: [
            OptionSpec(name: "--format", valueName: "FORMAT", allowed: formats,
                       help: "How the explanation is printed.", defaultValue: "text"),
        ],
        discussion: """
            Per profile: attemptsMax (maxRetries + 1), maxBackoffTotalMs (the largest waits
            between attempts, added up), worstCaseAttempts (attempts that start before the
            deadline when each runs to its timeout and each wait is at its longest) and
            worstCaseWaitMs (how long a viewer can wait before Retry shows). Per policy: what
            the retry budget lets retries add to the load during an outage. Each profile also gets
            the figures of the standard outage, simulated ('policyc simulate --scenario outage').

            A file with errors is not explained: its findings go to standard error.

            EXIT STATUS:
              0  every policy explained
              1  a file has errors
              2  usage error or unreadable input
            """,
        run: run)

    static func run(_ args: ParsedArguments) -> Int32 {
        if args.positionals.contains("-") {
            return CommandLine.usageError("standard input ('-') is accepted by 'lint' only", command: spec)
        }
        guard let paths = Workspace.inputsOrReport(args.positionals, allowStdin: false) else { return 2 }
        let run = Workspace.check(paths)
        var failed = false
        for file in run.files where file.policy == nil {
            failed = true
            let errors = file.diagnostics.filter { $0.severity == .error }
            Output.err(errors.isEmpty ? "\(printable(file.path)): error: not a complete policy\n"
                                      : errors.map { $0.headline + "\n" }.joined())
        }
        for error in run.readErrors {
            Output.err("error: \(error.message)\n")
        }

        var explanation = Explanation(run.files.compactMap(\.policy))
        explanation.addOutageFigures()   // simulate (issue 14)
        switch args.value("--format") ?? "text" {
        case "json": Output.out(explanation.json.rendered())
        case "markdown": Output.out(explanation.markdown)
        default: Output.out(explanation.text)
        }
        if !run.readErrors.isEmpty { return 2 }
        return failed ? 1 : 0
    }
}
