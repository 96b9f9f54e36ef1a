import Foundation
import Testing
@testable import PolicyKit

/// Generated code is compiled and run, not only compared: the canonical policy against every
/// reference vector, a policy with other values, and hostile text that must stay inert. One
/// compiler run per Swift language mode and one kotlinc run, each with warnings as errors.
@Suite(.serialized) struct GeneratorCompileTests {
    static let kotlinAvailable = GenSupport.which("kotlinc") != nil && GenSupport.which("java") != nil

    /// The generated sources of the canonical, the hostile and the crowded policy, in a fresh folder.
    static func generate(kotlin: Bool) throws -> (dir: URL, files: [URL]) {
        let dir = try GenSupport.temporaryDirectory()
        var urls: [URL] = []
        for file in Generator.files(for: [try GenSupport.canonical, try GenSupport.hostile, try GenSupport.crowded])
        where file.path.hasSuffix(kotlin ? ".kt" : ".swift") {
            let url = dir.appendingPathComponent(String(file.path.split(separator: "/").last!))
            try GenSupport.write(file.contents, to: url)
            urls.append(url)
        }
        return (dir, urls)
    }

    static var vectorCount: Int {
        get throws {
            try String(contentsOf: GenSupport.vectors, encoding: .utf8).split(separator: "\n").filter { !$0.hasPrefix("#") }.count
        }
    }

    /// The driver's report: every vector and hostile check passed, and the strings are exact.
    static func checkReport(_ run: GenSupport.Run, units: (String) -> String) throws {
        #expect(run.status == 0, "\(run.stdout)\n\(run.stderr)")
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(!lines.contains { $0.hasPrefix("FAIL") }, "\(lines.filter { $0.hasPrefix("FAIL") }.prefix(10))")
        #expect(lines.contains("checked \(try vectorCount + 10), failed 0"), "\(run.stdout)")
        #expect(lines.contains("description: " + units(GenSupport.hostileDescription)))
        #expect(lines.contains("codes: " + units("not_ready") + " | " + units(GenSupport.hostileCode)))
    }

    @Test(arguments: ["5", "6"])
    func swiftCompilesWithoutWarningsAndMatchesTheReference(mode: String) throws {
        let (dir, files) = try Self.generate(kotlin: false)
        defer { try? FileManager.default.removeItem(at: dir) }
        let main = dir.appendingPathComponent("main.swift")
        try FileManager.default.copyItem(at: GenSupport.packageRoot.appendingPathComponent("Tests/Drivers/Swift/main.swift"), to: main)
        let exe = dir.appendingPathComponent("driver")
        let compile = try GenSupport.run("swiftc", ["-swift-version", mode, "-warnings-as-errors"] + (files + [main]).map(\.path) + ["-o", exe.path])
        #expect(compile.status == 0 && compile.stderr.isEmpty, "swiftc -swift-version \(mode):\n\(compile.stderr)")
        guard compile.status == 0 else { return }
        let run = try GenSupport.run(exe.path, [GenSupport.vectors.path])
        try Self.checkReport(run) { $0.unicodeScalars.map { String($0.value, radix: 16) }.joined(separator: " ") }
    }

    @Test(.enabled(if: kotlinAvailable || GenSupport.isCI, "kotlinc and java are not installed (required when CI=true)"))
    func kotlinCompilesWithoutWarningsAndMatchesTheReference() throws {
        try #require(GenSupport.which("kotlinc") != nil, "kotlinc is not installed (apt-get install kotlin)")
        let (dir, files) = try Self.generate(kotlin: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let jar = dir.appendingPathComponent("driver.jar")
        let driver = GenSupport.packageRoot.appendingPathComponent("Tests/Drivers/Kotlin/Main.kt")
        let compile = try GenSupport.run("kotlinc", ["-Werror", "-include-runtime", "-d", jar.path] + (files + [driver]).map(\.path))
        // The JVM's own start-up notice is not a compiler diagnostic.
        let diagnostics = compile.stderr.split(separator: "\n").filter { !$0.contains("OpenJDK 64-Bit Server VM warning") }
        #expect(compile.status == 0 && diagnostics.isEmpty, "kotlinc -Werror:\n\(compile.stderr)")
        guard compile.status == 0 else { return }
        let run = try GenSupport.run("java", ["-jar", jar.path, GenSupport.vectors.path])
        try Self.checkReport(run) { $0.utf16.map { String($0, radix: 16) }.joined(separator: " ") }
    }
}
