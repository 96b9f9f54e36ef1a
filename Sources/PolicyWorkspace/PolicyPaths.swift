import PolicyCheck

/// Which files are policies and how paths are spelt, one rule for the folder walk, git's listing
/// at a revision and the editor: a folder takes every `*.yaml` and `*.yml` below it outside hidden
/// folders, a project file never; a file named outright is taken whatever its name.
package enum PolicyPaths {
    /// `*.yaml` or `*.yml`.
    package static func isPolicyFile(_ name: some StringProtocol) -> Bool {
        name.hasSuffix(".yaml") || name.hasSuffix(".yml")
    }

    /// Whether a folder walk takes the file `name` for a policy: a project file never is one
    /// (named outright, any file is read as a policy).
    package static func isWalkedPolicyFile(_ name: some StringProtocol) -> Bool {
        isPolicyFile(name) && !ProjectConfig.fileNames.contains(String(name))
    }

    /// Hidden names (`.git`, `.build`, temporary files) are neither entered nor taken.
    package static func isHidden(_ name: some StringProtocol) -> Bool {
        name.hasPrefix(".")
    }

    /// Whether a walk of a folder takes the file at `relative` (below the folder, `/`-separated):
    /// no part hidden or empty, and the last a policy file's name.
    package static func isWalked(relative: some StringProtocol) -> Bool {
        let parts = relative.split(separator: "/", omittingEmptySubsequences: false)
        guard let last = parts.last else { return false }
        return !parts.contains { $0.isEmpty || isHidden($0) } && isWalkedPolicyFile(last)
    }

    /// Whether `path` is one of the policy files that `roots` name: a root itself (a file named
    /// outright), or a file a walk of a root folder takes. Both sides spelt alike (`normalize`d, or
    /// absolute); the root `` is the whole tree, `/` the whole disk.
    package static func isWanted(_ path: String, under roots: [String]) -> Bool {
        roots.contains { root in
            if path == root { return true }
            let prefix = root.isEmpty ? "" : root == "/" ? "/" : root + "/"
            return path.hasPrefix(prefix) && isWalked(relative: path.dropFirst(prefix.count))
        }
    }

    /// `a/./b/` and `./a//b` → `a/b`; `.` → ``: a path relative to a tree's top, as git lists it.
    package static func normalize(_ path: String) -> String {
        path.split(separator: "/").filter { $0 != "." }.joined(separator: "/")
    }

    /// `path` (absolute, or relative to `folder`) with `.`, `..` and empty components resolved as
    /// text; links are not followed.
    package static func absolute(_ path: String, in folder: String) -> String {
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

    /// A path as the commands take it: without one trailing slash (`Policies/` → `Policies`; `/`
    /// stays).
    package static func trimmed(_ path: String) -> String {
        path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
    }

    /// A name in a folder as a walk spells it: `name` alone in `.`, `/name` in `/`, else joined by a
    /// slash.
    package static func join(_ folder: String, _ name: String) -> String {
        folder == "." ? name : folder == "/" ? "/" + name : folder + "/" + name
    }

    /// The folder a file is in, as its path spells it: `` for a bare name, `/` at the top.
    package static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}
