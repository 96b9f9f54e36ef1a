// swift-tools-version:6.0
import PackageDescription

// The targets and the one direction their dependencies run (SwiftPM refuses any other):
//
//   PolicySource   text, positions, YAML, diagnostics, edits, rule ids     (CYaml)
//        ↑
//   PolicyCheck    the language, the rule catalog, fixes, the project file
//        ↑
//   PolicyWorkspace  which files are policies, paths, the output folder's plan  (on PolicyCheck)
//        ↑
//   PolicyReport · PolicyCodegen · PolicySimulation · PolicyFormat   (each on PolicyCheck alone)
//        ↑                PolicyTraffic: verify, recorded traffic (on Report)
//        ↑
//   PolicyReview   diff, explain                          (+ Report, Simulation)
//        ↑
//   PolicyEditor   the language server's answers          (+ everything below, Workspace too)
//        ↑
//   PolicySystem   the machine: files, atomic writes, git, the terminal, the editor's pipe
//        ↑
//   PolicyKit      re-exports them all, for policyc, the plugin and Fuzz/
//        ↑
//   policyc        the command line: arguments, files, exit codes
/// The build-tool plugin runs a host copy of policyc, so building everything (`--build-tests`)
/// compiles every module twice. The README's test command (Scripts/test) and `.ci/run`'s test runs
/// set POLICYC_WITHOUT_PLUGIN=1 and leave the plugin out; Examples/test builds the consumer that
/// uses it.
let withPlugin = Context.environment["POLICYC_WITHOUT_PLUGIN"] == nil

