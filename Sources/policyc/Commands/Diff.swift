import PolicyKit

enum Diff {
    static let formats = ["text", "markdown", "json"]

    static let spec = CommandSpec(
        name: "diff",
        abstract: "Reviews a change of policies: what it means for viewers, servers and apps.",
        usage: "policyc diff [--format FORMAT] [--allow-breaking] [--allow-worse] [--allow-widen] [--baseline FILE] [--config FILE] [--today DATE] OLD NEW\n"
            + "       policyc diff --base GIT_REF [--base-exact] [--format FORMAT] [--allow-breaking] [--allow-worse] [--allow-loosen] [--allow-widen] [--baseline FILE] [--config FILE] [--today DATE] [PATH ...]",
        arguments: [
            ("OLD NEW", "Two policy files or folders: the policies before and after the change."),
            ("PATH", "With --base: files or folders of the working tree (default: the project file's policies, else Policies/)."),
        ],
        options: [
            OptionSpec(name: "--base", valueName: "GIT_REF",
                       help: "Compare the working tree with the same paths at the merge base of this git revision and HEAD."),
            OptionSpec(name: "--base-exact", valueName: nil,
                       help: "With --base: compare with GIT_REF itself, not with its merge base with HEAD."),
            OptionSpec(name: "--format", valueName: "FORMAT", allowed: formats,
                       help: "How the review is printed (markdown is for a pull-request comment).", defaultValue: "text"),
            OptionSpec(name: "--allow-breaking", valueName: nil,
                       help: "A change that removes generated code (a policy or profile) does not fail the check."),
            OptionSpec(name: "--allow-worse", valueName: nil,
                       help: "A change that makes a simulated outage worse past the project's thresholds does not fail the check."),
            OptionSpec(name: "--allow-loosen", valueName: nil,
                       help: "A project file that loosens a limit or a review threshold does not fail the check."),
            OptionSpec(name: "--allow-widen", valueName: nil,
                       help: "A waiver that covers more than before (no 'at', a laxer 'allow', a later expiry) does not fail the check."),
            OptionSpec(name: "--baseline", valueName: "FILE",
                       help: "Findings recorded in FILE are listed, never a failure (default: the project file's baseline)."),
            Project.option,
            Project.todayOption,
        ],
        discussion: """
            Policies are matched by name and profiles by name; values are compared as parsed, so
            8s -> 8000ms, reordered keys and new comments are no change. With --base, the head is
            compared with the merge base of GIT_REF and HEAD (what 'git diff GIT_REF...HEAD'
            shows), each side judged by its own project file (limits, edition, waiverMaxDays,
            baseline), and the thresholds that decide "worse" are the base's. Files added or deleted
            since then count. Findings of the new side are part of the review. When the retry
            behaviour of a policy changed, the standard outage is simulated on both sides
            ('policyc simulate --scenario outage') and each profile gets a line of its figures.
            Each profile whose retry values changed also runs every built-in scenario on both
            sides (seed 1, 'policyc simulate --scenario all'); a headline figure worse past the
            project file's 'review:' thresholds (defaults: peak load +20%, viewers who see Retry
            +5 points, p95 time to a ticket +25%, recovery +10s) makes the change "worse in an
            outage", and figures better past them are listed too.

            EXIT STATUS:
              0  no errors in the new policies, and nothing breaking (or --allow-breaking)
              1  the new policies have errors, a change is breaking (unless --allow-breaking),
                 worse in an outage (unless --allow-worse), loosens the project file (unless
                 --allow-loosen) or widens a waiver (unless --allow-widen)
              2  usage error, an error in the project file, unreadable input or git failure
            """,
        run: run)

    static func run(_ args: ParsedArguments) -> Int32 {
        if args.positionals.contains("-") {
            return CommandLine.usageError("standard input ('-') is accepted by 'lint' only", command: spec)
        }
        guard var project = Project.load(args), project.readBaseline(args) else { return 2 }
        let sides: Result<(old: [ReviewInput], new: [ReviewInput]), Files.ReadError>
        var baseSide = project, reviewBase: ReviewBase?
        if let ref = args.value("--base") {
            // A ref that looks like an option would be read by git as one.
            guard !ref.isEmpty, !ref.hasPrefix("-") else {
                return CommandLine.usageError("'\(printable(ref))' is not a git revision", command: spec)
            }
            switch ReviewSides.resolveBase(ref, exact: args.flag("--base-exact")) {
            case .failure(let error):
                Output.err("error: \(error.message)\n")
                return 2
            case .success(let base):
                reviewBase = base
                baseSide = ReviewSides.baseProject(at: base.commit, head: project)
                if args.value("--baseline") != nil { baseSide.options.baseline = project.options.baseline }
                sides = ReviewSides.againstRevision(base.commit, paths: args.positionals.isEmpty ? project.defaultPaths : args.positionals,
                                        options: project.options, baseOptions: baseSide.options)
            }
        } else {
            guard args.positionals.count == 2 else {
                return CommandLine.usageError(
                    args.positionals.count < 2 ? "diff needs OLD and NEW (or --base GIT_REF)" : "diff takes only OLD and NEW; use --base to compare more paths",
                    command: spec)
            }
            sides = ReviewSides.betweenPaths(old: args.positionals[0], new: args.positionals[1], options: project.options)
        }
        let old: [ReviewInput], new: [ReviewInput]
        switch sides {
        case .failure(let error):
            Output.err("error: \(error.message)\n")
            return 2
        case .success(let s):
            (old, new) = s
        }

        var report = DiffReport(old: old, new: new, targets: project.config.targets?.value ?? CodeTarget.defaults)
        report.base = reviewBase
        report.projectFileName = project.file ?? baseSide.file
        if reviewBase != nil { report.projectFile = ProjectFileReview.compare(base: baseSide.review, head: project.review) }
        // The base's thresholds judge: a change cannot loosen what decides "worse".
        report.addOutageFigures(old: old, new: new, thresholds: baseSide.config.review)
        let allow = Allowances(breaking: args.flag("--allow-breaking"), worse: args.flag("--allow-worse"),
                               loosen: args.flag("--allow-loosen"), widen: args.flag("--allow-widen"))
        switch args.value("--format") ?? "text" {
        case "json":
            Output.out(report.json(allow).rendered())
            Output.err((reviewBase.map { $0.line + "\n" } ?? "")
                + "policyc diff \(report.verdict(allow).text)\n")
        case "markdown":
            Output.out(report.markdown(allow, command: fullReviewCommand()))
        default:
            Output.out(report.text(allow))
        }
        return report.exitCode(allow)
    }
}
