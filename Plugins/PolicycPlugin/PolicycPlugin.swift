import Foundation
import PackagePlugin

/// Build-tool plugin: for each policy file (`*.yaml`, `*.yml`) of a target, runs
/// `policyc generate --swift-output` at build time and compiles the generated Swift into the target.
/// policyc validates first, so a policy with lint errors fails the build with its findings.
///
/// The build runs in a folder of the build system's choice, so the plugin names the package's
/// project file (`policyc.yaml` at the package root) itself when there is one; policyc then reads
/// it as every other command does (an error in it fails the build). A target's own source files
/// named like a project file are not policies.
@main
struct PolicycPlugin: BuildToolPlugin {
    static let projectFileNames = ["policyc.yaml", "policyc.yml"]

    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        let policyc = try context.tool(named: "policyc")
        let root = context.package.directoryURL
        let project = Self.projectFileNames.map { root.appendingPathComponent($0) }
            .first { FileManager.default.fileExists(atPath: $0.path) }
        let config = project.map { ["--config", $0.path] } ?? []
        return target.sourceFiles
            .filter { ["yaml", "yml"].contains($0.url.pathExtension) }
            .filter { !Self.projectFileNames.contains($0.url.lastPathComponent) }
            .sorted { $0.url.path < $1.url.path }
            .map { file in
                let stem = file.url.deletingPathExtension().lastPathComponent
                let output = context.pluginWorkDirectoryURL.appendingPathComponent("\(stem).policy.swift")
                return .buildCommand(
                    displayName: "policyc generate \(file.url.lastPathComponent)",
                    executable: policyc.url,
                    arguments: ["generate", "--swift-output", output.path] + config + [file.url.path],
                    // Not the project file: it does not change the Swift, and a build that lists
                    // it as an input fails for good once it is deleted.
                    inputFiles: [file.url],
                    outputFiles: [output])
            }
    }
}
