import PolicySource
import PolicyCheck
import PolicyReport
import PolicyCodegen
import PolicySimulation
import PolicyReview

/// The kinds of YAML file the editor knows. Each is checked by its own reader and completed from
/// its own fields; only policies take part in the rules across files.
public enum EditorFileKind: String, Sendable, Hashable {
    /// Anything not recognised as one of the others, as `lint` reads every file it is given.
    case policy
    /// A `simulate` scenario: its top level has a key only scenarios have (`scenario`, `fleet`,
    /// `server`, …) and none only policies have (`policy`, `retry`, …).
    case scenario
    /// The project file: named `policyc.yaml` or `policyc.yml`, wherever it is.
    case project
    /// YAML that would be read as a policy, but in a workspace folder whose `lint` does not check
    /// it (a CI workflow, a compose file; see `EditorWorkspace.kind(of:)`): no findings, no fixes,
    /// no completion or hover. `of(path:lines:)` never answers it: only the workspace knows.
    case other

    /// The keys of the file's top level, as its reader decodes them.
    public var fields: [Field] {
        switch self {
        case .policy: return Language.root
        case .scenario: return ScenarioLanguage.root
        case .project: return ProjectConfig.fields
        case .other: return []
        }
    }

    /// The shape `policyc fmt` lays the file out by: its language's keys in order (none for
    /// other YAML, whose keys keep their order).
    public var formatShape: Shape { .object(fields) }

    /// Top-level keys that tell the two languages apart, from the languages themselves.
    static let scenarioOnly = Set(ScenarioLanguage.root.map(\.key)).subtracting(Language.root.map(\.key))
    static let policyOnly = Set(Language.root.map(\.key)).subtracting(ScenarioLanguage.root.map(\.key))

    /// The kind of the file at `path` (absolute, or a URI) with the text `lines`. Read from the
    /// keys that start lines at column 0, not from a parse, so that a file being typed keeps its
    /// kind while it is not YAML.
    public static func of(path: String, lines: LineIndex) -> EditorFileKind {
        let name = path.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? path
        if ProjectConfig.fileNames.contains(name) { return .project }
        let b = lines.bytes
        guard b.count <= Loader.maxBytes else { return .policy }
        var scenario = false
        for number in 1...lines.lineCount {
            let range = lines.range(ofLine: number)!
            let (start, end) = (range.lowerBound, range.upperBound)
            guard start < end, b[start] != 0x20, b[start] != 0x09,
                  case .key(let key, _, _, _, _)? = Outline.key(b, at: start, end) else { continue }
            if policyOnly.contains(where: { sameText($0, key) }) { return .policy }
            if scenarioOnly.contains(where: { sameText($0, key) }) { scenario = true }
        }
        return scenario ? .scenario : .policy
    }
}
