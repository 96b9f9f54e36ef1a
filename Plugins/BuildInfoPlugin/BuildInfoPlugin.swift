import Foundation
import PackagePlugin

/// Gives policyc the commit it is built from, for `policyc --version` (`0.3.0 (1a2b3c4)`).
///
/// A build command whose inputs are git's `HEAD` and its reflog `logs/HEAD`, which git appends to
/// on every commit, checkout, reset or merge; so the command runs again exactly when the commit may
/// have changed. Not a prebuild command: SwiftPM skips those while the package's structure is
/// unchanged (it caches the build plan; swiftlang/swift-package-manager#5476), so `--version` would
/// keep the first commit ever built. The command rewrites the file only when its bytes change, so
/// an unchanged commit recompiles nothing. Outside a git checkout of this package (a source
/// tarball, a package folder inside another repository, no git installed) the commit is nil and the
/// version is printed alone. The file extends Sources/policyc/CLI/BuildInfo.swift, whose default
/// (nil) stands where SwiftPM builds policyc without running this plugin.
@main
struct BuildInfoPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let package = context.package.directoryURL
        let file = context.pluginWorkDirectoryURL.appendingPathComponent("BuildCommit.swift")
        let inputs = Self.gitDirectory(of: package).map { git in
            ["HEAD", "logs/HEAD"].map { git.appendingPathComponent($0) }
        } ?? []
        return [.buildCommand(
            displayName: "Recording the commit of \(target.name)",
            executable: URL(fileURLWithPath: "/bin/sh"),
            arguments: ["-c", Self.script, "sh", package.path, file.path],
            // Only files that exist: a missing input would stop the build.
            inputFiles: inputs.filter { FileManager.default.fileExists(atPath: $0.path) },
            outputFiles: [file])]
    }

    /// The package's own git directory: `.git` itself, or the folder a worktree's `.git` file names
    /// (`gitdir: PATH`). Only the package's own checkout counts, not a repository it sits in.
    static func gitDirectory(of package: URL) -> URL? {
        let dotGit = package.appendingPathComponent(".git")
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: dotGit.path, isDirectory: &isFolder) else { return nil }
        if isFolder.boolValue { return dotGit }
        guard let text = try? String(contentsOf: dotGit, encoding: .utf8),
              let line = text.split(separator: "\n").first, line.hasPrefix("gitdir: ")
        else { return nil }
        let path = String(line.dropFirst("gitdir: ".count))
        return path.hasPrefix("/") ? URL(fileURLWithPath: path) : package.appendingPathComponent(path)
    }

    /// $1 the package folder, $2 the Swift file.
    static let script = #"""
        commit=
        if [ -e "$1/.git" ]; then
            commit=$(git -C "$1" rev-parse --short=7 HEAD 2>/dev/null) || commit=
        fi
        case "$commit" in
            *[!0-9a-f]*|'') value=nil ;;
            *) value="\"$commit\"" ;;
        esac
        printf '%s\n' "// Written by Plugins/BuildInfoPlugin at build time: git rev-parse --short=7 HEAD." \
            "extension BuildInfo {" "    static var commit: String? { $value }" "}" > "$2.new"
        if cmp -s "$2.new" "$2"; then rm -f "$2.new"; else mv -f "$2.new" "$2"; fi
        """#
}
