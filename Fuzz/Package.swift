// swift-tools-version:6.0
// The libFuzzer target, kept apart so the main package never needs fuzzer flags. Build and run it
// with `Fuzz/run SECONDS` (see Fuzz/README.md).
import PackageDescription

let package = Package(
    name: "PolicycFuzz",
    dependencies: [.package(name: "policyc", path: "..")],
    targets: [
        // HostilePipeline.swift (in both targets) is a link to Tests/PolicyKitTests/HostilePipeline.swift: the fuzzer
        // and the crash-replay test check the very same invariants.
        .executableTarget(
            name: "FuzzPolicy",
            dependencies: [.product(name: "PolicyKit", package: "policyc")]
        ),
        // Load + decode + check alone, with the cheap invariants (`HostilePipeline.checkViolations`).
        .executableTarget(
            name: "FuzzCheck",
            dependencies: [.product(name: "PolicyKit", package: "policyc")]
        ),
    ]
)
