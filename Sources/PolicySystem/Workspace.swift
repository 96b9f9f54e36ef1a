#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import PolicySource
import PolicyCheck
import PolicyWorkspace
import PolicySimulation
import PolicyEditor

/// Reads and checks the files that PATH arguments name: in parallel on all cores, results in the
/// order of the paths, then the checks across files.
package enum Workspace {
    package struct Run {
        package var files: [CheckedFile]
        /// Inputs that could not be read (exit 2).
        package var readErrors: [Files.ReadError]

        /// Keeps the run to the end of the process, for a command that is about to exit: letting
        /// go of a large file's policy piece by piece is slow work for memory the exit hands back
        /// at once.
        package consuming func keepUntilExit() {
            _ = Unmanaged.passRetained(Kept(self))
        }

        private final class Kept {
            let run: Run
            init(_ run: Run) { self.run = run }
        }
    }

    /// The paths to check: the arguments, or the project file's `policies` (`Policies/` by
    /// default) when there are none. Keeps going past a PATH that cannot be read: lint reports
    /// the files it can and exits 2 for the others.
    package static func gather(_ arguments: [String], project: Project, allowStdin: Bool) -> Files.Expanded {
        guard arguments.isEmpty else { return Files.expandAll(arguments, allowStdin: allowStdin) }
        if project.config.policies == nil {
            let folder = project.defaultPaths[0]
            guard Files.isDirectory(folder) else {
                return Files.Expanded(errors: [Files.ReadError(
                    path: folder,
                    message: "no PATH given and there is no '\(folder)/' folder here; name the policy files or folders to check\(project.file == nil ? "" : ", or list them under 'policies' in \(printable(project.file!))"), or write a first policy with 'policyc init \(printable(folder))'")])
            }
        }
        var gathered = Files.expandAll(project.defaultPaths, allowStdin: false)
        // A path of the project file that cannot be read: say where it was written.
        for i in gathered.errors.indices {
            if let origin = project.origin(ofDefault: gathered.errors[i].path) {
                gathered.errors[i].message += " (listed under 'policies' at \(origin))"
            }
        }
        return gathered
    }

    /// Whether `paths` (what PATH arguments expanded to) are the whole project: every file the
    /// project checks without a PATH is among them. Without a project to compare with (no
    /// `policies` in a project file and no `Policies/` folder), folders named are whole and files
    /// named one by one are a part. Only a whole run may take a policy missing from it for gone.
    package static func isWholeProject(_ arguments: [String], paths: [String], project: Project) -> Bool {
        guard !arguments.isEmpty else { return true }
        let projectKnown = project.config.policies != nil || Files.isDirectory(project.defaultPaths[0])
        guard projectKnown else { return arguments.allSatisfy(Files.isDirectory) }
        let own = Files.expandAll(project.defaultPaths, allowStdin: false)
        guard own.errors.isEmpty else { return false }
        let given = Set(paths.compactMap(fileID))
        return own.paths.allSatisfy { fileID($0).map(given.contains) ?? false }
    }

    /// `bytes` checked as a scenario when they read as one, else nil. Asked only of a file with
    /// findings as a policy (a clean policy is no scenario) of at most `scenarioLimit` bytes:
    /// telling them apart walks the lines, which a hostile 1 MiB input must not pay for, and a
    /// scenario is a few lines.
    package static let scenarioLimit = 1 << 16

    package static func asScenario(_ bytes: [UInt8], path: String, hasFindings: Bool) -> CheckedFile? {
        guard hasFindings, bytes.count <= scenarioLimit, EditorFileKind.of(path: path, lines: LineIndex(bytes)) == .scenario else { return nil }
        let loaded = ScenarioLoader.load(bytes, path: path)
        return CheckedFile(path: path, diagnostics: loaded.diagnostics, doc: nil, policy: nil,
                           source: loaded.diagnostics.isEmpty ? [] : bytes)
    }

    /// `lint --project-only`: those of `arguments` that are the project's policies (what is
    /// checked without a PATH; a folder given adds those below it), by file, not by spelling; nil
    /// when the project file is among them (then the whole project is checked). A PATH that is
    /// not one of them, or cannot be looked at, is left out without a word: a hook passes every
    /// changed YAML file, and only policyc knows which are policies.
    package static func projectPolicies(among arguments: [String], project: Project) -> [String]? {
        if let file = project.file, let own = fileID(file), arguments.contains(where: { fileID($0) == own }) { return nil }
        let projectPaths = gather([], project: project, allowStdin: false).paths
        let ids = Set(projectPaths.compactMap(fileID))
        let given = Files.expandAll(arguments.filter { $0 != "-" }, allowStdin: false).paths
        return given.filter { fileID($0).map(ids.contains) ?? false }
    }

    package static func fileID(_ path: String) -> FileID? {
        try? DiskTree().status(path).get().id
    }

    /// `gather`, with the first failure reported on stderr (nil: the command exits 2) and links
    /// that lead nowhere as warnings.
    package static func inputsOrReport(_ arguments: [String], project: Project, allowStdin: Bool) -> [String]? {
        let gathered = gather(arguments, project: project, allowStdin: allowStdin)
        if let first = gathered.errors.first {
            Output.err("error: \(first.message)\n")
            return nil
        }
        for link in gathered.skipped { Output.err("warning: \(link.message)\n") }
        return gathered.paths
    }

    /// With `scenarios`, a file that reads as a `simulate` scenario (as the language server tells
    /// one) is checked as one: `lint` given a scenario reports what is wrong with the scenario.
    package static func check(_ paths: [String], threads: Int? = nil, scenarios: Bool = false,
                      options: CheckOptions = CheckOptions()) -> Run {
        // Sixteen files a task keep the scheduling cost far below the work.
        var results = parallelMap(paths.count, threads: threads, chunk: 16) { i -> Result<CheckedFile, Files.ReadError>? in
            let path = paths[i]
            return Files.read(path).map { bytes in
                let shown = path == "-" ? Files.stdinPath : path
                let file = Checker.check(bytes, path: shown, options: options)
                return scenarios ? asScenario(bytes, path: shown, hasFindings: !file.diagnostics.isEmpty) ?? file : file
            }
        }
        var run = Run(files: [], readErrors: [])
        run.files.reserveCapacity(results.count)
        for i in results.indices {
            // Taken out of `results`, not copied: a checked file holds its whole policy.
            switch results[i].take()! {
            case .success(let file): run.files.append(file)
            case .failure(let error): run.readErrors.append(error)
            }
        }
        Checker.checkAcrossFiles(&run.files)
        // A file found only across files (a shared policy name) was clean when checked alone, so
        // its bytes were not kept: read them again to quote the line. Standard input cannot be
        // read twice; its findings then show without the source line.
        for i in run.files.indices where run.files[i].source.isEmpty && !run.files[i].diagnostics.isEmpty {
            if let index = paths.firstIndex(where: { $0 == run.files[i].path }),
               case .success(let bytes) = Files.read(paths[index]) {
                run.files[i].source = bytes
            }
        }
        return run
    }
}
