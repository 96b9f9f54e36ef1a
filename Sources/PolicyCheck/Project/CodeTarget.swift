import PolicySource

/// What `generate` can write. Each target is a folder (or, for the schema, one file) of the
/// output; `--targets` and the project file name them by `rawValue`.
public enum CodeTarget: String, Sendable, Hashable, CaseIterable, Comparable {
    case swift, kotlin, typescript, schema

    /// What `generate` writes without `--targets`: existing `generate --check` runs stay green.
    public static let defaults: [CodeTarget] = [.swift, .kotlin, .schema]

    public static func < (a: CodeTarget, b: CodeTarget) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}
