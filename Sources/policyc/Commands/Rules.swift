import PolicyKit

enum Rules {
    /// Every rule policyc has, in the order it lists them: the one list that `rules`, `rules RULE`
    /// and the book's pages (`--docs`) are made from, so a rule added here is printed, found and
    /// documented without another edit.
    static var book: [Rule] { Traffic.catalog }

    static let spec = CommandSpec(
        name: "rules",
        abstract: "Prints the rule catalog with examples, or one rule's page.",
        usage: "policyc rules [RULE ...] [--format FORMAT] [--config FILE] | policyc rules --docs DIR [--check]",
        arguments: [("RULE", "Rule ids, such as timeout-min: print only their pages (default: every rule).")],
        options: [
            OptionSpec(name: "--format", valueName: "FORMAT", allowed: CatalogReport.Format.allCases.map(\.rawValue),
                       help: "text with examples, markdown (the README's table; a RULE's page), or json with everything.",
                       defaultValue: "text"),
            OptionSpec(name: "--docs", valueName: "DIR",
                       help: "Write the rule book into DIR: a page per rule (RULE.md) and README.md, the index."),
            OptionSpec(name: "--check", valueName: nil, help: "With --docs: write nothing; fail when a page would change."),
            Project.option,
        ],
        discussion: """
            The catalog ends with the limits in effect: the guide edition's, or the project
            file's (guide: and limits: in policyc.yaml), each with where it comes from. A RULE's
            page shows its limit in effect and its address (the project file's rulesUrl, which
            SARIF and the editor link to).

            --docs writes the pages with the guide's limits, each file only when its bytes
            change, and removes pages of rules that are gone (only files with the book's
            header). This repository keeps them in Docs/rules: policyc rules --docs Docs/rules.

            EXIT STATUS:
              0  printed, or the pages written or up to date
              1  --check: a page would change
              2  usage error (an unknown RULE), an error in the project file, or DIR
                 cannot be written
            """,
        run: run)

    static func run(_ args: ParsedArguments) -> Int32 {
        if let docs = args.value("--docs") {
            if let extra = args.positionals.first {
                return CommandLine.usageError("unexpected argument '\(printable(extra))'; '--docs' writes every rule", command: spec)
            }
            guard !docs.isEmpty else { return CommandLine.usageError("'--docs' needs a folder", command: spec) }
            return writeBook(into: PolicyPaths.trimmed(docs), check: args.flag("--check"))
        }
        if args.flag("--check") {
            return CommandLine.usageError("'--check' goes with '--docs DIR'", command: spec)
        }
        let format = CatalogReport.Format(rawValue: args.value("--format") ?? "text") ?? .text
        var chosen: [Rule] = []
        switch RuleBook.rules(named: args.positionals, in: book) {
        case .failure(let problem): return CommandLine.usageError(problem.message, command: spec)
        case .success(let rules): chosen = rules
        }
        guard let project = Project.load(args) else { return 2 }
        let pages = project.config.rulePages
        if chosen.isEmpty {
            Output.out(CatalogReport.render(format, limits: project.options.limits, pages: pages, book))
        } else {
            Output.out(RuleBook.render(format, chosen, limits: project.options.limits, pages: pages))
        }
        return 0
    }

    /// `--docs DIR [--check]`, as `generate` writes its folder: a temporary file and a rename,
    /// only what changed; `--check` lists what would change with short diffs (exit 1).
    static func writeBook(into folder: String, check: Bool) -> Int32 {
        let wanted = RuleBook.files(book).map { OutputPlan.Wanted(path: $0.name, bytes: Array($0.text.utf8)) }
        let planned = OutputPlan.plan(wanted, in: folder, stale: [OutputPlan.StaleFolder(name: "", fileExtension: ".md")],
                                      isOurs: RuleBook.isPage, mayReplace: { check || RuleBook.isPage($0) },
                                      reader: OutputFolder.DiskFolder())
        switch planned {
        case .failure(let f):
            let message = f.isForeignFile
                ? "'\(printable(f.path ?? folder))' has no rule book header, so policyc did not write it; move it away, or choose another folder"
                : f.message
            Output.err("error: \(message)\nnothing written\n")
            return 2
        case .success(let plan) where check:
            for entry in plan.entries { Output.out(OutputPlan.describe(entry, folder: folder, gone: "its rule is gone")) }
            if plan.entries.isEmpty {
                Output.err(OutputPlan.upToDate(plan, folder: folder))
                return 0
            }
            let update = "policyc rules --docs " + Shell.quoted(folder)
            Output.err(OutputPlan.outOfDate(plan, update: update))
            return 1
        case .success(let plan):
            return Generate.write(plan, folder: folder)
        }
    }
}
