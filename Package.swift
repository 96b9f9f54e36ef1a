// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "policyc",
    products: [
        .executable(name: "policyc", targets: ["policyc"]),
        .library(name: "PolicyKit", targets: ["PolicyKit"]),
        .plugin(name: "PolicycPlugin", targets: ["PolicycPlugin"]),
    ],
    targets: [
        // libyaml, the only YAML parser we use (Debian: libyaml-dev).
        .systemLibrary(
            name: "CYaml",
            pkgConfig: "yaml-0.1",
            providers: [.apt(["libyaml-dev"]), .brew(["libyaml"])]
        ),
        // A cache prefetch for the simulation's hot loop (header only).
        .systemLibrary(name: "CPrefetch"),
        // All logic: load → decode + check → generate, pure and in memory.
        .target(name: "PolicyKit", dependencies: ["CYaml", "CPrefetch"]),
        // The thin command line: arguments, file I/O, reporters, exit codes.
        // The commit it is built from comes from BuildInfoPlugin (`policyc --version`).
        .executableTarget(
            name: "policyc", dependencies: ["PolicyKit"], linkerSettings: policycLinking,
            plugins: ["BuildInfoPlugin"]
        ),
        // Build-tool plugin: generates a target's policy code at build time (Examples/SwiftConsumer).
        .plugin(name: "PolicycPlugin", capability: .buildTool(), dependencies: ["policyc"]),
        // Records `git rev-parse --short=7 HEAD` before every build (not a product: policyc's own).
        .plugin(name: "BuildInfoPlugin", capability: .buildTool()),
        // Fixtures are read from disk by path, not bundled.
        .testTarget(name: "PolicyKitTests", dependencies: ["PolicyKit"], exclude: ["Fixtures"]),
        .testTarget(name: "policycTests", dependencies: ["policyc"]),
    ]
)

/// A release build of policyc carries the Swift runtime inside it: loading and binding libswiftCore
/// and its siblings took 1.6 ms of every run (lint of a small file: 4.5 ms, 2.7 ms so). The
/// one-file release (Scripts/release) is linked the same way. Not where the flag is refused or
/// breaks things: SwiftPM refuses unsafe flags in a package used as a versioned dependency (the
/// plugin's `.package(url:from:)`), which it checks out into a `checkouts` folder; and
/// ThreadSanitizer's runtime crashes at the first thread when the Swift runtime is linked in
/// (.ci/tsan sets POLICYC_DYNAMIC_STDLIB=1).
var policycLinking: [LinkerSetting] {
    let isCheckout = Context.packageDirectory.split(separator: "/").contains("checkouts")
    guard !isCheckout, Context.environment["POLICYC_DYNAMIC_STDLIB"] != "1" else { return [] }
    return [.unsafeFlags(["-static-stdlib"], .when(platforms: [.linux], configuration: .release))]
}
