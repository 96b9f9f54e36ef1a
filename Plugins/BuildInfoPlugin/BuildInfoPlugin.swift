import Foundation
import PackagePlugin

/// Gives policyc the commit it is built from, for `policyc --version` (`0.2.0 (1a2b3c4)`).
///
/// A prebuild command, because SwiftPM runs those before every build (a build command would run
/// only when its declared inputs change, and git's HEAD is not a file we can name reliably: packed
/// refs, worktrees). It runs `/bin/sh`, not a tool built from this package, as prebuild commands
/// must. The file is rewritten only when its bytes change, so an unchanged commit recompiles nothing.
/// Outside a git checkout of this package (a source tarball, a package folder inside another
/// repository, no git installed) the commit is nil and the version is printed alone.
@main
struct BuildInfoPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let output = context.pluginWorkDirectoryURL.appendingPathComponent("BuildInfo")
        let file = output.appendingPathComponent("BuildInfo.swift")
        return [.prebuildCommand(
            displayName: "Recording the commit of \(target.name)",
            executable: URL(fileURLWithPath: "/bin/sh"),
            arguments: ["-c", Self.script, "sh", context.package.directoryURL.path, output.path, file.path],
            outputFilesDirectory: output)]
    }

    /// $1 the package folder, $2 the output folder, $3 the Swift file. Only the package's own
    /// checkout counts (`$1/.git`), not a repository the package folder happens to sit in.
    static let script = #"""
        commit=
        if [ -e "$1/.git" ]; then
            commit=$(git -C "$1" rev-parse --short=7 HEAD 2>/dev/null) || commit=
        fi
        case "$commit" in
            *[!0-9a-f]*|'') value=nil ;;
            *) value="\"$commit\"" ;;
        esac
        mkdir -p "$2"
        printf '%s\n' "// Written by Plugins/BuildInfoPlugin at build time: git rev-parse --short=7 HEAD." \
            "enum BuildInfo {" "    static let commit: String? = $value" "}" > "$3.new"
        if cmp -s "$3.new" "$3"; then rm -f "$3.new"; else mv -f "$3.new" "$3"; fi
        """#
}
