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
        usage: "policyc generate [--out DIR] [--kotlin-package NAME] [--targets LIST] [--check] [--config FILE] [--today DATE] [PATH ...]\n"
            + "       policyc generate --swift-output FILE [--config FILE] [--today DATE] PATH",
        arguments: [("PATH", "Policy files or folders (default: the project file's policies, else Policies/).")],
        options: [
            OptionSpec(name: "--out", valueName: "DIR", help: "The folder to write into.", defaultValue: defaultOut + "/"),
            OptionSpec(name: "--kotlin-package", valueName: "NAME", help: "The package of the generated Kotlin.",
                       defaultValue: Generator.defaultKotlinPackage),
            OptionSpec(name: "--targets", valueName: "LIST",
                       help: "What to generate, comma-separated: " + Generator.Target.allCases.map(\.rawValue).joined(separator: ", ") + ".",
                       defaultValue: Generator.Target.defaults.map(\.rawValue).joined(separator: ",")),
            OptionSpec(name: "--check", valueName: nil, help: "Write nothing; fail when any generated file would change."),
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

            The project file (policyc.yaml) may set out, kotlinPackage, targets and policies; an
            option given here wins. With --swift-output, a project file is read only when --config
            names one.

            EXIT STATUS:
              0  written, or up to date
              1  a policy has errors, or (--check) generated files are out of date
              2  usage error, an error in the project file, unreadable input, or the folder
                 cannot be written
            """,
        run: run)

    /// `swift,kotlin` → the targets, in the order given; a usage error for an unknown, repeated
    /// or missing name.
    static func targets(_ list: String) -> Result<[Generator.Target], UsageError> {
        let names = Generator.Target.allCases.map(\.rawValue)
        var out: [Generator.Target] = []
        for item in list.split(separator: ",", omittingEmptySubsequences: false) {
            let name = String(item.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
            guard !name.isEmpty else {
                return .failure(UsageError(message: "'--targets' needs a comma-separated list of targets (\(names.joined(separator: ", "))); '\(printable(list))' has an empty item"))
            }
            guard let target = Generator.Target(rawValue: name) else {
                let hint = Suggest.nearest(name, in: names).map { "; did you mean '\($0)'?" } ?? ""
                return .failure(UsageError(message: "unknown target '\(printable(name))' in '--targets'\(hint) (targets: \(names.joined(separator: ", ")))"))
            }
            guard !out.contains(target) else {
                return .failure(UsageError(message: "target '\(name)' is given twice in '--targets'"))
            }
            out.append(target)
        }
        return .success(out)
    }

    static func run(_ args: ParsedArguments) -> Int32 {
        let swiftOutput = args.value("--swift-output")
        // A build-tool plugin runs in a folder of the build system's choice: it names the
        // package's project file itself when there is one.
        guard let project = Project.load(args, lookInWorkingFolder: swiftOutput == nil) else { return 2 }
        let package = args.value("--kotlin-package") ?? project.config.kotlinPackage?.value ?? Generator.defaultKotlinPackage
        guard Naming.isKotlinPackage(package) else {
            return CommandLine.usageError(
                "'\(printable(package))' is not a Kotlin package name (dot-separated identifiers, no keywords)", command: spec)
        }
        var targets = project.config.targets?.value ?? Generator.Target.defaults
        if let list = args.value("--targets") {
            switch Self.targets(list) {
            case .failure(let error): return CommandLine.usageError(error.message, command: spec)
            case .success(let t): targets = t
            }
        }
        let out = args.value("--out") ?? project.out
        guard !out.isEmpty else { return CommandLine.usageError("'--out' needs a folder", command: spec) }
        let outFolder = out.count > 1 && out.hasSuffix("/") ? String(out.dropLast()) : out

        let gathered = Workspace.gather(args.positionals, project: project, allowStdin: false)
        if let error = gathered.errors.first {
            Output.err("error: \(error.message)\n")
            return 2
        }
        let paths = gathered.paths
        for folder in gathered.empty { Output.err("warning: no *.yaml or *.yml file under '\(printable(folder))'\n") }
        for link in gathered.skipped { Output.err("warning: \(link.message)\n") }
        let run = Workspace.check(paths, options: project.options)
        for error in run.readErrors { Output.err("error: \(error.message)\n") }
        var errors = 0
        for file in run.files {
            for d in file.diagnostics { Output.err(d.headline + "\n") }
            errors += file.errorCount
        }
        if !run.readErrors.isEmpty {
            Output.err("nothing written: \(run.readErrors.count) input(s) could not be read\n")
            return 2
        }
        if errors > 0 {
            Output.err("nothing written: \(errors) error\(errors == 1 ? "" : "s") to fix first\n")
            return 1
        }
        let cwd = currentDirectory()
        let policies = run.files.compactMap { file -> Policy? in
            guard var p = file.policy else { return nil }
            p.file = Generator.displayPath(p.file, workingDirectory: cwd)
            return p
        }
        if swiftOutput != nil { targets = [.swift] }
        // Each file is compared with the one where it goes as soon as it is made, and let go when
        // they are the same: an up-to-date folder is never held whole (see `OutputFolder.plan`).
        let settledIn = outFolder
        let onDisk: @Sendable (String, [UInt8]) -> Bool = { path, bytes in
            OutputFolder.isOnDisk(bytes, at: settledIn + "/" + path)
        }
        var files = Generator.files(for: policies, options: Generator.Options(
            kotlinPackage: package, targets: targets, threads: configuredThreads, limits: project.options.limits),
            settled: swiftOutput == nil && OutputFolder.kind(of: outFolder) == .directory ? onDisk : nil)
        var folder = outFolder
        if let target = swiftOutput {
            // A build-tool plugin declares its output file before policyc reads the policy, so the
            // file name is the plugin's choice; the contents are the usual Swift of that one policy.
            guard policies.count == 1, let swift = files.first(where: { $0.path.hasPrefix("Swift/") }) else {
                return CommandLine.usageError("'--swift-output' takes exactly one policy file; \(policies.count) given", command: spec)
            }
            let parts = target.split(separator: "/", omittingEmptySubsequences: false)
            folder = parts.count > 1 ? parts.dropLast().joined(separator: "/") : "."
            if folder.isEmpty { folder = "/" }
            files = [GeneratedFile(path: String(parts.last ?? ""), bytes: swift.bytes)]
            targets = []  // one file of the plugin's: nothing else in its folder is ours to remove
        }

        // Generated files of policies that are gone are looked for only on a run over the whole
        // project: a policy that a part (one file, an empty folder) leaves out is not gone.
        let removing = !policies.isEmpty && Workspace.isWholeProject(args.positionals, paths: paths, project: project)
        // index.ts names every policy of the project: a part of it cannot write it.
        if !removing { files.removeAll { $0.path == TypeScriptGenerator.indexPath } }
        let plan: OutputFolder.Plan
        switch OutputFolder.plan(files, in: folder, targets: removing ? targets : []) {
        case .failure(let f):
            Output.err("error: \(f.message)\n")
            return 2
        case .success(let p):
            plan = p
        }
        if args.flag("--check") {
            for entry in plan.entries { Output.out(describe(entry, folder: folder)) }
            if plan.entries.isEmpty {
                Output.err("\(folder)/ is up to date (\(plan.unchanged) file\(plan.unchanged == 1 ? "" : "s"))\n")
                return 0
            }
            Output.err("\(plan.entries.count) generated file\(plan.entries.count == 1 ? "" : "s") out of date; run '\(updateCommand(args))' to update\n")
            return 1
        }
        // Temporary files of a killed run go even when nothing else changes.
        if OutputFolder.kind(of: folder) == .directory { OutputFolder.removeStaleTemporaries(folder) }
        if plan.entries.isEmpty {
            Output.err("\(folder)/ is up to date (\(plan.unchanged) file\(plan.unchanged == 1 ? "" : "s"))\n")
            return 0
        }
        if case .failure(let f) = OutputFolder.apply(plan, in: folder) {
            Output.err("error: \(f.message)\nnothing written\n")
            return 2
        }
        // One write for all the lines: thousands of writes of a line each cost more than the rest.
        var report = ""
        for entry in plan.entries {
            let verb: String
            switch entry.change {
            case .create: verb = "created"
            case .change: verb = "updated"
            case .remove: verb = "removed"
            }
            report += "\(verb) \(printable(folder))/\(entry.path)\n"
        }
        Output.err(report)
        let removed = plan.entries.count { if case .remove = $0.change { return true } else { return false } }
        let written = plan.entries.count - removed
        Output.err("wrote \(written) file\(written == 1 ? "" : "s")\(removed > 0 ? ", removed \(removed)" : "")"
            + "\(plan.unchanged > 0 ? ", \(plan.unchanged) up to date" : "")\n")
        return 0
    }

    /// The command that brings the files up to date: this one without `--check`, with the options
    /// and paths given here (what the project file says needs no repeating: it is read again).
    static func updateCommand(_ args: ParsedArguments) -> String {
        var words = ["policyc", "generate"]
        for option in spec.options where option.valueName != nil {
            for value in args.values(option.name) { words += [option.name, value] }
        }
        if !args.positionals.isEmpty {
            if args.positionals.contains(where: { $0.hasPrefix("-") }) { words.append("--") }
            words += args.positionals
        }
        return words.map(shellQuoted).joined(separator: " ")
    }

    /// A word as a POSIX shell reads it back: as is when it is plain, else in double quotes (the
    /// hint itself stands in single ones), else in single quotes.
    static func shellQuoted(_ word: String) -> String {
        let word = printable(word)
        let plain = !word.isEmpty && word.unicodeScalars.allSatisfy {
            ($0 >= "a" && $0 <= "z") || ($0 >= "A" && $0 <= "Z") || ($0 >= "0" && $0 <= "9") || "-_./,=:@%+".unicodeScalars.contains($0)
        }
        if plain { return word }
        if !word.unicodeScalars.contains(where: { "\"$`\\!'".unicodeScalars.contains($0) }) { return "\"" + word + "\"" }
        return "'" + word.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'"
    }

    /// `would change Generated/Swift/X.swift` and a short diff.
    static func describe(_ entry: OutputFolder.Entry, folder: String) -> String {
        let path = printable(folder) + "/" + entry.path
        switch entry.change {
        case .create:
            return "would create \(path)\n"
        case .remove:
            return "would remove \(path) (its policy is gone)\n"
        case .change(let old):
            guard let old else { return "would replace \(path) (not a regular file)\n" }
            return "would change \(path)\n" + shortDiff(old: old, new: entry.contents, path: path)
        }
    }

    /// At most this many lines of diff a file (hunk headers aside); then how many more there are.
    static let diffLineLimit = 40
    /// A changed middle of more lines than this is shown replaced, not searched for a shortest
    /// diff: Myers' search costs (lines) × (differences), and the lines would all be held.
    static let diffSearchLimit = 20_000

    /// A unified diff of the generated file against the one on disk, with three lines of context:
    /// the common first and last lines found on the bytes (linear, whatever the size), a shortest
    /// edit script (`UnifiedDiff`) for the changed middle and its context only.
    static func shortDiff(old: [UInt8], new: [UInt8], path: String) -> String {
        func atLineStart(_ b: [UInt8], _ i: Int) -> Bool { i == 0 || b[i - 1] == 0x0A }
        func lineCount(_ b: ArraySlice<UInt8>) -> Int { b.count { $0 == 0x0A } + (b.last.map { $0 == 0x0A ? 0 : 1 } ?? 0) }
        // Common start, back to a line start; common end, back to where a line starts in both.
        var start = 0
        let shorter = min(old.count, new.count)
        while start < shorter, old[start] == new[start] { start += 1 }
        while !atLineStart(old, start) { start -= 1 }
        var tail = 0
        while tail < old.count - start, tail < new.count - start, old[old.count - 1 - tail] == new[new.count - 1 - tail] { tail += 1 }
        while tail > 0, !(atLineStart(old, old.count - tail) && atLineStart(new, new.count - tail)) { tail -= 1 }
        var out = "--- \(path)\n+++ \(path) (generated)\n"
        let oldMiddle = old[start..<(old.count - tail)], newMiddle = new[start..<(new.count - tail)]
        let linesBefore = old[..<start].count { $0 == 0x0A }
        let removed = lineCount(oldMiddle), added = lineCount(newMiddle)
        guard removed + added <= diffSearchLimit else {
            // Shown replaced whole, the first lines of each side: still a correct account.
            out += "@@ -\(UnifiedDiff.range(linesBefore + (removed == 0 ? 0 : 1), removed)) "
                + "+\(UnifiedDiff.range(linesBefore + (added == 0 ? 0 : 1), added)) @@\n"
            for (sign, middle, count) in [("-", oldMiddle, removed), ("+", newMiddle, added)] {
                let lines = UnifiedDiff.lines(Array(middle.prefix(1 << 16))).prefix(diffLineLimit / 2)
                for line in lines { out += sign + UnifiedDiff.shown(line) }
                if count > lines.count { out += "\(sign) … \(count - lines.count) more line\(count - lines.count == 1 ? "" : "s")\n" }
            }
            return out
        }
        // Three lines of context each way, taken from the common parts.
        var from = start
        for _ in 0..<UnifiedDiff.context where from > 0 {
            from -= 1
            while !atLineStart(old, from) { from -= 1 }
        }
        var after = 0
        for _ in 0..<UnifiedDiff.context where after < tail {
            while after < tail, old[old.count - tail + after] != 0x0A { after += 1 }
            if after < tail { after += 1 }
        }
        let firstLine = linesBefore - old[from..<start].count { $0 == 0x0A }
        let a = UnifiedDiff.lines(Array(old[from..<(old.count - tail + after)]))
        let b = UnifiedDiff.lines(Array(new[from..<(new.count - tail + after)]))
        let hunks = UnifiedDiff.hunks(UnifiedDiff.editScript(a, b))
        var shown = 0
        for (h, hunk) in hunks.enumerated() {
            let oldCount = hunk.count { $0.kind != .insert }
            let newCount = hunk.count { $0.kind != .delete }
            let oldStart = firstLine + (hunk.first { $0.kind != .insert }.map { $0.oldIndex + 1 } ?? hunk[0].oldIndex)
            let newStart = firstLine + (hunk.first { $0.kind != .delete }.map { $0.newIndex + 1 } ?? hunk[0].newIndex)
            out += "@@ -\(UnifiedDiff.range(oldStart, oldCount)) +\(UnifiedDiff.range(newStart, newCount)) @@\n"
            for (i, op) in hunk.enumerated() {
                guard shown < diffLineLimit else {
                    let rest = hunk.count - i + hunks[(h + 1)...].reduce(0) { $0 + $1.count }
                    return out + "… \(rest) more line\(rest == 1 ? "" : "s") of diff\n"
                }
                switch op.kind {
                case .equal: out += " " + UnifiedDiff.shown(a[op.oldIndex])
                case .delete: out += "-" + UnifiedDiff.shown(a[op.oldIndex])
                case .insert: out += "+" + UnifiedDiff.shown(b[op.newIndex])
                }
                shown += 1
            }
        }
        return out
    }

    static func currentDirectory() -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        guard getcwd(&buffer, buffer.count) != nil else { return nil }
        let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        return String(decoding: bytes, as: UTF8.self)
    }
}