let package = Package(
    name: "policyc",
    products: [
        .executable(name: "policyc", targets: ["policyc"]),
        .library(name: "PolicyKit", targets: ["PolicyKit"]),
    ] + (withPlugin ? [.plugin(name: "PolicycPlugin", targets: ["PolicycPlugin"])] : []),
    targets: [
        // libyaml, the only YAML parser we use (Debian: libyaml-dev).
        .systemLibrary(
            name: "CYaml",
            pkgConfig: "yaml-0.1",
            providers: [.apt(["libyaml-dev"]), .brew(["libyaml"])]
        ),
        .target(name: "PolicySource", dependencies: ["CYaml"], swiftSettings: optimizedInDebug),
        .target(name: "PolicyCheck", dependencies: ["PolicySource"], swiftSettings: optimizedInDebug),
        .target(name: "PolicyReport", dependencies: ["PolicyCheck"]),
        .target(name: "PolicyCodegen", dependencies: ["PolicyCheck"]),
        .target(name: "PolicyWorkspace", dependencies: ["PolicySource", "PolicyCheck"]),
        .target(name: "PolicySimulation", dependencies: ["PolicyCheck"], swiftSettings: optimizedInDebug),
        .target(name: "PolicyFormat", dependencies: ["PolicyCheck"]),
        .target(name: "PolicyReview", dependencies: ["PolicyReport", "PolicySimulation"]),
        .target(name: "PolicyEditor", dependencies: ["PolicyReview", "PolicyCodegen", "PolicyWorkspace", "PolicyFormat"]),
        .target(name: "PolicySystem", dependencies: ["PolicyEditor", "PolicyTraffic"]),
        .target(name: "PolicyTraffic", dependencies: ["PolicyReport"]),
        .target(name: "PolicyKit", dependencies: ["PolicySystem", "PolicyTraffic"]),
        // The thin command line: arguments, file I/O, reporters, exit codes.
        // The commit it is built from comes from BuildInfoPlugin (`policyc --version`).
        .executableTarget(
            name: "policyc", dependencies: ["PolicyKit"], linkerSettings: policycLinking,
            plugins: ["BuildInfoPlugin"]
        ),
        // Records `git rev-parse --short=7 HEAD` before every build (not a product: policyc's own).
        .plugin(name: "BuildInfoPlugin", capability: .buildTool()),
        // Tests: one target per layer, the whole pipeline on hostile input (PolicyKitTests), the
        // binary as users run it (policycTests), and the slow checks that `.ci/run` runs after the
        // README's test command, Scripts/test (SlowTests: compilers on generated code, 1 MiB inputs,
        // thread counts).
        // Fixtures (Tests/Fixtures) are read from disk by path, not bundled.
        .target(name: "TestSupport", dependencies: ["PolicyKit"], path: "Tests/Support"),
        .testTarget(name: "PolicySourceTests", dependencies: ["PolicySource", "PolicyCheck", "TestSupport"]),
        .testTarget(name: "PolicyCheckTests", dependencies: ["PolicyCheck", "TestSupport"]),
        .testTarget(name: "PolicyReportTests", dependencies: ["PolicyReport", "TestSupport"]),
        .testTarget(name: "PolicyCodegenTests", dependencies: ["PolicyCodegen", "TestSupport"]),
        .testTarget(name: "PolicySimulationTests", dependencies: ["PolicySimulation", "PolicyReport", "PolicyCodegen", "TestSupport"]),
        .testTarget(name: "PolicyFormatTests", dependencies: ["PolicyFormat", "TestSupport"]),
        .testTarget(name: "PolicyReviewTests", dependencies: ["PolicyReview", "TestSupport"]),
        .testTarget(name: "PolicyWorkspaceTests", dependencies: ["PolicyWorkspace", "TestSupport"]),
        .testTarget(name: "PolicyEditorTests", dependencies: ["PolicyEditor", "TestSupport"]),
        .testTarget(name: "PolicySystemTests", dependencies: ["PolicySystem", "TestSupport"]),
        .testTarget(name: "PolicyTrafficTests", dependencies: ["PolicyTraffic", "TestSupport"]),
        .testTarget(name: "PolicyKitTests", dependencies: ["PolicyKit", "TestSupport"]),
        .testTarget(name: "policycTests", dependencies: ["policyc", "TestSupport"]),
        .testTarget(name: "SlowTests", dependencies: ["policyc", "TestSupport"]),
    ] + (withPlugin ? [
        // Build-tool plugin: generates a target's policy code at build time (Examples/SwiftConsumer).
        .plugin(name: "PolicycPlugin", capability: .buildTool(), dependencies: ["policyc"]),
    ] : [])
)

/// A release build of policyc carries the Swift runtime inside it: loading and binding libswiftCore
/// and its siblings at every start costs more than a small lint. The one-file release
/// (Scripts/release) is linked the same way. Not where the flag is refused or breaks things:
/// SwiftPM refuses unsafe flags in a package used as a versioned dependency (the plugin's
/// `.package(url:from:)`), which it checks out into a `checkouts` folder; and ThreadSanitizer's
/// runtime crashes at the first thread when the Swift runtime is linked in (.ci/tsan sets
/// POLICYC_DYNAMIC_STDLIB=1).
var policycLinking: [LinkerSetting] {
    let isCheckout = Context.packageDirectory.split(separator: "/").contains("checkouts")
    guard !isCheckout, Context.environment["POLICYC_DYNAMIC_STDLIB"] != "1" else { return [] }
    return [.unsafeFlags(["-static-stdlib"], .when(platforms: [.linux], configuration: .release))]
}

/// The parser, the checker and the simulator optimized in debug builds too: every test, every
/// command the tests run and `diff`'s built-in scenarios go through them, and unoptimized they made
/// the README's test command (Scripts/test) minutes longer; the other modules stay unoptimized for
/// the debugger. Not in a checkout, where SwiftPM refuses unsafe flags (see `policycLinking`).
var optimizedInDebug: [SwiftSetting] {
    let isCheckout = Context.packageDirectory.split(separator: "/").contains("checkouts")
    return isCheckout ? [] : [.unsafeFlags(["-O"], .when(configuration: .debug))]
}
