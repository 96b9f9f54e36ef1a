#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import PolicyKit

enum Generate {
    static let defaultOut = Project.defaultOut

    static let spec = CommandSpec(
        name: "generate",
        abstract: "Validates, then writes the generated code and the JSON Schema.",
        usage: "policyc generate [--out DIR] [--kotlin-package NAME] [--kotlin-package-folders] [--targets LIST] [--check] [--force] [--config FILE] [--today DATE] [PATH ...]\n"
            + "       policyc generate --swift-output FILE [--config FILE] [--today DATE] PATH",
        arguments: [("PATH", "Policy files or folders (default: the project file's policies, else Policies/).")],
        options: [
            OptionSpec(name: "--out", valueName: "DIR", help: "The folder to write into.", defaultValue: defaultOut + "/"),
            OptionSpec(name: "--kotlin-package", valueName: "NAME", help: "The package of the generated Kotlin.",
                       defaultValue: Generator.defaultKotlinPackage),
            OptionSpec(name: "--kotlin-package-folders", valueName: nil,
                       help: "Write the Kotlin under its package's folders (com/example/PlaybackPolicy.kt), as Gradle lays out sources."),
            OptionSpec(name: "--targets", valueName: "LIST",
                       help: "What to generate, comma-separated: " + Generator.Target.allCases.map(\.rawValue).joined(separator: ", ") + ".",
                       defaultValue: Generator.Target.defaults.map(\.rawValue).joined(separator: ",")),
            OptionSpec(name: "--check", valueName: nil, help: "Write nothing; fail when any generated file would change."),
            OptionSpec(name: "--force", valueName: nil, help: "Replace files in the output folder that policyc did not write."),
            OptionSpec(name: "--swift-output", valueName: "FILE",
                       help: "Write only the Swift of the one policy given, to FILE (for build-tool plugins)."),
            Project.option,
            Project.todayOption,
        ],
        discussion: """
            Writes DIR/Swift/<Type>.swift, DIR/Kotlin/<Type>.kt, DIR/TypeScript/<Type>.ts (and
            DIR/TypeScript/index.ts, every policy's module as a namespace) and
            DIR/policy.schema.json, each target's files when it is in LIST. Nothing is written
            when any policy has an error or any input cannot be read. Files are replaced only when
            their bytes change, and on a run over the whole project (no PATH, or PATHs that hold
            all of its policies),
            generated files of policies that are gone are removed (only files with policyc's
            header, only in the folders of the targets in LIST). A run over some of the
            policies writes their files and removes nothing.

            The project file (policyc.yaml) may set out, kotlinPackage, kotlinPackageFolders,
            targets and policies; an option given here wins. Its out may instead name a folder a
            language, the files straight in it: out: {swift: ios/Policy, kotlin:
            android/src/main/kotlin, typescript: web/src/policy, schema: .} (--out DIR puts them
            all in DIR again). With --swift-output, a project file is read only when --config
            names one.

            EXIT STATUS:
              0  written, or up to date
              1  a policy has errors, (--check) generated files are out of date, or a file that
                 policyc did not write stands where one goes (--force replaces it)
              2  usage error, an error in the project file, unreadable input, or the folder
                 cannot be written
            """,
        run: run)

    /// What a run generates and where: from the options, else the project file.
    struct Settings {
        var package: String
        var targets: [Generator.Target]
        var layout: OutputLayout
    }

