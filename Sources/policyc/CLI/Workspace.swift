import Dispatch
import PolicyKit

/// Reads and checks the files that PATH arguments name: in parallel on all cores, results in the
/// order of the paths, then the checks across files.
enum Workspace {
    struct Run {
        var files: [CheckedFile]
        /// Inputs that could not be read (exit 2).
        var readErrors: [Files.ReadError]

        /// Keeps the run to the end of the process, for a command that is about to exit: letting
        /// go of a large file's policy piece by piece was the last 11 million instructions of
        /// linting 28,000 profiles, for memory the exit hands back at once.
        consuming func keepUntilExit() {
            _ = Unmanaged.passRetained(Kept(self))
        }

        private final class Kept {
            let run: Run
            init(_ run: Run) { self.run = run }
        }
    }

    /// The paths to check: the arguments, or the project file's `policies` (`Policies/` by
    /// default) when there are none.
    static func inputs(_ arguments: [String], project: Project, allowStdin: Bool) -> Result<[String], Files.ReadError> {
        let gathered = gather(arguments, project: project, allowStdin: allowStdin)
        if let first = gathered.errors.first { return .failure(first) }
        return .success(gathered.paths)
    }

    /// Like `inputs`, but keeps going past a PATH that cannot be read: lint reports the files it
    /// can and exits 2 for the others. `empty` lists folders that hold no policy file.
    static func gather(_ arguments: [String], project: Project, allowStdin: Bool)
        -> (paths: [String], errors: [Files.ReadError], empty: [String])
    {
        guard arguments.isEmpty else { return Files.expandAll(arguments, allowStdin: allowStdin) }
        if project.config.policies == nil {
            let folder = project.defaultPaths[0]
            guard Files.isDirectory(folder) else {
                return ([], [Files.ReadError(
                    path: folder,
                    message: "no PATH given and there is no '\(folder)/' folder here; name the policy files or folders to check\(project.file == nil ? "" : ", or list them under 'policies' in \(printable(project.file!))")")], [])
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

    /// `POLICYC_THREADS`: a positive integer, 1 for one file after the other; otherwise (unset or
    /// not a positive integer) every core.
    static var threadsFromEnvironment: Int? {
        guard let text = Output.environment("POLICYC_THREADS"), let n = Int(text), n > 0 else { return nil }
        return n
    }

    /// `inputs`, with a failure reported on stderr; nil means the command exits 2.
    static func inputsOrReport(_ arguments: [String], project: Project, allowStdin: Bool) -> [String]? {
        switch inputs(arguments, project: project, allowStdin: allowStdin) {
        case .failure(let error):
            Output.err("error: \(error.message)\n")
            return nil
        case .success(let paths):
            return paths
        }
    }

    static func check(_ paths: [String], threads: Int? = nil, options: CheckOptions = CheckOptions()) -> Run {
        let threads = threads ?? threadsFromEnvironment
        var results = [Result<CheckedFile, Files.ReadError>?](repeating: nil, count: paths.count)
        let work = { @Sendable (i: Int) -> Result<CheckedFile, Files.ReadError> in
            let path = paths[i]
            return Files.read(path).map { Checker.check($0, path: path == "-" ? Files.stdinPath : path, threads: threads, options: options) }
        }
        if paths.count < 8 || threads == 1 {
            for i in paths.indices { results[i] = work(i) }
        } else {
            results.withUnsafeMutableBufferPointer { buffer in
                nonisolated(unsafe) let slots = buffer
                // Chunks of files per task keep the scheduling cost far below the work.
                let chunk = 16
                let chunks = (paths.count + chunk - 1) / chunk
                // One task a chunk; with a thread count given, that many tasks, task t taking
                // chunks t, t + tasks, t + 2 * tasks, ...
                let tasks = threads.map { min($0, chunks) } ?? chunks
                DispatchQueue.concurrentPerform(iterations: tasks) { t in
                    for c in stride(from: t, to: chunks, by: tasks) {
                        for i in (c * chunk)..<min(paths.count, (c + 1) * chunk) {
                            slots[i] = work(i)
                        }
                    }
                }
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
