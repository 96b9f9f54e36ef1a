import PolicyCheck

/// What `policyc lint` checks when run in a workspace folder without a PATH, and so the policies
/// whose names must differ: the `policies` of the folder's project file, else `Policies/` when the
/// folder has one, else (where lint would refuse to run) every policy file under the folder.
public struct PolicySet: Sendable, Hashable {
    /// A file or folder of the set.
    public struct Root: Sendable, Hashable {
        /// Absolute and without `.`, `..` or doubled slashes: what the disk walk reads and what
        /// documents' paths are matched against.
        public var path: String
        /// As `lint` run in the workspace folder spells it: files under it are named from it.
        public var written: String
    }

    public enum Source: Sendable, Hashable {
        /// The folder's project file (its name) and what it lists, or `Policies` when it lists
        /// nothing (or cannot be read: a broken project file does not widen the set).
        case projectFile(String)
        case policiesFolder
        case wholeFolder
    }

    /// `policyc`'s default PATH.
    public static let defaultFolder = ProjectLayout.defaultFolder

    public var source: Source
    public var roots: [Root]
    /// Where the rule book is for the folder (the project file's `rulesUrl`): the editor's links.
    public var rulePages: RulePages = .standard

    /// The set of the workspace folder `folder` (absolute): `projectFile` is the name and bytes
    /// of its project file when it has one, `hasPoliciesFolder` whether `Policies/` is a folder.
    public static func of(folder: String, projectFile: (name: String, bytes: [UInt8])?, hasPoliciesFolder: Bool) -> PolicySet {
        if let projectFile {
            let config = ProjectConfig.load(projectFile.bytes, path: projectFile.name).config
            let written = config.policies?.map(\.value) ?? [defaultFolder]
            return PolicySet(source: .projectFile(projectFile.name),
                             roots: written.map { Root(path: absolute($0, in: folder), written: PolicyPaths.trimmed($0)) },
                             rulePages: config.rulePages)
        }
        if hasPoliciesFolder {
            return PolicySet(source: .policiesFolder, roots: [Root(path: absolute(defaultFolder, in: folder), written: defaultFolder)])
        }
        return PolicySet(source: .wholeFolder, roots: [Root(path: absolute(".", in: folder), written: ".")])
    }

    /// Until the folder is read: as if it had neither a project file nor `Policies/`.
    package static func unread(folder: String) -> PolicySet {
        of(folder: folder, projectFile: nil, hasPoliciesFolder: false)
    }

    /// `path` (absolute, or relative to `folder`) with `.`, `..` and empty components resolved as
    /// text; links are not followed.
    public static func absolute(_ path: String, in folder: String) -> String {
        PolicyPaths.absolute(path, in: folder)
    }

    /// Where the file at `absolute` stands in the set: the index of the first root that holds it,
    /// and the name `lint` gives it. Nil when lint would not check it (`PolicyPaths.isWanted`).
    public func place(of absolute: String) -> (root: Int, name: String)? {
        for (i, root) in roots.enumerated() where PolicyPaths.isWanted(absolute, under: [root.path]) {
            if absolute == root.path { return (i, root.written) }
            let rest = String(absolute.dropFirst(root.path == "/" ? 1 : root.path.count + 1))
            // lint's walk joins a folder and a name with a slash, and names a file under `.` alone.
            return (i, PolicyPaths.join(root.written, rest))
        }
        return nil
    }
}
