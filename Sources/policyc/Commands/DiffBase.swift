import PolicyKit

/// `--base REF`: which commit the head is compared with, and the project file that judged the
/// policies there.
extension Diff {
    /// The merge base of REF and HEAD (as `git diff REF...HEAD` compares from), or REF itself
    /// with `exact`.
    static func resolveBase(_ ref: String, exact: Bool) -> Result<ReviewBase, Files.ReadError> {
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
    static func baseProject(at commit: String, head: Project) -> Project {
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
}

extension Project {
    /// The project as review compares it with the other side's.
    var review: ReviewProject {
        ReviewProject(file: file, config: config, baselineEntries: options.baseline?.entries.count)
    }
}
