#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import PolicyKit

enum Simulate {
    static let formats = ["text", "markdown", "json", "csv", "svg"]

    static let spec = CommandSpec(
        name: "simulate",
        abstract: "Simulates a fleet of clients following each policy through an outage, a surge or a brownout.",
        usage: "policyc simulate [--scenario NAME|FILE ...] [--profile NAME] [--seed N] [--format FORMAT] [--chart FILE] [--base GIT_REF [--base-exact]] [--config FILE] [--today DATE] [PATH ...]",
        arguments: [("PATH", "Policy files or folders (default: the project file's policies, else Policies/).")],
        options: [
            OptionSpec(name: "--scenario", valueName: "NAME|FILE",
                       help: "A built-in scenario (\(Scenario.builtinNames.joined(separator: ", ")); all: every one) or a scenario file; "
                           + "may be given several times.", defaultValue: "outage", repeatable: true),
            OptionSpec(name: "--profile", valueName: "NAME",
                       help: "The profile every call uses (default: the scenario's, else the first interactive profile)."),
            OptionSpec(name: "--seed", valueName: "N",
                       help: "Seeds the random draws instead of the scenario's seed (an integer of 0 or more)."),
            OptionSpec(name: "--format", valueName: "FORMAT", allowed: formats,
                       help: "How the results are printed (csv is the per-second series).", defaultValue: "text"),
            OptionSpec(name: "--chart", valueName: "FILE",
                       help: "Also write the SVG chart of every run to FILE."),
            OptionSpec(name: "--base", valueName: "GIT_REF",
                       help: "Also run each policy as the merge base of GIT_REF and HEAD has it (as diff --base reads it), under the same scenarios and seeds, side by side."),
            OptionSpec(name: "--base-exact", valueName: nil, help: "With --base: GIT_REF itself, not its merge base with HEAD."),
            Project.option,
            Project.todayOption,
        ],
        discussion: """
            Every client starts calls as a Poisson process and follows the profile exactly as the
            generated code does: isRetryable, the backoff strategy or Retry-After plus jitter, the
            timeout, the deadline and its own retry budget. The server sheds or queues at its
            capacity; faults are outages, surges and brownouts in windows of time. Per policy and
            scenario: calls, attempts, retries, successes, failures by reason, amplification,
            peak load, viewers who saw Retry, time to a ticket (p50/p95/p99), recovery after the
            last fault and wasted attempts; json and csv add the per-second series.

            Built-in scenarios, at peak time (100000 devices, 833 calls a second, capacity 1000 a
            second, shedding with 503 and Retry-After 1s; a refusal costs a fifth of a ticket):
              outage    a 30s outage answering 503 without Retry-After (the one diff and explain use)
              surge     three times the calls for 60s
              brownout  half the capacity for 60s
              spike     five times the calls for 5s, shed with Retry-After 5s
              reset     no answers for 10s, then a load balancer restart fails every waiting request
              backlog   queueing servers (viewers and sync jobs); twice the calls for 10s
              backend   40 services and 2000 jobs whose retry budgets bind, through a 60s outage
            '--scenario all' runs every one; each guide rule protects a figure in at least one.
            The scenario file format is in Docs/simulate.md; 'policyc schema --scenario' prints its
            JSON Schema. The same policy, scenario and seed give the same bytes on every machine.

            A policy that breaks the guide's limits is still simulated (its findings go to standard
            error); one with any other error is not.

            EXIT STATUS:
              0  every policy simulated under every scenario
              1  a policy or scenario file has errors, or a run could not be made
              2  usage error, an error in the project file, or unreadable input
            """,
        run: run)

    static func run(_ args: ParsedArguments) -> Int32 {
        if args.positionals.contains("-") {
            return CommandLine.usageError("standard input ('-') is accepted by 'lint' only", command: spec)
        }
        var seed: UInt64?
        if let text = args.value("--seed") {
            guard case .value(let n) = Values.integer(text), n >= 0 else {
                return CommandLine.usageError("'\(printable(text))' is not a seed; give an integer of 0 or more (up to \(Values.maxMagnitude))",
                                              command: spec)
            }
            seed = UInt64(n)
        }
        let format = args.value("--format") ?? "text"
        if let chart = args.value("--chart"), chart.isEmpty || chart == "-" {
            return CommandLine.usageError("--chart needs a file name", command: spec)
        }

        // Scenarios: built-in names and files.
        var failed = false
        let scenarios: [Scenario], scenarioFiles: [ScenarioFile?]
        switch loadScenarios(args) {
        case .failure(let status): return status.code
        case .success(let loaded): (scenarios, scenarioFiles, failed) = loaded
        }

        // Policies: limit findings are shown and do not stop a run; other errors do.
        guard let project = Project.load(args) else { return 2 }
        if let ref = args.value("--base") {
            return againstBase(ref, args: args, project: project, scenarios: scenarios, failed: failed, seed: seed, format: format)
        }
        guard let paths = Workspace.inputsOrReport(args.positionals, project: project, allowStdin: false) else { return 2 }
        let checked = Workspace.check(paths, options: project.options)
        for error in checked.readErrors { Output.err("error: \(error.message)\n") }
        Output.err(Reporters.text(checked.files, color: Output.useColor(fd: 2)))
        var policies: [Policy] = []
        // A base (`abstract: true`) is simulated through the policies that extend it.
        for file in checked.files where file.doc?.isAbstract != true {
            if let policy = file.simulatable {
                policies.append(policy)
            } else {
                failed = true
                Output.err("\(printable(file.path)): not simulated: the file has errors other than the guide's limits\n")
            }
        }

        let runs = simulate(policies, scenarios: Array(zip(scenarios, scenarioFiles)), profile: args.value("--profile"),
                            seed: seed, failed: &failed)
        let report = SimulationReport(runs)
        if let chart = args.value("--chart") {
            if let message = write(SimulationChart.svg(runs), to: chart) {
                Output.err("error: \(message)\n")
                return 2
            }
        }
        switch format {
        case "json": Output.out(report.json.rendered())
        case "csv": Output.out(report.csv)
        case "svg": Output.out(SimulationChart.svg(runs))
        case "markdown": Output.out(report.markdown)
        default: Output.out(report.text)
        }
        if !checked.readErrors.isEmpty { return 2 }
        return failed ? 1 : 0
    }

