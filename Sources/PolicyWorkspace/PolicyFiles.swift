import PolicySource

/// Which file a path names, whatever the spelling: `ok.yaml`, `./ok.yaml` and a link to it are one.
package struct FileID: Hashable, Sendable {
    package var device: UInt64
    package var inode: UInt64
    package init(device: UInt64, inode: UInt64) {
        self.device = device
        self.inode = inode
    }
}

/// Why a path cannot be looked at: the reason where the walk tells them apart, and the system's
/// words for messages.
package struct FileProblem: Error, Sendable {
    package enum Reason: Sendable { case noEntry, notFolder, loop, other }
    package var reason: Reason
    package var text: String
    package init(_ reason: Reason, _ text: String) {
        self.reason = reason
        self.text = text
    }
}

/// The file system as a walk reads it: the command line asks the disk, tests a dictionary.
package protocol FileTree {
    /// What `path` is, a link followed (`stat`): its kind (never `.link`) and which file it is.
    func status(_ path: String) -> Result<(kind: PathKind, id: FileID), FileProblem>
    /// What `path` is itself (`lstat`): a link is `.link`.
    func linkKind(_ path: String) -> Result<PathKind, FileProblem>
    /// A folder's names (without `.` and `..`), in the order the folder lists them.
    func names(in folder: String) -> Result<[String], FileProblem>
    /// What a symbolic link says, as written.
    func linkTarget(_ path: String) -> String
}

/// PATH arguments expanded to the policy files they name: files as given, folders walked (every
/// `*.yaml` / `*.yml` below, sorted; `PolicyPaths`), `-` for standard input.
package enum PolicyFiles {
    package struct ReadError: Error, Equatable, Sendable {
        package var path: String
        package var message: String
        package init(path: String, message: String) {
            self.path = path
            self.message = message
        }
    }

    /// What PATH arguments expand to: the files, the PATHs that could not be read (exit 2), the
    /// folders without a policy file and the links in folders that name no file (warnings both).
    package struct Expanded: Equatable {
        package var paths: [String] = []
        package var errors: [ReadError] = []
        package var empty: [String] = []
        package var skipped: [ReadError] = []
        package init(paths: [String] = [], errors: [ReadError] = [], empty: [String] = [], skipped: [ReadError] = []) {
            self.paths = paths
            self.errors = errors
            self.empty = empty
            self.skipped = skipped
        }
    }

    /// What a walk found, and how much more it may look at: a language server's walk of a home
    /// folder stops after so many entries or files.
    package struct Walked {
        package var found: [String] = []
        package var errors: [ReadError] = []
        package var skipped: [ReadError] = []
        package var entriesLeft = Int.max
        package var maxFiles = Int.max
        package init(entries: Int = .max, files: Int = .max) {
            entriesLeft = entries
            maxFiles = files
        }
        var isSpent: Bool { entriesLeft <= 0 || found.count >= maxFiles }
    }

    static func cannotRead(_ path: String, _ problem: FileProblem) -> ReadError {
        ReadError(path: path, message: "cannot read '\(printable(path))': \(problem.text)")
    }

    /// Expands every PATH it can and reports the others, so that one bad PATH does not hide the
    /// findings of the rest. A file named twice (`Policies Policies/playback.yaml`) is taken once.
    package static func expand(_ paths: [String], allowStdin: Bool, tree: some FileTree) -> Expanded {
        var out = Expanded()
        var seen: Set<FileID> = []
        func add(_ path: String) {
            // One that cannot be looked at: reading it will say why.
            guard case .success(let status) = tree.status(path) else { return out.paths.append(path) }
            if seen.insert(status.id).inserted { out.paths.append(path) }
        }
        for raw in paths {
            if raw == "-" {
                if !allowStdin {
                    out.errors.append(ReadError(path: "-", message: "standard input ('-') is accepted by 'lint' only"))
                } else if !out.paths.contains("-") {
                    out.paths.append("-")
                }
                continue
            }
            let path = PolicyPaths.trimmed(raw)
            switch tree.status(path) {
            case .failure(let problem):
                out.errors.append(cannotRead(raw, problem))
            case .success(let status) where status.kind == .directory:
                var walked = Walked()
                walk(path, tree: tree, into: &walked)
                out.errors += walked.errors
                out.skipped += walked.skipped
                // A folder some of which could not be read is not known to be empty.
                if walked.found.isEmpty, walked.errors.isEmpty, walked.skipped.isEmpty { out.empty.append(raw) }
                walked.found.sort(by: utf8Precedes)
                walked.found.forEach(add)
            case .success:
                add(path)
            }
        }
        return out
    }

    /// Depth-first; hidden folders (.git, .build) and symbolic links to folders are not entered.
    /// A folder that cannot be listed, or an entry that cannot be looked at, is an error like an
    /// unreadable file: a walk that skipped it would report a clean run, and `generate` would
    /// take the policies under it for gone and remove their generated files.
    /// A link named like a policy that leads nowhere (its target is missing, or links loop) is
    /// a warning in `skipped`: a policy that silently dropped out of the run would look clean.
    package static func walk(_ dir: String, tree: some FileTree, into walked: inout Walked) {
        guard !walked.isSpent else { return }
        let names: [String]
        switch tree.names(in: dir) {
        case .failure(let problem): return walked.errors.append(cannotRead(dir, problem))
        // Sorted: a folder lists in no set order, and the warnings come in this order.
        case .success(let listed): names = listed.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        }
        for name in names {
            walked.entriesLeft -= 1
            guard !walked.isSpent else { return }
            if PolicyPaths.isHidden(name) { continue }
            let path = PolicyPaths.join(dir, name)
            switch tree.linkKind(path) {
            // Gone since the folder was listed: nothing to read. Anything else hides a file.
            case .failure(let problem) where problem.reason == .noEntry: continue
            case .failure(let problem): walked.errors.append(cannotRead(path, problem))
            case .success(.directory): walk(path, tree: tree, into: &walked)
            case .success where !PolicyPaths.isWalkedPolicyFile(name): continue
            case .success(.file): walked.found.append(path)
            case .success(.link): takeLink(path, tree: tree, into: &walked)
            case .success: continue
            }
        }
    }

    /// A link named like a policy: taken when it leads to a regular file, left out when it leads
    /// to a folder or a device, a warning when it leads nowhere.
    static func takeLink(_ path: String, tree: some FileTree, into walked: inout Walked) {
        let why: String
        switch tree.status(path) {
        case .success(let status):
            if status.kind == .file { walked.found.append(path) }
            return
        case .failure(let problem) where problem.reason == .noEntry || problem.reason == .notFolder:
            why = "its target '\(printable(tree.linkTarget(path)))' does not exist"
        case .failure(let problem) where problem.reason == .loop:
            why = "it loops"
        case .failure(let problem):
            return walked.errors.append(cannotRead(path, problem))
        }
        walked.skipped.append(ReadError(path: path, message: "skipped '\(printable(path))': a symbolic link that leads to no file (\(why))"))
    }
}
