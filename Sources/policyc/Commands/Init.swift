#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import PolicyKit

enum Init {
    static let defaultName = "playback"

    static let spec = CommandSpec(
        name: "init",
        abstract: "Writes a canonical policy file; never overwrites.",
        usage: "policyc init [--policy NAME] [--project] [--config FILE] [DIR]",
        arguments: [("DIR", "The folder to write NAME.yaml in, created when missing (default: the first of the project file's policies, else Policies/).")],
        options: [
            OptionSpec(name: "--policy", valueName: "NAME",
                       help: "The policy's name, also the file's name.", defaultValue: defaultName),
            OptionSpec(name: "--project", valueName: nil,
                       help: "Also write the project file, ./policyc.yaml, naming the policy's folder (never over one that exists)."),
            Project.option,
        ],
        discussion: """
            The file is the canonical policy of the integration guide, under NAME. After the policy
            (so that its line numbers are those of the canonical policy), two comment lines point
            editors at the JSON Schema where 'policyc generate' writes it (the project file's out,
            else Generated/): '# yaml-language-server: $schema=…' for VS Code and others, and
            '# $schema: …' for JetBrains IDEs. When the project file's targets leave out schema,
            the lines are left out too, and init says how to get a schema. With --project, the
            project file (version, policies, out, targets) is written beside, once the policy is.

            EXIT STATUS:
              0  written
              1  the file (or with --project ./policyc.yaml) exists already (nothing is written)
              2  usage error, a bad NAME, an error in the project file, or the file cannot be
                 written
            """,
        run: run)

    static func run(_ args: ParsedArguments) -> Int32 {
        guard let project = Project.load(args) else { return 2 }
        guard args.positionals.count <= 1 else {
            return CommandLine.usageError("'init' takes one folder, not \(args.positionals.count)", command: spec)
        }
        let writesProject = args.flag("--project")
        if writesProject, args.value("--config") != nil {
            return CommandLine.usageError("'--project' writes ./policyc.yaml; it cannot be given with '--config'", command: spec)
        }
        // Checked before anything is written: either file there already means neither is written.
        if writesProject, let existing = ProjectConfig.fileNames.first(where: { OutputFolder.kind(of: $0) != .missing }) {
            Output.err("error: '\(existing)' exists already; policyc init never overwrites a file (leave out --project)\n")
            return 1
        }
        let name = args.value("--policy") ?? defaultName
        guard Values.isName(name) else {
            return CommandLine.usageError(
                "'\(printable(name))' is not a valid policy name: \(Values.nameProblem(name)) (a name matches ^[a-z][a-zA-Z0-9]*(-[a-z0-9]+)*$, e.g. playback, ios-player)",
                command: spec)
        }
        var dir = args.positionals.first ?? project.defaultPaths[0]
        if args.positionals.isEmpty, PolicyPaths.isPolicyFile(dir), !Files.isDirectory(dir) {
            // The project file lists a policy file first: the new one goes beside it.
            dir = dir.lastIndex(of: "/").map { String(dir[..<$0]) } ?? "."
        }
        while dir.count > 1 && dir.hasSuffix("/") { dir.removeLast() }
        let path = (dir == "." ? "" : dir + "/") + name + ".yaml"
        // The lines point at the schema `generate` writes: none when the project's targets leave
        // it out, as they would name a file that never comes.
        let writesSchema = (project.config.targets?.value ?? Generator.Target.defaults).contains(.schema)
        let schema = PolicyPaths.relative(from: dir, to: project.schemaFolder + "/" + Generator.schemaPath, cwd: Repository.currentDirectory() ?? ".")
        let text = Canonical.text(policy: name) + (writesSchema ? modelines(schema: schema) : "")

        // What init writes must lint clean: a name the pattern allows may still be refused by a
        // rule (a reserved word once converted, say).
        let checked = Checker.check(Array(text.utf8), path: path)
        if let problem = checked.diagnostics.first(where: { $0.severity == .error }) {
            return CommandLine.usageError("'\(printable(name))' cannot be a policy name: \(printable(problem.message))", command: spec)
        }

        if let problem = Files.makeDirectories(dir) {
            Output.err("error: cannot create '\(printable(dir))': \(problem)\n")
            return 2
        }
        // O_EXCL: never overwrite, not even through a symbolic link, and no race with a check.
        if case .failure(let f) = OutputFolder.writeNew(path, Array(text.utf8), flush: false) {
            if errno == EEXIST {
                Output.err("error: '\(printable(path))' exists already; policyc init never overwrites a file (remove it, or choose another --policy or folder)\n")
                return 1
            }
            Output.err("error: \(f.message)\n")
            return 2
        }
        Output.err("Wrote \(printable(path)). Check it with: policyc lint \(printable(path))\n")
        if writesProject {
            let text = ProjectConfig.starter(policies: dir == "." ? name + ".yaml" : dir)
            if case .failure(let f) = OutputFolder.writeNew(ProjectConfig.fileNames[0], Array(text.utf8), flush: false) {
                Output.err("error: \(f.message)\n")
                return errno == EEXIST ? 1 : 2
            }
            Output.err("Wrote \(ProjectConfig.fileNames[0]): every policyc command run here reads it.\n")
        }
        if !writesSchema, let file = project.file {
            Output.err("No $schema lines: \(printable(file))'s targets leave out schema. For editors, add schema to them, "
                + "or write one with 'policyc schema > policy.schema.json' and point '# yaml-language-server: $schema=…' at it.\n")
        }
        return 0
    }

    /// The lines that point editors at the schema: yaml-language-server's (VS Code, Neovim,
    /// Helix, ...) and JetBrains' (IntelliJ, Android Studio).
    static func modelines(schema: String) -> String {
        "# yaml-language-server: $schema=\(schema)\n# $schema: \(schema)\n"
    }
}