    struct Status: Error {
        var code: Int32
    }

    /// The scenarios of `--scenario` (`outage` without one, `all` for every built-in one), and
    /// whether any has errors; a failure (its exit status) once why went to stderr.
    static func loadScenarios(_ args: ParsedArguments) -> Result<(scenarios: [Scenario], files: [ScenarioFile?], failed: Bool), Status> {
        var failed = false
        var scenarios: [Scenario] = []
        var scenarioFiles: [ScenarioFile?] = []
        let values = args.values("--scenario").isEmpty ? ["outage"] : args.values("--scenario")
        // 'all': every built-in scenario, in their order.
        for value in values.flatMap({ $0 == "all" ? Scenario.builtinNames : [$0] }) {
            switch scenario(value) {
            case .usage(let message):
                return .failure(Status(code: CommandLine.usageError(message, command: spec)))
            case .unreadable(let message):
                Output.err("error: \(message)\n")
                return .failure(Status(code: 2))
            case .invalid(let file):
                Output.err(findingsText(file))
                failed = true
            case .loaded(let s, let file):
                scenarios.append(s)
                scenarioFiles.append(file)
            }
        }
        return .success((scenarios, scenarioFiles, failed))
    }

    /// Every policy under every scenario, in parallel; results in that order whatever the
    /// threads. A run that cannot be made is reported and sets `failed`.
    static func simulate(_ policies: [Policy], scenarios: [(Scenario, ScenarioFile?)], profile: String?, seed: UInt64?,
                         failed: inout Bool) -> [SimulationRun] {
        var planned: [(Policy, Scenario)] = []
        for p in policies {
            for (s, file) in scenarios {
                // A scenario file naming a profile the policy lacks: a finding at that name.
                if profile == nil, let file, let finding = file.profileFinding(for: p) {
                    var shown = file
                    shown.diagnostics = [finding]
                    Output.err(findingsText(shown))
                    failed = true
                    continue
                }
                planned.append((p, s))
            }
        }
        var runs: [SimulationRun] = []
        for (i, result) in runAll(planned, profile: profile, seed: seed).enumerated() {
            switch result {
            case .success(let run): runs.append(run)
            case .failure(let failure):
                failed = true
                Output.err("error: \(printable(planned[i].0.file)), scenario \(printable(planned[i].1.name)): \(failure.message)\n")
            }
        }
        return runs
    }

    enum Loaded {
        case loaded(Scenario, ScenarioFile?)
        case invalid(ScenarioFile)
        case unreadable(String)
        case usage(String)
    }

    /// A value of --scenario: a built-in name, else a file (a value with a '/' or a YAML extension
    /// is always a file).
    static func scenario(_ value: String) -> Loaded {
        let looksLikeFile = value.contains("/") || PolicyPaths.isPolicyFile(value)
        if !looksLikeFile, let s = Scenario.builtin(value) { return .loaded(s, nil) }
        guard looksLikeFile || Files.exists(value) else {
            let hint = Suggest.nearest(value, in: Scenario.builtinNames).map { "; did you mean '\($0)'?" }
                ?? "; the built-in scenarios are \(Scenario.builtinNames.joined(separator: ", ")), or give a scenario file"
            return .usage("unknown scenario '\(printable(value))'\(hint)")
        }
        switch Files.read(value) {
        case .failure(let error): return .unreadable(error.message)
        case .success(let bytes):
            let file = ScenarioLoader.load(bytes, path: value)
            if let s = file.scenario {
                if !file.diagnostics.isEmpty { Output.err(findingsText(file)) }
                return .loaded(s, file)
            }
            return .invalid(file)
        }
    }

    /// Writes `text` to `path` through a temporary file beside it and a rename: the chart is whole
    /// or not there, never half written. Nil, or what went wrong.
    static func write(_ text: String, to path: String) -> String? {
        let temp = path + ".policyc-tmp-\(getpid())"
        unlink(temp)
        if case .failure(let f) = OutputFolder.writeNew(temp, Array(text.utf8), flush: false) { return f.message }
        guard rename(temp, path) == 0 else {
            let message = "cannot write '\(printable(path))': \(Files.describeErrno())"
            unlink(temp)
            return message
        }
        return nil
    }
}

/// A scenario file's findings in lint's compiler style, with the source line and a caret.
private func findingsText(_ file: ScenarioFile) -> String {
    Reporters.text([CheckedFile(path: file.path, diagnostics: file.diagnostics, doc: nil, policy: nil, source: file.source)],
                   color: Output.useColor(fd: 2))
}
