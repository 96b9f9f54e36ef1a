import PolicyKit

/// `policyc fmt`: each file in the canonical layout (`PolicyFormatter`), written back as `lint
/// --fix` writes, or checked (`--check`), or shown as a diff (`--diff`).
enum Fmt {
    static let spec = CommandSpec(
        name: "fmt",
        abstract: "Formats policy files in the canonical layout, comments kept.",
        usage: "policyc fmt [--check] [--diff] [--project-only] [--config FILE] [PATH ...]",
        arguments: [("PATH", "Policy files, folders, or - for standard input (default: the project file's policies, else Policies/).")],
        options: [
            OptionSpec(name: "--check", valueName: nil, help: "Write nothing; list the files that would change and fail if any would."),
            OptionSpec(name: "--diff", valueName: nil, help: "Write nothing; print what would change as a unified diff."),
            OptionSpec(name: "--project-only", valueName: nil,
                       help: "Format only the PATHs that are the project's policies or its project file, skipping others quietly (for pre-commit hooks)."),
            Project.option,
        ],
        discussion: """
            The layout is the one 'policyc init' writes: two spaces per level, one space after ':',
            the language's keys in its order (keys it does not have after them, as they stood),
            flow lists kept in flow, blank lines kept (one at most, and one before each top-level
            section), trailing comments of neighbouring lines aligned (from column 29, as in the
            canonical policy), every comment kept, quotes only where needed (a "3" or "yes" that
            the language reads as a string keeps them), one line break at the end, CRLF kept.
            Scenario files and the project file are formatted in their own languages' order.
            Formatting never changes what a file means: its findings, its generated code and
            its review stay the same. A file that is not well-formed YAML, or that holds what
            policies refuse (an anchor, a tag, a second document, a repeated key), is refused
            with the error and its position, and is left as it is.

            Files are replaced whole (temporary file, then rename), only when they change. With
            - (standard input), the formatted text goes to stdout. --check prints the path of
            each file that would change on stdout.

            EXIT STATUS:
              0  every file is formatted (or was written)
              1  a file was refused; with --check or --diff, a file would change
              2  usage error, an error in the project file, unreadable input or a file that
                 could not be written
            """,
        run: run)

    static func run(_ args: ParsedArguments) -> Int32 {
        let check = args.flag("--check"), diff = args.flag("--diff")
        guard let project = Project.load(args) else { return 2 }
        let gathered = args.flag("--project-only") && !args.positionals.isEmpty
            ? projectFiles(among: args.positionals, project: project)
            : Workspace.gather(args.positionals, project: project, allowStdin: true)
        if gathered.paths.contains("-"), gathered.paths.count > 1 {
            return CommandLine.usageError("standard input ('-') must be the only PATH (its formatted text goes to stdout)", command: spec)
        }
        Lint.reportInputProblems(readErrors: gathered.errors, empty: gathered.empty, skipped: gathered.skipped)
        var failed = !gathered.errors.isEmpty ? Int32(2) : 0
        var changed = 0, refused = 0
        for path in gathered.paths {
            let shown = path == "-" ? Files.stdinPath : path
            let bytes: [UInt8]
            switch Files.read(path) {
            case .failure(let error):
                Output.err("error: \(error.message)\n")
                failed = 2
                continue
            case .success(let read):
                bytes = read
            }
            switch PolicyFormatter.format(bytes, shape: EditorFileKind.of(path: shown, lines: LineIndex(bytes)).formatShape) {
            case .refused(let refusal):
                Output.err("\(printable(shown)):\(refusal.line):\(refusal.column): error: \(refusal.message)\n")
                refused += 1
            case .formatted(let out):
                if path == "-", !check, !diff { Output.out(String(decoding: out, as: UTF8.self)) }
                guard out != bytes else { continue }
                changed += 1
                if diff { Output.out(UnifiedDiff.render(old: bytes, new: out, path: shown)) }
                if check { Output.out(printable(shown) + "\n") }
                if check || diff || path == "-" { continue }
                if case .failure(let failure) = OutputFolder.replaceFile(path, with: out) {
                    Output.err("error: \(failure.message)\n")
                    failed = 2
                    changed -= 1
                    continue
                }
                Output.err("formatted \(printable(shown))\n")
            }
        }
        Output.err(summary(files: gathered.paths.count, changed: changed, refused: refused, writing: !check && !diff))
        if failed != 0 { return failed }
        return refused > 0 || ((check || diff) && changed > 0) ? 1 : 0
    }

    /// `--project-only`: those of `arguments` that are the project's policies (what lint checks
    /// without a PATH) or its project file, by file, not by spelling. A hook passes every changed
    /// YAML file; a CI workflow is none of policyc's to format.
    static func projectFiles(among arguments: [String], project: Project) -> Files.Expanded {
        var own = Set(Workspace.gather([], project: project, allowStdin: false).paths.compactMap(Workspace.fileID))
        if let file = project.file, let id = Workspace.fileID(file) { own.insert(id) }
        let given = Files.expandAll(arguments.filter { $0 != "-" }, allowStdin: false).paths
        return Files.Expanded(paths: given.filter { Workspace.fileID($0).map(own.contains) ?? false })
    }

    /// `2 files would change, 1 refused, 3 files` as the run ends.
    static func summary(files: Int, changed: Int, refused: Int, writing: Bool) -> String {
        let verb = writing ? "formatted" : "would change"
        var parts = ["\(Wording.count(changed, "file")) \(verb)"]
        if refused > 0 { parts.append("\(refused) refused") }
        return parts.joined(separator: ", ") + " of \(Wording.count(files, "file"))\n"
    }
}
