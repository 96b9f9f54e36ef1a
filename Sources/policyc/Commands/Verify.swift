#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import PolicyKit

enum Verify {
    /// Larger recordings are refused (`input-limit`) unless `--max-size` allows them.
    static let defaultMaxSize = 512 << 20

    static let spec = CommandSpec(
        name: "verify",
        abstract: "Checks HAR recordings of the ticket API against the policy and the guide.",
        usage: "policyc verify RECORDING ... [--policy FILE] [--profile NAME] [--tolerance MS] [--format FORMAT] [--max-size BYTES] [--config FILE]",
        arguments: [("RECORDING", "HAR 1.2 files (Chrome, Firefox, Charles, Proxyman, mitmproxy exports; gzip-compressed too).")],
        options: [
            OptionSpec(name: "--policy", valueName: "FILE",
                       help: "The policy the traffic is judged by (default: the project's only policy, else the guide's own)."),
            OptionSpec(name: "--profile", valueName: "NAME",
                       help: "The profile of calls without a play item (default: the policy's first interactive profile)."),
            OptionSpec(name: "--tolerance", valueName: "MS",
                       help: "How far a measured wait may be off, for the recorder's clock.", defaultValue: "50"),
            OptionSpec(name: "--format", valueName: "FORMAT", allowed: TrafficReport.Format.allCases.map(\.rawValue),
                       help: "How findings are printed.", defaultValue: "text"),
            OptionSpec(name: "--max-size", valueName: "BYTES",
                       help: "The largest recording read, in bytes (a suffix K, M or G counts binary units).", defaultValue: "512M"),
            Project.option,
        ],
        discussion: """
            Ticket requests are the project file's 'verify: {endpoint: GLOB}' requests, else every
            POST whose JSON body has an 'episodes' list. A client is a union_info and viewer_ref;
            an attempt that asks again for items that failed (same film_ref, episode_no and
            intent) within the profile's deadline is a retry. The rules (traffic-*) are explained
            by 'policyc rules'; Docs/verify.md shows how to record a session.

            EXIT STATUS:
              0  no finding
              1  findings
              2  usage error, an error in the project file or the policy, or a recording that
                 cannot be read (not JSON, no log.entries, truncated, over --max-size)
            """,
        run: run)

    static func run(_ args: ParsedArguments) -> Int32 {
        guard !args.positionals.isEmpty else { return CommandLine.usageError("give at least one recording (a .har file)", command: spec) }
        let format = TrafficReport.Format(rawValue: args.value("--format") ?? "text") ?? .text
        guard let tolerance = Int(args.value("--tolerance") ?? "50"), tolerance >= 0, tolerance <= 60_000 else {
            return CommandLine.usageError("--tolerance is '\(printable(args.value("--tolerance") ?? ""))'; give milliseconds from 0 to 60000", command: spec)
        }
        guard let maxSize = Recordings.size(args.value("--max-size") ?? "512M") else {
            return CommandLine.usageError("--max-size is '\(printable(args.value("--max-size") ?? ""))'; give bytes, such as 2000000000 or 2G", command: spec)
        }
        guard let project = Project.load(args) else { return 2 }
        guard let (policy, policyName) = policy(args, project: project) else { return 2 }
        if let profile = args.value("--profile"), !policy.profiles.contains(where: { $0.name == profile }) {
            return CommandLine.usageError("the policy has no profile '\(printable(profile))'; it has \(Wording.list(policy.profiles.map(\.name)))", command: spec)
        }
        let options = TrafficOptions(policy: policy, profile: args.value("--profile"), toleranceMs: tolerance,
                                     endpoint: project.config.verifyEndpoint?.value)
        var run = TrafficRun(files: args.positionals, findings: [], summaries: [], errors: [], policy: policyName)
        for file in args.positionals {
            switch Recordings.read(file, maxSize: maxSize).flatMap({ Traffic.read($0, file: file, options: options) }) {
            case .failure(let error): run.errors.append((file, error))
            case .success(let recording):
                if recording.clients.isEmpty {
                    // A recording without ticket requests passes, but say so: a wrong export or endpoint looks clean.
                    Output.err("note: \(printable(file)) holds no ticket request among its \(Wording.count(recording.entryCount, "entry", "entries")) "
                        + "(\(options.endpoint.map { "verify.endpoint '\(printable($0))'" } ?? "a POST whose JSON body has an 'episodes' list"))\n")
                }
                run.findings += Traffic.check(recording)
                run.summaries += recording.summaries
            }
        }
        Output.out(TrafficReport.render(format, run))
        if format != .text {
            for (file, error) in run.errors { Output.err(TrafficRun.errorLine(file, error) + "\n") }
            Output.err(run.summaryLine + "\n")
        }
        return !run.errors.isEmpty ? 2 : run.findings.isEmpty ? 0 : 1
    }

    /// `--policy`, else the project's policies: exactly one, or the guide's own when there is none.
    static func policy(_ args: ParsedArguments, project: Project) -> (Policy, String)? {
        let gathered = Workspace.gather(args.value("--policy").map { [$0] } ?? [], project: project, allowStdin: false)
        if args.value("--policy") == nil, gathered.paths.isEmpty {
            guard let guide = Traffic.guidePolicy else { return nil }
            Output.err("note: no policy file in this project; judging by the guide's own policy (give --policy FILE)\n")
            return (guide, "the guide's policy")
        }
        if let error = gathered.errors.first {
            Output.err("error: \(error.message)\n")
            return nil
        }
        guard gathered.paths.count == 1 else {
            Output.err("error: the project has \(gathered.paths.count) policies (\(Wording.list(gathered.paths.map(printable)))); choose one with --policy FILE\n")
            return nil
        }
        let checked = Workspace.check(gathered.paths, options: project.options)
        for error in checked.readErrors { Output.err("error: \(error.message)\n") }
        guard let file = checked.files.first, let policy = file.simulatable else {
            Output.err(Reporters.text(checked.files, color: Output.useColor(fd: 2)))
            Output.err("error: the policy has errors; fix them (policyc lint) before verifying traffic against it\n")
            return nil
        }
        return (policy, file.path)
    }
}
