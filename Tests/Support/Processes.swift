import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The one way the tests start a program with `Process` (policyc, compilers, git, python3):
/// stdin from a file or /dev/null and stdout/stderr into files, so that no pipe can fill up and
/// block the child or the test, and a child that exits without reading its input cannot raise
/// SIGPIPE here. `Child` (FaultSupport.swift) is the low-level exception: it needs `wait4`'s
/// peak memory and a SIGKILL at a chosen moment, which `Process` cannot give.
package enum Processes {
    package struct Result: CustomStringConvertible {
        package var status: Int32
        package var stdout: String
        package var stderr: String

        package var description: String { "exit \(status)\n--- stdout\n\(stdout)--- stderr\n\(stderr)" }
    }

    package struct Failure: Error, CustomStringConvertible {
        package var description: String
        package init(_ description: String) { self.description = description }
    }

    /// Runs `tool` (looked up on PATH unless it contains a `/`) with `arguments` in `directory`,
    /// the environment being this process's with `environment` laid over it (NO_COLOR removed
    /// unless given).
    package static func run(_ tool: String, _ arguments: [String], in directory: URL? = nil,
                            stdin: Data? = nil, environment: [String: String] = [:]) throws -> Result {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("policyc-run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let outURL = scratch.appendingPathComponent("out"), errURL = scratch.appendingPathComponent("err")
        let inURL = scratch.appendingPathComponent("in")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let process = Process()
        if tool.contains("/") {
            process.executableURL = URL(fileURLWithPath: tool)
            process.arguments = arguments
        } else {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = [tool] + arguments
        }
        if let directory { process.currentDirectoryURL = directory }
        var env = ProcessInfo.processInfo.environment
        env["NO_COLOR"] = nil
        for (key, value) in environment { env[key] = value }
        process.environment = env
        if let stdin {
            try stdin.write(to: inURL)
            process.standardInput = try FileHandle(forReadingFrom: inURL)
        } else {
            process.standardInput = FileHandle.nullDevice
        }
        let outHandle = try FileHandle(forWritingTo: outURL), errHandle = try FileHandle(forWritingTo: errURL)
        process.standardOutput = outHandle
        process.standardError = errHandle
        try process.run()
        process.waitUntilExit()
        try outHandle.close()
        try errHandle.close()
        return Result(status: process.terminationStatus,
                      stdout: String(decoding: try Data(contentsOf: outURL), as: UTF8.self),
                      stderr: String(decoding: try Data(contentsOf: errURL), as: UTF8.self))
    }
}

/// Validates SARIF with python3's jsonschema (Draft 4, the schema's own draft) against the
/// official schema in `../shared/schemas/` beside the package. Under CI=true a missing validator
/// is a failure, not a skipped check: `validate` throws.
package enum SARIFSchema {
    package static let schema: URL = GenSupport.packageRoot
        .appendingPathComponent("../shared/schemas/sarif-schema-2.1.0.json").standardizedFileURL

    package static let isAvailable: Bool = {
        guard FileManager.default.fileExists(atPath: schema.path) else { return false }
        return (try? Processes.run("python3", ["-c", "import jsonschema"]).status) == 0
    }()

    /// Whether a test that validates SARIF runs: always on CI (where `validate` then fails when
    /// the validator is missing), elsewhere when python3 has jsonschema.
    package static var shouldRun: Bool { isAvailable || GenSupport.isCI }

    package static func validate(_ sarif: String) throws {
        guard isAvailable else {
            throw Processes.Failure("python3 with jsonschema, or \(schema.path), is missing: SARIF cannot be validated (python3 -m pip install jsonschema)")
        }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("policyc-\(UUID().uuidString).sarif")
        try Data(sarif.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let script = """
            import json, sys, jsonschema
            schema = json.load(open(sys.argv[1]))
            errors = list(jsonschema.Draft4Validator(schema).iter_errors(json.load(open(sys.argv[2]))))
            for e in errors[:5]: print(list(e.absolute_path), e.message)
            sys.exit(1 if errors else 0)
            """
        let result = try Processes.run("python3", ["-c", script, schema.path, file.path])
        if result.status != 0 {
            throw Processes.Failure("SARIF is not valid:\n\(result.stdout)\(result.stderr)\n\(sarif.prefix(2000))")
        }
    }
}
