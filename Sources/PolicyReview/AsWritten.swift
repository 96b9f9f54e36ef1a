import PolicySource
import PolicyCheck
import PolicyReport
import PolicySimulation

extension Diagnostic {
    /// A finding of one of the guide's limits (a rule with a reference): the value decoded and is
    /// judged too large or too small, or the wrong choice. Every other error — YAML, keys, types,
    /// names, the version — means a value is missing or cannot be trusted.
    public var isLimitFinding: Bool { Catalog.rule(rule)?.reference != nil }
}

extension CheckedFile {
    /// The complete policy as written, also when it breaks limits of the guide, so that a review
    /// can show what a proposal would do; nil when any other error leaves a value missing or
    /// unsure. `policy` (no errors at all) stays what `generate` works from.
    public var policyAsWritten: Policy? {
        if let policy { return policy }
        guard diagnostics.allSatisfy({ $0.severity != .error || $0.isLimitFinding }) else { return nil }
        return doc?.complete(file: path)
    }
}
