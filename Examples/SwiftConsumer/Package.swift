// swift-tools-version:6.0
import PackageDescription

// An app package that keeps its retry policy next to its code: the policyc plugin turns
// Sources/Player/playback.yaml into PlaybackPolicy at build time.
let package = Package(
    name: "SwiftConsumer",
    dependencies: [
        .package(name: "policyc", path: "../.."),
    ],
    targets: [
        .executableTarget(
            name: "Player",
            plugins: [.plugin(name: "PolicycPlugin", package: "policyc")]
        ),
    ]
)
