import PolicyKit

enum Show {
    static let spec = CommandSpec(
        name: "show",
        abstract: "Prints each policy as it takes effect: its values over those of the files it extends.",
        usage: "policyc show [PATH ...] [--origin] [--format FORMAT] [--config FILE]",
        options: [
            OptionSpec(name: "--format", valueName: "FORMAT", allowed: ["yaml", "json"],
                       help: "yaml (a policy that lints as the file does) or json.", defaultValue: "yaml"),
            OptionSpec(name: "--origin", valueName: nil,
                       help: "With each value, the file and line it comes from (yaml: a comment; json: {\"value\", \"file\", \"line\"})."),
            Project.option,
        ],
        discussion: """
            A policy's `extends` names the files it builds on (paths relative to it), applied in
            order; its own values replace theirs key by key (mappings merge, lists and scalars
            replace). show prints the result, without `extends`. Several files: yaml documents
            separated by `---`, each after a comment naming its file; json one object by file.
            It does not lint: `policyc lint` checks the same effective values.

            EXIT STATUS:
              0  printed
              1  a file or a parent it extends is not valid YAML, or a parent is missing,
                 unreadable or part of a cycle (nothing printed)
              2  usage error, an error in the project file, or unreadable input
            """,
        run: run)

    static func run(_ args: ParsedArguments) -> Int32 {
        guard let (project, paths) = Project.loadWithPolicies(args, command: spec) else { return 2 }
        var shown: [(path: String, policy: EffectivePolicy)] = []
        for path in paths {
            switch Files.read(path) {
            case .success(let bytes): shown.append((path, EffectivePolicy(bytes, path: path, options: project.options)))
            case .failure(let error):
                Output.err("error: \(error.message)\n")
                return 2
            }
        }
        let failed = shown.filter(\.policy.hasErrors)
        if !failed.isEmpty {
            for file in failed {
                Output.err(file.policy.diagnostics.filter { $0.severity == .error }.map { $0.headline + "\n" }.joined())
            }
            Output.err("nothing shown: \(Wording.count(failed.count, "file")) cannot be made whole\n")
            return 1
        }
        Output.out(render(shown, json: args.value("--format") == "json", origins: args.flag("--origin")))
        return 0
    }

    static func render(_ shown: [(path: String, policy: EffectivePolicy)], json: Bool, origins: Bool) -> String {
        if json {
            if shown.count == 1 { return EffectiveReport.json(shown[0].policy, origins: origins).rendered() }
            var all: [String: JSON] = [:]
            for file in shown { all[file.path] = EffectiveReport.json(file.policy, origins: origins) }
            return JSON.object(all).rendered()
        }
        if shown.count == 1 { return EffectiveReport.yaml(shown[0].policy, origins: origins) }
        return shown.map { "# \(printable($0.path))\n" + EffectiveReport.yaml($0.policy, origins: origins) }
            .joined(separator: "---\n")
    }
}