    static func run(_ args: ParsedArguments) -> Int32 {
        let swiftOutput = args.value("--swift-output")
        // A build-tool plugin runs in a folder of the build system's choice: it names the
        // package's project file itself when there is one.
        guard var project = Project.load(args, lookInWorkingFolder: swiftOutput == nil) else { return 2 }
        var settings: Settings
        switch self.settings(args, project: project) {
        case .failure(let message): return CommandLine.usageError(message.message, command: spec)
        case .success(let s): settings = s
        }
        // Names are checked against the keywords of the languages this run writes (`--targets`
        // too): a TypeScript-only run may name a profile `default`.
        project.options.targets = Set(swiftOutput == nil ? settings.targets : [.swift])
        let paths: [String], policies: [Policy]
        switch checkedPolicies(args, project: project) {
        case .failure(let status): return status.code
        case .success(let checked): (paths, policies) = checked
        }
        if swiftOutput != nil { settings.targets = [.swift] }
        // Each file is compared with the one where it goes as soon as it is made, and let go when
        // they are the same: an up-to-date folder is never held whole (see `OutputFolder.plan`).
        let layout = settings.layout
        let onDisk: @Sendable (String, [UInt8]) -> Bool = { path, bytes in
            guard let place = layout.place(path) else { return false }
            return OutputFolder.isOnDisk(bytes, at: layout.destinations[place.destination].folder + "/" + place.path)
        }
        let folders = layout.destinations.allSatisfy { OutputFolder.kind(of: $0.folder) == .directory }
        var files = Generator.files(for: policies, options: Generator.Options(
            kotlinPackage: settings.package, targets: settings.targets, threads: configuredThreads, limits: project.options.limits),
            settled: swiftOutput == nil && folders ? onDisk : nil)
        if let target = swiftOutput {
            // A build-tool plugin declares its output file before policyc reads the policy, so the
            // file name is the plugin's choice; the contents are the usual Swift of that one policy.
            guard policies.count == 1, let swift = files.first(where: { $0.path.hasPrefix("Swift/") }) else {
                return CommandLine.usageError("'--swift-output' takes exactly one policy file; \(policies.count) given", command: spec)
            }
            let parts = target.split(separator: "/", omittingEmptySubsequences: false)
            var folder = parts.count > 1 ? parts.dropLast().joined(separator: "/") : "."
            if folder.isEmpty { folder = "/" }
            // One file of the plugin's: nothing else in its folder is ours to remove.
            return writeOrCheck(args, [GeneratedFile(path: String(parts.last ?? ""), bytes: swift.bytes)],
                                layout: .single(folder, targets: [.schema]), removing: false)
        }
        // Generated files of policies that are gone are looked for only on a run over the whole
        // project: a policy that a part (one file, an empty folder) leaves out is not gone.
        let removing = !policies.isEmpty && Workspace.isWholeProject(args.positionals, paths: paths, project: project)
        // index.ts names every policy of the project: a part of it cannot write it.
        if !removing { files.removeAll { $0.path == TypeScriptGenerator.indexPath } }
        return writeOrCheck(args, files, layout: layout, removing: removing)
    }

    /// Plans every destination of `layout` (nothing is written when one fails), then checks or
    /// writes them.
    static func writeOrCheck(_ args: ParsedArguments, _ files: [GeneratedFile], layout: OutputLayout, removing: Bool) -> Int32 {
        var plans: [(folder: String, plan: OutputPlan.Plan)] = []
        for (index, destination) in layout.destinations.enumerated() {
            let placed = files.compactMap { file -> GeneratedFile? in
                guard let place = layout.place(file.path), place.destination == index else { return nil }
                var moved = file
                moved.path = place.path
                return moved
            }
            // --check writes nothing: it shows what a file in the way would become.
            switch OutputFolder.plan(placed, in: destination.folder, stale: removing ? layout.staleFolders(index) : [],
                                     force: args.flag("--force") || args.flag("--check")) {
            case .failure(let f):
                Output.err("error: \(f.message)\n" + (f.isForeignFile ? "nothing written\n" : ""))
                return f.isForeignFile ? 1 : 2
            case .success(let plan):
                plans.append((destination.folder, plan))
            }
        }
        if args.flag("--check") { return check(plans, args) }
        for (folder, plan) in plans where write(plan, folder: folder) != 0 { return 2 }
        return 0
    }

    static func settings(_ args: ParsedArguments, project: Project) -> Result<Settings, UsageError> {
        let package = args.value("--kotlin-package") ?? project.config.kotlinPackage?.value ?? Generator.defaultKotlinPackage
        guard Naming.isKotlinPackage(package) else {
            return .failure(UsageError(message: "'\(printable(package))' is not a Kotlin package name (dot-separated identifiers, no keywords)"))
        }
        var targets = project.config.targets?.value ?? Generator.Target.defaults
        if let list = args.value("--targets") {
            switch CodeTarget.list(list) {
            case .failure(let problem): return .failure(UsageError(message: problem.message))
            case .success(let t): targets = t
            }
        }
        let packageFolders = args.flag("--kotlin-package-folders") || project.config.kotlinPackageFolders?.value == true
        let kotlinPath = packageFolders ? package : nil
        if args.value("--out") == nil, let folders = project.config.outFolders {
            let resolved = folders.mapValues { PolicyPaths.trimmed(project.resolve($0.value)) }
            switch OutputLayout.perTarget(resolved, targets: targets, kotlinPackage: kotlinPath) {
            case .failure(let missing):
                let first = folders.values.map(\.span.start).min { ($0.line, $0.column) < ($1.line, $1.column) }
                let at = first.map { "\($0.line):\($0.column)" }
                return .failure(UsageError(message: "\(printable(project.file ?? "policyc.yaml"))\(at.map { ":" + $0 } ?? ""): \(missing.message)"))
            case .success(let layout): return .success(Settings(package: package, targets: targets, layout: layout))
            }
        }
        let out = args.value("--out") ?? project.out
        guard !out.isEmpty else { return .failure(UsageError(message: "'--out' needs a folder")) }
        return .success(Settings(package: package, targets: targets,
                                 layout: .single(PolicyPaths.trimmed(out), targets: targets, kotlinPackage: kotlinPath)))
    }

