import PolicySource
import PolicyCheck
import PolicyReport
import PolicyCodegen
import PolicySimulation
import PolicyReview

/// The kinds of YAML file the editor knows. Each is checked by its own reader and completed from
/// its own fields; only policies take part in the rules across files.
public enum EditorFileKind: String, Sendable, Hashable {
    /// Anything not recognised as one of the others, as `lint` reads every file it is given.
    case policy
    /// A `simulate` scenario: its top level has a key only scenarios have (`scenario`, `fleet`,
    /// `server`, …) and none only policies have (`policy`, `retry`, …).
    case scenario
    /// The project file: named `policyc.yaml` or `policyc.yml`, wherever it is.
    case project
    /// YAML that would be read as a policy, but in a workspace folder whose `lint` does not check
    /// it (a CI workflow, a compose file; see `EditorWorkspace.kind(of:)`): no findings, no fixes,
    /// no completion or hover. `of(path:lines:)` never answers it: only the workspace knows.
    case other

    /// The keys of the file's top level, as its reader decodes them.
    public var fields: [Field] {
        switch self {
        case .policy: return Language.root
        case .scenario: return ScenarioLanguage.root
        case .project: return ProjectConfig.fields
        case .other: return []
        }
    }

    /// Top-level keys that tell the two languages apart, from the languages themselves.
    static let scenarioOnly = Set(ScenarioLanguage.root.map(\.key)).subtracting(Language.root.map(\.key))
    static let policyOnly = Set(Language.root.map(\.key)).subtracting(ScenarioLanguage.root.map(\.key))

    /// The kind of the file at `path` (absolute, or a URI) with the text `lines`. Read from the
    /// keys that start lines at column 0, not from a parse, so that a file being typed keeps its
    /// kind while it is not YAML.
    public static func of(path: String, lines: LineIndex) -> EditorFileKind {
        let name = path.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? path
        if ProjectConfig.fileNames.contains(name) { return .project }
        let b = lines.bytes
        guard b.count <= Loader.maxBytes else { return .policy }
        var scenario = false
        for number in 1...lines.lineCount {
            let range = lines.range(ofLine: number)!
            let (start, end) = (range.lowerBound, range.upperBound)
            guard start < end, b[start] != 0x20, b[start] != 0x09,
                  case .key(let key, _, _, _, _)? = Outline.key(b, at: start, end) else { continue }
            if policyOnly.contains(where: { sameText($0, key) }) { return .policy }
            if scenarioOnly.contains(where: { sameText($0, key) }) { scenario = true }
        }
        return scenario ? .scenario : .policy
    }
}

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

    /// `policyc`'s default PATH (its `Project.defaultFolder`).
    public static let defaultFolder = "Policies"

    public var source: Source
    public var roots: [Root]

    /// The set of the workspace folder `folder` (absolute): `projectFile` is the name and bytes
    /// of its project file when it has one, `hasPoliciesFolder` whether `Policies/` is a folder.
    public static func of(folder: String, projectFile: (name: String, bytes: [UInt8])?, hasPoliciesFolder: Bool) -> PolicySet {
        if let projectFile {
            let config = ProjectConfig.load(projectFile.bytes, path: projectFile.name).config
            let written = config.policies?.map(\.value) ?? [defaultFolder]
            return PolicySet(source: .projectFile(projectFile.name),
                             roots: written.map { Root(path: absolute($0, in: folder), written: trimmed($0)) })
        }
        if hasPoliciesFolder {
            return PolicySet(source: .policiesFolder, roots: [Root(path: absolute(defaultFolder, in: folder), written: defaultFolder)])
        }
        return PolicySet(source: .wholeFolder, roots: [Root(path: absolute(".", in: folder), written: ".")])
    }

    /// Until the folder is read: as if it had neither a project file nor `Policies/`.
    static func unread(folder: String) -> PolicySet {
        of(folder: folder, projectFile: nil, hasPoliciesFolder: false)
    }

    /// A path as `lint` takes it: without one trailing slash.
    static func trimmed(_ path: String) -> String {
        path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
    }

    /// `path` (absolute, or relative to `folder`) with `.`, `..` and empty components resolved as
    /// text; links are not followed.
    public static func absolute(_ path: String, in folder: String) -> String {
        let joined = path.hasPrefix("/") ? path : folder + "/" + path
        var parts: [Substring] = []
        for part in joined.split(separator: "/", omittingEmptySubsequences: true) {
            if part == "." { continue }
            if part == ".." {
                if !parts.isEmpty { parts.removeLast() }
                continue
            }
            parts.append(part)
        }
        return "/" + parts.joined(separator: "/")
    }

    /// Where the file at `absolute` stands in the set: the index of the first root that holds it,
    /// and the name `lint` gives it. Nil when lint would not check it: outside every root, in a
    /// hidden folder under a folder root, or not a `*.yaml`/`*.yml` policy file there (a project
    /// file never is; a root that names a file takes it whatever its name).
    public func place(of absolute: String) -> (root: Int, name: String)? {
        for (i, root) in roots.enumerated() {
            if absolute == root.path { return (i, root.written) }
            let prefix = root.path == "/" ? "/" : root.path + "/"
            guard absolute.hasPrefix(prefix) else { continue }
            let rest = String(absolute.dropFirst(prefix.count))
            let parts = rest.split(separator: "/", omittingEmptySubsequences: false)
            guard let last = parts.last, !parts.contains(where: { $0.isEmpty || $0.hasPrefix(".") }),
                  last.hasSuffix(".yaml") || last.hasSuffix(".yml"), !ProjectConfig.fileNames.contains(String(last))
            else { continue }
            // lint's walk joins a folder and a name with a slash, and names a file under `.` alone.
            return (i, root.written == "." ? rest : root.written + "/" + rest)
        }
        return nil
    }
}
