import PolicySource
import PolicyCheck
import PolicyWorkspace
import PolicyReview

/// The two sides a review compares, read and checked: two paths (`diff OLD NEW`), or the working
/// tree against a git revision (`diff --base`, `simulate --base`), with the project file that
/// judged the policies there.
package enum ReviewSides {
    /// The merge base of REF and HEAD (as `git diff REF...HEAD` compares from), or REF itself
    /// with `exact`.
    package static func resolveBase(_ ref: String, exact: Bool) -> Result<ReviewBase, Files.ReadError> {
        func failure(_ message: String) -> Files.ReadError { Files.ReadError(path: ref, message: message) }
        let target: String
        switch Git.verify(ref: ref) {
        case .failure(let f): return .failure(failure(f.message))
        case .success(let commit): target = commit
        }
        let head = Git.verify(ref: "HEAD")
        if exact { return .success(ReviewBase(ref: ref, commit: target, head: (try? head.get()) ?? "", exact: true)) }
        guard case .success(let headCommit) = head else {
            return .failure(failure("HEAD names no commit yet, so there is no merge base with '\(printable(ref))'; use --base-exact"))
        }
        switch Git.mergeBase(target, headCommit) {
        case .success(let commit) where !commit.isEmpty:
            return .success(ReviewBase(ref: ref, commit: commit, head: headCommit, exact: false))
        default:
            return .failure(failure("'\(printable(ref))' and HEAD have no common commit (a shallow clone? fetch more "
                + "history, e.g. actions/checkout with fetch-depth: 0) — or compare with REF itself: --base-exact"))
        }
    }

    /// The project file at `commit`: the same file as the working tree's (or, without one, the
    /// one `policyc.yaml` names there), read as the base's policies were judged. Its baseline
    /// is read at `commit` too. A base without one judges with every default.
    package static func baseProject(at commit: String, head: Project) -> Project {
        let names = head.file.map { [$0] } ?? ProjectConfig.fileNames
        for name in names {
            guard case .success(let bytes?) = Git.file(at: commit, path: name) else { continue }
            var project = Project(name, ProjectConfig.load(bytes, path: name).config)
            project.options.today = head.options.today
            if let path = project.config.baseline.map({ project.resolve($0.value) }),
               case .success(let bytes?) = Git.file(at: commit, path: path),
               case .success(let baseline) = Baseline.parse(bytes, file: path) {
                project.options.baseline = baseline
            }
            return project
        }
        var none = Project()
        none.options.today = head.options.today
        return none
    }

    /// OLD and NEW, each a file or a folder. A file without a readable policy name is matched
    /// with the file at the same place under the other folder.
    package static func betweenPaths(old: String, new: String, options: CheckOptions) -> Result<(old: [ReviewInput], new: [ReviewInput]), Files.ReadError> {
        func side(_ root: String) -> Result<[ReviewInput], Files.ReadError> {
            Files.expand([root], allowStdin: false).flatMap { paths in
                let run = Workspace.check(paths, options: options)
                if let error = run.readErrors.first { return .failure(error) }
                let base = Git.normalize(root)
                let isFolder = Files.isDirectory(root)
                return .success(run.files.map { file in
                    let path = Git.normalize(file.path)
                    let key: String
                    if !isFolder { key = "" }   // file against file
                    else if !base.isEmpty, path.hasPrefix(base + "/") { key = String(path.dropFirst(base.count + 1)) }
                    else { key = path }
                    return ReviewInput(file: file, matchKey: key)
                })
            }
        }
        return side(old).flatMap { o in side(new).map { n in (o, n) } }
    }

    /// The working tree against the same paths at `ref`, read with git; files added or deleted
    /// since then count.
    package static func againstRevision(_ ref: String, paths: [String], options: CheckOptions,
                                baseOptions: CheckOptions? = nil) -> Result<(old: [ReviewInput], new: [ReviewInput]), Files.ReadError> {
        func gitError(_ f: Git.Failure) -> Files.ReadError { Files.ReadError(path: ref, message: f.message) }
        if case .failure(let f) = Git.verify(ref: ref) { return .failure(gitError(f)) }
        let baseOptions = baseOptions ?? options
        let entries: [Git.Entry]
        switch Git.list(ref: ref, paths: paths) {
        case .failure(let f): return .failure(gitError(f))
        case .success(let e): entries = e
        }
        var oldFiles: [CheckedFile] = []
        var oldBytes: [[UInt8]] = []
        for entry in entries {
            switch Git.blob(entry.object) {
            case .failure(let f): return .failure(gitError(f))
            case .success(let bytes):
                oldFiles.append(Checker.check(bytes, path: entry.path, options: baseOptions))
                oldBytes.append(bytes)
            }
        }
        // Checked as the new side is, so that a finding across files (a shared policy name) that
        // was already there reads as such; a file found only then gets its bytes back for that.
        Checker.checkAcrossFiles(&oldFiles)
        for i in oldFiles.indices where oldFiles[i].source.isEmpty && !oldFiles[i].diagnostics.isEmpty {
            oldFiles[i].source = oldBytes[i]
        }
        let old = zip(oldFiles, entries).map { ReviewInput(file: $0, matchKey: Git.normalize($1.path)) }
        // A path gone from the working tree is fine when it was there at `ref`: it was deleted.
        var present: [String] = []
        for path in paths {
            if Files.exists(path) {
                present.append(path)
                continue
            }
            let root = Git.normalize(path)
            guard entries.contains(where: { Git.isWanted(Git.normalize($0.path), under: [root]) }) else {
                return .failure(Files.ReadError(
                    path: path, message: "cannot read '\(printable(path))': not in the working tree, nor a policy file at \(printable(ref))"))
            }
        }
        var new: [ReviewInput] = []
        if !present.isEmpty {
            switch Files.expand(present, allowStdin: false) {
            case .failure(let error): return .failure(error)
            case .success(let files):
                let run = Workspace.check(files, options: options)
                if let error = run.readErrors.first { return .failure(error) }
                new = run.files.map { ReviewInput(file: $0, matchKey: Git.normalize($0.path)) }
            }
        }
        return .success((old, new))
    }
}

extension Project {
    /// The project as review compares it with the other side's.
    package var review: ReviewProject {
        ReviewProject(file: file, config: config, baselineEntries: options.baseline?.entries.count)
    }
}
