/// The commit policyc was built from, for `--version` (`0.3.0 (1a2b3c4)`).
///
/// Plugins/BuildInfoPlugin writes `extension BuildInfo { static var commit: String? { "1a2b3c4" } }`
/// at build time, and a member of the type itself wins over this protocol's default. The default
/// (no commit: the version alone) stands where the plugin did not run: SwiftPM builds the policyc
/// that another package's build-tool plugin uses (Examples/SwiftConsumer) in a build of its own,
/// without build-tool plugins, and a missing generated file must not break that build.
enum BuildInfo: BuildInfoDefaults {}

protocol BuildInfoDefaults {}

extension BuildInfoDefaults {
    static var commit: String? { nil }
}
