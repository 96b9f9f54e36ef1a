#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import PolicyKit

enum Generate {
    static let defaultOut = "Generated"

    static let spec = CommandSpec(
        name: "generate",
        abstract: "Validates, then writes the generated Swift, Kotlin and JSON Schema.",
        usage: "policyc generate [--out <dir>] [--kotlin-package <name>] [--check] [<path> ...]",
        arguments: [("PATH", "Policy files or folders (default: Policies/).")],
        options: [
            OptionSpec(name: "--out", valueName: "DIR", help: "The folder to write into.", defaultValue: defaultOut + "/"),
            OptionSpec(name: "--kotlin-package", valueName: "NAME", help: "The package of the generated Kotlin.",
                       defaultValue: Generator.defaultKotlinPackage),
            OptionSpec(name: "--check", valueName: nil, help: "Write nothing; fail when any generated file would change."),
            OptionSpec(name: "--swift-output", valueName: "FILE",
                       help: "Write only the Swift of the one policy given, to FILE (for build-tool plugins)."),
        ],
        discussion: """
            Writes DIR/Swift/<Type>.swift, DIR/Kotlin/<Type>.kt and DIR/policy.schema.json. Nothing is
            written when any policy has an error. Files are replaced only when their bytes change, and
            generated files of policies that are gone are removed (only files with policyc's header).

            EXIT STATUS:
              0  written, or up to date
              1  a policy has errors, or (--check) generated files are out of date
              2  usage error, unreadable input, or the folder cannot be written
            """,
        run: run)

    static func run(_ args: ParsedArguments) -> Int32 {
        let package = args.value("--kotlin-package") ?? Generator.defaultKotlinPackage
        guard Generator.isKotlinPackage(package) else {
            return CommandLine.usageError(
                "'\(printable(package))' is not a Kotlin package name (dot-separated identifiers, no keywords)", command: spec)
        }
        let out = args.value("--out") ?? defaultOut
        guard !out.isEmpty else { return CommandLine.usageError("'--out' needs a folder", command: spec) }
        let outFolder = out.count > 1 && out.hasSuffix("/") ? String(out.dropLast()) : out

        guard let paths = Workspace.inputsOrReport(args.positionals, allowStdin: false) else { return 2 }
        let run = Workspace.check(paths)
        for error in run.readErrors { Output.err("error: \(error.message)\n") }
        var errors = 0
        for file in run.files {
            for d in file.diagnostics { Output.err(d.headline + "\n") }
            errors += file.errorCount
        }
        if !run.readErrors.isEmpty {
            Output.err("nothing written: \(run.readErrors.count) input(s) could not be read\n")
            return 2
        }
        if errors > 0 {
            Output.err("nothing written: \(errors) error\(errors == 1 ? "" : "s") to fix first\n")
            return 1
        }
        let cwd = currentDirectory()
        let policies = run.files.compactMap { file -> Policy? in
            guard var p = file.policy else { return nil }
            p.file = Generator.displayPath(p.file, workingDirectory: cwd)
            return p
        }
        var files = Generator.files(for: policies, options: Generator.Options(
            kotlinPackage: package, threads: Workspace.threadsFromEnvironment))
        var folder = outFolder
        if let target = args.value("--swift-output") {
            // A build-tool plugin declares its output file before policyc reads the policy, so the
            // file name is the plugin's choice; the contents are the usual Swift of that one policy.
            guard policies.count == 1, let swift = files.first(where: { $0.path.hasPrefix("Swift/") }) else {
                return CommandLine.usageError("'--swift-output' takes exactly one policy file; \(policies.count) given", command: spec)
            }
            let parts = target.split(separator: "/", omittingEmptySubsequences: false)
            folder = parts.count > 1 ? parts.dropLast().joined(separator: "/") : "."
            if folder.isEmpty { folder = "/" }
            files = [GeneratedFile(path: String(parts.last ?? ""), bytes: swift.bytes)]
        }

        let plan: OutputFolder.Plan
        switch OutputFolder.plan(files, in: folder) {
        case .failure(let f):
            Output.err("error: \(f.message)\n")
            return 2
        case .success(let p):
            plan = p
        }
        if args.flag("--check") {
            for entry in plan.entries { Output.out(describe(entry, folder: folder)) }
            if plan.entries.isEmpty {
                Output.err("\(folder)/ is up to date (\(plan.unchanged) file\(plan.unchanged == 1 ? "" : "s"))\n")
                return 0
            }
            Output.err("\(plan.entries.count) generated file\(plan.entries.count == 1 ? "" : "s") out of date; run 'policyc generate' to update\n")
            return 1
        }
        // Temporary files of a killed run go even when nothing else changes.
        if OutputFolder.kind(of: folder) == .directory { OutputFolder.removeStaleTemporaries(folder) }
        if plan.entries.isEmpty {
            Output.err("\(folder)/ is up to date (\(plan.unchanged) file\(plan.unchanged == 1 ? "" : "s"))\n")
            return 0
        }
        if case .failure(let f) = OutputFolder.apply(plan, in: folder) {
            Output.err("error: \(f.message)\nnothing written\n")
            return 2
        }
        // One write for all the lines: thousands of writes of a line each cost more than the rest.
        var report = ""
        for entry in plan.entries {
            let verb: String
            switch entry.change {
            case .create: verb = "created"
            case .change: verb = "updated"
            case .remove: verb = "removed"
            }
            report += "\(verb) \(printable(folder))/\(entry.path)\n"
        }
        Output.err(report)
        let written = plan.entries.filter { if case .remove = $0.change { return false } else { return true } }.count
        Output.err("wrote \(written) file\(written == 1 ? "" : "s")\(plan.unchanged > 0 ? ", \(plan.unchanged) up to date" : "")\n")
        return 0
    }

    /// `would change Generated/Swift/X.swift` and a short diff.
    static func describe(_ entry: OutputFolder.Entry, folder: String) -> String {
        let path = printable(folder) + "/" + entry.path
        switch entry.change {
        case .create:
            return "would create \(path)\n"
        case .remove:
            return "would remove \(path) (its policy is gone)\n"
        case .change(let old):
            guard let old else { return "would replace \(path) (not a regular file)\n" }
            return "would change \(path)\n" + shortDiff(old: old, new: entry.contents, path: path)
        }
    }

    /// The changed middle of two texts (common first and last lines left out), a few lines each way.
    static func shortDiff(old: [UInt8], new: [UInt8], path: String, limit: Int = 12) -> String {
        let a = String(decoding: old, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        let b = String(decoding: new, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        var start = 0
        while start < a.count, start < b.count, a[start] == b[start] { start += 1 }
        var endA = a.count, endB = b.count
        while endA > start, endB > start, a[endA - 1] == b[endB - 1] { endA -= 1; endB -= 1 }
        var out = "--- \(path)\n+++ \(path) (generated)\n@@ -\(start + 1),\(endA - start) +\(start + 1),\(endB - start) @@\n"
        func show(_ lines: ArraySlice<Substring>, _ sign: String) {
            for l in lines.prefix(limit) { out += sign + printable(String(l)) + "\n" }
            if lines.count > limit { out += "\(sign) … \(lines.count - limit) more line\(lines.count - limit == 1 ? "" : "s")\n" }
        }
        show(a[start..<endA], "-")
        show(b[start..<endB], "+")
        return out
    }

    static func currentDirectory() -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        guard getcwd(&buffer, buffer.count) != nil else { return nil }
        let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        return String(decoding: bytes, as: UTF8.self)
    }
}
