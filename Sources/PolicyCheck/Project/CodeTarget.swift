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

    /// The target someone who wrote `name` most likely meant: the usual short names (`ts`, `kt`,
    /// `json`), a typo (`swfit`), or the start of one name (`type`); nil when none is near.
    public static func suggestion(for name: String) -> CodeTarget? {
        let lowered = name.lowercased()
        if let alias = aliases[lowered] { return alias }
        if let near = Suggest.nearest(name, in: allCases.map(\.rawValue)) { return CodeTarget(rawValue: near) }
        let starting = allCases.filter { lowered.count >= 2 && $0.rawValue.hasPrefix(lowered) }
        return starting.count == 1 ? starting[0] : nil
    }

    /// Names of the languages' files and tools.
    static let aliases: [String: CodeTarget] = [
        "ts": .typescript, "typescript": .typescript, "kt": .kotlin, "kts": .kotlin, "swift": .swift,
        "json": .schema, "jsonschema": .schema, "json-schema": .schema, "schema.json": .schema,
    ]
}

extension CodeTarget {
    /// Why a `--targets` list was refused.
    public struct ListProblem: Error, Equatable {
        public var message: String
    }

    /// `swift,kotlin` → the targets, in the order given; an unknown (with a did-you-mean),
    /// repeated or missing name is refused.
    public static func list(_ list: String) -> Result<[CodeTarget], ListProblem> {
        let names = allCases.map(\.rawValue)
        var out: [CodeTarget] = []
        for item in list.split(separator: ",", omittingEmptySubsequences: false) {
            let name = String(item.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
            guard !name.isEmpty else {
                return .failure(ListProblem(message: "'--targets' needs a comma-separated list of targets (\(names.joined(separator: ", "))); '\(printable(list))' has an empty item"))
            }
            guard let target = CodeTarget(rawValue: name) else {
                let hint = suggestion(for: name).map { "; did you mean '\($0.rawValue)'?" } ?? ""
                return .failure(ListProblem(message: "unknown target '\(printable(name))' in '--targets'\(hint) (targets: \(names.joined(separator: ", ")))"))
            }
            guard !out.contains(target) else {
                return .failure(ListProblem(message: "target '\(name)' is given twice in '--targets'"))
            }
            out.append(target)
        }
        return .success(out)
    }
}
