#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import PolicySource
import PolicyCheck
import PolicyWorkspace
import PolicyReport

/// Where the repository is, for reports that name files by their path in it (`lint --format
/// github`): found on the file system, without running git.
package enum Repository {
    /// The nearest folder at or above the working folder that holds `.git` (a folder, or a file
    /// in a worktree or submodule); else `GITHUB_WORKSPACE` when the working folder lies in it
    /// (a checkout without `.git`); else nil, and paths stay as given. `.git` comes first: a
    /// checkout into a subfolder of the workspace is a repository of its own.
    package static func location() -> RepositoryLocation? {
        guard let cwd = currentDirectory() else { return nil }
        var dir = cwd
        while true {
            if Files.exists(dir == "/" ? "/.git" : dir + "/.git") {
                return RepositoryLocation(root: dir, workingDirectory: cwd)
            }
            guard dir != "/", let slash = dir.lastIndex(of: "/") else { break }
            dir = slash == dir.startIndex ? "/" : String(dir[..<slash])
        }
        if let workspace = Output.environment("GITHUB_WORKSPACE"), !workspace.isEmpty,
           let root = realPath(workspace), cwd == root || cwd.hasPrefix(root == "/" ? "/" : root + "/") {
            return RepositoryLocation(root: root, workingDirectory: cwd)
        }
        return nil
    }

    /// The working folder, as the kernel knows it (symbolic links resolved).
    package static func currentDirectory() -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard getcwd(&buffer, buffer.count) != nil else { return nil }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    package static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