    struct Status: Error {
        var code: Int32
    }

    /// The policies to generate from, checked, with their paths as the generated headers name
    /// them; a failure once what is wrong went to stderr (nothing is then written).
    static func checkedPolicies(_ args: ParsedArguments, project: Project) -> Result<(paths: [String], policies: [Policy]), Status> {
        let gathered = Workspace.gather(args.positionals, project: project, allowStdin: false)
        if let error = gathered.errors.first {
            Output.err("error: \(error.message)\n")
            return .failure(Status(code: 2))
        }
        for folder in gathered.empty { Output.err("warning: no *.yaml or *.yml file under '\(printable(folder))'\n") }
        for link in gathered.skipped { Output.err("warning: \(link.message)\n") }
        let run = Workspace.check(gathered.paths, options: project.options)
        for error in run.readErrors { Output.err("error: \(error.message)\n") }
        var errors = 0
        for file in run.files {
            for d in file.diagnostics { Output.err(d.headline + "\n") }
            errors += file.errorCount
        }
        if !run.readErrors.isEmpty {
            Output.err("nothing written: \(run.readErrors.count) input(s) could not be read\n")
            return .failure(Status(code: 2))
        }
        if errors > 0 {
            Output.err("nothing written: \(Wording.count(errors, "error")) to fix first\n")
            return .failure(Status(code: 1))
        }
        let cwd = Repository.currentDirectory()
        return .success((gathered.paths, run.files.compactMap { file -> Policy? in
            guard var p = file.policy else { return nil }
            p.file = Generator.displayPath(p.file, workingDirectory: cwd)
            p.parents = p.parents.map { Generator.displayPath($0, workingDirectory: cwd) }
            return p
        }))
    }

    /// `--check`: what would change, with short diffs, on stdout; exit 1 when anything would.
    static func check(_ plans: [(folder: String, plan: OutputPlan.Plan)], _ args: ParsedArguments) -> Int32 {
        var all = OutputPlan.Plan()
        for (folder, plan) in plans {
            for entry in plan.entries { Output.out(OutputPlan.describe(entry, folder: folder)) }
            all.entries += plan.entries
        }
        if all.entries.isEmpty {
            for (folder, plan) in plans { Output.err(OutputPlan.upToDate(plan, folder: folder)) }
            return 0
        }
        Output.err(OutputPlan.outOfDate(all, update: updateCommand(args)))
        return 1
    }

    static func write(_ plan: OutputPlan.Plan, folder: String) -> Int32 {
        // Temporary files of a killed run go even when nothing else changes.
        if OutputFolder.kind(of: folder) == .directory { OutputFolder.removeStaleTemporaries(folder) }
        if plan.entries.isEmpty {
            Output.err(OutputPlan.upToDate(plan, folder: folder))
            return 0
        }
        if case .failure(let f) = OutputFolder.apply(plan, in: folder) {
            Output.err("error: \(f.message)\nnothing written\n")
            return 2
        }
        // One write for all the lines: thousands of writes of a line each cost more than the rest.
        Output.err(OutputPlan.written(plan, folder: folder))
        return 0
    }

    /// The command that brings the files up to date: this one without `--check`, with the options
    /// and paths given here (what the project file says needs no repeating: it is read again).
    static func updateCommand(_ args: ParsedArguments) -> String {
        var words = ["policyc", "generate"]
        for option in spec.options where option.valueName != nil {
            for value in args.values(option.name) { words += [option.name, value] }
        }
        if args.flag("--kotlin-package-folders") { words.append("--kotlin-package-folders") }
        if !args.positionals.isEmpty {
            if args.positionals.contains(where: { $0.hasPrefix("-") }) { words.append("--") }
            words += args.positionals
        }
        return words.map(Shell.quoted).joined(separator: " ")
    }
}
