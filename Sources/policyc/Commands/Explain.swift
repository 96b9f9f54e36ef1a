import PolicyKit

enum Explain {
    static let formats = ["text", "markdown", "json"]

    static let spec = CommandSpec(
        name: "explain",
        abstract: "What each policy means for a viewer and for the servers.",
        usage: "policyc explain [--format FORMAT] [--config FILE] [--today DATE] [PATH ...]",
        arguments: [("PATH", "Policy files or folders (default: the project file's policies, else Policies/).")],
        options: [
            OptionSpec(name: "--format", valueName: "FORMAT", allowed: formats,
                       help: "How the explanation is printed.", defaultValue: "text"),
            Project.option,
            Project.todayOption,
        ],
        discussion: """
            Per profile: attemptsMax (maxRetries + 1), maxBackoffTotalMs (the largest waits
            between attempts, added up), worstCaseAttempts (attempts that start before the
            deadline when each runs to its timeout and each wait is at its longest) and
            worstCaseWaitMs (how long a viewer can wait before Retry shows). Per policy: what
            the retry budget lets retries add to the load during an outage, and what honouring
            Retry-After costs. Each profile also gets the figures of the standard outage, simulated
            ('policyc simulate --scenario outage'), and the built-in scenario that shows its
            weakest point: the one where it is furthest behind the guide's own policy (by the
            project file's 'review:' thresholds), else the one hardest on it.

            When the project file names a guide edition or tightens limits, the limits in effect
            follow, each with where it comes from.

            A policy that breaks limits of the guide is explained as written, its findings
            listed with it, so that a reviewer sees what it would do (generate still refuses
            it). A file whose values are missing or unreadable is not explained: its findings
            go to standard error (and into markdown and json output).

            EXIT STATUS:
              0  every policy explained, none with errors
              1  a file has errors (explained as written or not explained)
              2  usage error, an error in the project file, or unreadable input
            """,
        run: run)

    static func run(_ args: ParsedArguments) -> Int32 {
        guard let (project, paths) = Project.loadWithPolicies(args, command: spec) else { return 2 }
        let run = Workspace.check(paths, options: project.options)
        var explanation = Explanation(files: run.files)
        let format = args.value("--format") ?? "text"
        // Text shows the findings of an explained policy with it; a machine or comment format
        // still tells the terminal why the exit status is 1.
        if format != "text" {
            for p in explanation.policies where p.errors > 0 {
                Output.err(p.findings.filter { $0.severity == .error }.map { $0.headline + "\n" }.joined())
            }
        }
        for f in explanation.notExplained {
            let errors = f.diagnostics.filter { $0.severity == .error }
            Output.err(errors.map { $0.headline + "\n" }.joined() + "\(printable(f.file)): not explained: \(f.reason)\n")
        }
        for error in run.readErrors {
            Output.err("error: \(error.message)\n")
        }

        explanation.addSimulatedFigures(thresholds: project.config.review)
        // The limits in effect, when the project file chose them (an edition, tighter limits).
        let limits = project.options.limits
        let chosen = project.config.guide != nil || !limits.origins.isEmpty
        switch format {
        case "json":
            var json = explanation.json
            if chosen, case .object(var members) = json {
                members["limits"] = CatalogReport.limitsJSON(limits)
                json = .object(members)
            }
            Output.out(json.rendered())
        case "markdown": Output.out(explanation.markdown + (chosen ? "\n" + CatalogReport.limitsMarkdown(limits) : ""))
        default: Output.out(explanation.text + (chosen ? "\n" + CatalogReport.limitsText(limits) : ""))
        }
        let failed = !explanation.notExplained.isEmpty || explanation.policies.contains { $0.errors > 0 }
        if !run.readErrors.isEmpty { return 2 }
        return failed ? 1 : 0
    }
}
