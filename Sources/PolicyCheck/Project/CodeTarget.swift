import PolicySource

/// What `generate` can write. Each target is a folder (or, for the schema, one file) of the
/// output; `--targets` and the project file name them by `rawValue`.
public enum CodeTarget: String, Sendable, Hashable, CaseIterable, Comparable {
    case swift, kotlin, typescript, schema

    /// What `generate` writes without `--targets`: existing `generate --check` runs stay green.
    public static let defaults: [CodeTarget] = [.swift, .kotlin, .schema]

    /// How messages and the project file's schema name what the target writes.
    public var title: String {
        switch self {
        case .swift: return "Swift"
        case .kotlin: return "Kotlin"
        case .typescript: return "TypeScript"
        case .schema: return "JSON Schema"
        }
    }

    public static func < (a: CodeTarget, b: CodeTarget) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}
