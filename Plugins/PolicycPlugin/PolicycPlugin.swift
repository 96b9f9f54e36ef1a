import Foundation
import PackagePlugin

/// Build-tool plugin: for each policy file (`*.yaml`, `*.yml`) of a target, runs
/// `policyc generate --swift-output` at build time and compiles the generated Swift into the target.
/// policyc validates first, so a policy with lint errors fails the build with its findings.
@main
struct PolicycPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        let policyc = try context.tool(named: "policyc")
        return target.sourceFiles
            .filter { ["yaml", "yml"].contains($0.url.pathExtension) }
            .sorted { $0.url.path < $1.url.path }
            .map { file in
                let stem = file.url.deletingPathExtension().lastPathComponent
                let output = context.pluginWorkDirectoryURL.appendingPathComponent("\(stem).policy.swift")
                return .buildCommand(
                    displayName: "policyc generate \(file.url.lastPathComponent)",
                    executable: policyc.url,
                    arguments: ["generate", "--swift-output", output.path, file.url.path],
                    inputFiles: [file.url],
                    outputFiles: [output])
            }
    }
}
