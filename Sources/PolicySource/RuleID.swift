/// A rule's id, stable across releases (`full-jitter`); the wording of its findings may improve.
/// Each id is declared beside its rule: the four below by the source layer, whose loader reports
/// them before any rule runs, every other one in its rule's file in the checker's catalog.
public struct RuleID: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    public let rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    public init(stringLiteral value: String) {
        self.rawValue = value
    }

    public var description: String { rawValue }

    public static func < (a: RuleID, b: RuleID) -> Bool { a.rawValue < b.rawValue }
}

extension RuleID {
    public static let yamlSyntax: RuleID = "yaml-syntax"
    public static let yamlUnsupported: RuleID = "yaml-unsupported"
    public static let yamlDuplicateKey: RuleID = "yaml-duplicate-key"
    public static let inputLimit: RuleID = "input-limit"
}
