import PolicySource
import PolicyCheck

/// Where `generate`'s files go: one folder with a subfolder a language (`Generated/Swift/…`,
/// `Generated/Kotlin/…`, `Generated/TypeScript/…`, `Generated/policy.schema.json`), or a folder a
/// language (`out: {swift: ios/Policy, kotlin: android/src/main/kotlin, …}`), the files straight
/// in it. Kotlin may go under its package's folders (`com/example/PlaybackPolicy.kt`).
package struct OutputLayout: Sendable, Equatable {
    /// A folder and the targets whose files it takes: one for `out: DIR`, one a target otherwise.
    package struct Destination: Sendable, Equatable {
        package var folder: String
        package var targets: [CodeTarget]
    }

    package var destinations: [Destination]
    /// True for a folder a language: a file's language subfolder (`Swift/`) is left out.
    package var perTarget: Bool
    /// The Kotlin package's folders (`com/example`), "" when Kotlin goes straight in its folder.
    package var kotlinPackagePath: String

    /// `out: DIR`.
    package static func single(_ folder: String, targets: [CodeTarget], kotlinPackage: String? = nil) -> OutputLayout {
        OutputLayout(destinations: [Destination(folder: folder, targets: targets)], perTarget: false,
                     kotlinPackagePath: packagePath(kotlinPackage))
    }

    /// `out: {swift: …, kotlin: …}`: a folder for each of `targets`; the name of a target without
    /// one is the failure (its files would have nowhere to go).
    package static func perTarget(_ folders: [CodeTarget: String], targets: [CodeTarget],
                                  kotlinPackage: String? = nil) -> Result<OutputLayout, MissingFolder> {
        if let missing = targets.first(where: { folders[$0] == nil }) { return .failure(MissingFolder(target: missing)) }
        let destinations = targets.map { Destination(folder: folders[$0]!, targets: [$0]) }
        return .success(OutputLayout(destinations: destinations, perTarget: true, kotlinPackagePath: packagePath(kotlinPackage)))
    }

    package struct MissingFolder: Error, Equatable {
        package var target: CodeTarget
        package var message: String {
            "'out' names no folder for \(target.rawValue), which is generated; add '\(target.rawValue): FOLDER' to it or leave \(target.rawValue) out of the targets"
        }
    }

    /// `com.example.player` → `com/example/player`; nil → "".
    static func packagePath(_ package: String?) -> String {
        package.map { $0.split(separator: ".").joined(separator: "/") } ?? ""
    }

    /// The subfolder of a target's files in one output folder, and their extension (nil for the
    /// schema, one file at the top).
    package static func subfolder(of target: CodeTarget) -> (name: String, fileExtension: String)? {
        switch target {
        case .swift: return ("Swift", ".swift")
        case .kotlin: return ("Kotlin", ".kt")
        case .typescript: return ("TypeScript", ".ts")
        case .schema: return nil
        }
    }

    /// The target a generated path (`Kotlin/PlaybackPolicy.kt`, `policy.schema.json`) belongs to.
    package static func target(of path: String) -> CodeTarget {
        for target in CodeTarget.allCases {
            if let sub = subfolder(of: target), path.hasPrefix(sub.name + "/") { return target }
        }
        return .schema
    }

    /// Where a generated path goes: the destination's index and the path in its folder; nil for a
    /// target that has no destination.
    package func place(_ path: String) -> (destination: Int, path: String)? {
        let target = Self.target(of: path)
        guard let index = destinations.firstIndex(where: { $0.targets.contains(target) }) else { return nil }
        var rest = path
        if let sub = Self.subfolder(of: target) { rest = String(path.dropFirst(sub.name.count + 1)) }
        if target == .kotlin, !kotlinPackagePath.isEmpty { rest = kotlinPackagePath + "/" + rest }
        if perTarget { return (index, rest) }
        return (index, Self.subfolder(of: target).map { $0.name + "/" + rest } ?? rest)
    }

    /// Where stale files of destination `index` are looked for, below and all: each of its
    /// targets' folders ("" is the destination's folder itself), with their files' extension.
    /// Kotlin's whole folder, so that the files of a package that was renamed go too.
    package func staleFolders(_ index: Int) -> [OutputPlan.StaleFolder] {
        destinations[index].targets.compactMap { target in
            guard let sub = Self.subfolder(of: target) else { return nil }
            return OutputPlan.StaleFolder(name: perTarget ? "" : sub.name, fileExtension: sub.fileExtension)
        }
    }
}
