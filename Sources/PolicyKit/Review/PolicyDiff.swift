/// `policyc diff`: a semantic comparison of two sets of policy files. Policies are matched by their
/// `policy` name and profiles by name; values are compared as parsed (`8s` is `8000ms`), and the
/// lists that are sets as sets. Works from `PolicyDoc`, so a side with errors is still compared.

/// One file of a side, with the key that matches it to the other side when it has no policy name
/// (its path relative to the compared folder, or the path itself for `--base`).
public struct ReviewInput: Sendable {
    public var file: CheckedFile
    public var matchKey: String

    public init(file: CheckedFile, matchKey: String) {
        self.file = file
        self.matchKey = matchKey
    }
}

public struct PolicyChange: Sendable, Hashable {
    /// `retry.profiles.interactive.maxRetries`, `retry.budget.ratio`, `retry.profiles.fast`, `policy`.
    public var path: String
    /// The value in canonical units (durations in ms, percents as numbers of percent, sets as
    /// sorted arrays); null for a side that does not exist.
    public var before: JSON
    public var after: JSON
    /// The change removes a generated symbol (a policy type or a profile constant).
    public var breaking: Bool
    /// What it means, in plain words.
    public var effect: String
    /// The two values as people read them (`8 s`, `10%`, `none`).
    public var beforeText: String
    public var afterText: String

    public var json: JSON {
        .object(["path": .string(path), "before": before, "after": after, "breaking": .bool(breaking),
                 "effect": .string(effect)])
    }
}

public struct PolicyReview: Sendable {
    public enum Status: String, Sendable {
        case added, removed, changed, unchanged
    }

    /// Nil when the file's policy name could not be read.
    public var policy: String?
    public var file: String
    public var status: Status
    public var changes: [PolicyChange]
    /// Findings of the new side (none for a removed policy).
    public var diagnostics: [Diagnostic]

    public var isBreaking: Bool { changes.contains(where: \.breaking) }

    public var json: JSON {
        .object([
            "policy": policy.map(JSON.string) ?? .null,
            "file": .string(file),
            "status": .string(status.rawValue),
            "changes": .array(changes.map(\.json)),
            "diagnostics": .array(diagnostics.map(\.json)),
        ])
    }
}

public struct DiffReport: Sendable {
    public var policies: [PolicyReview]

    public var breaking: Bool { policies.contains(where: \.isBreaking) }
    public var errors: Int { policies.reduce(0) { $0 + $1.diagnostics.count { $0.severity == .error } } }
    public var warnings: Int { policies.reduce(0) { $0 + $1.diagnostics.count { $0.severity == .warning } } }
    public var changeCount: Int { policies.reduce(0) { $0 + $1.changes.count } }

    /// 1 when the new side has errors, or a change is breaking and that was not allowed; else 0.
    public func exitCode(allowBreaking: Bool) -> Int32 {
        errors > 0 || (breaking && !allowBreaking) ? 1 : 0
    }

    public var json: JSON {
        .object(["policies": .array(policies.map(\.json)), "breaking": .bool(breaking), "errors": .int(errors)])
    }

    /// Compares the old side with the new. The new side should have been through
    /// `Checker.checkAcrossFiles` so that its findings are complete.
    public init(old: [ReviewInput], new: [ReviewInput]) {
        var pairs: [(old: ReviewInput?, new: ReviewInput?)] = []
        var oldUsed = [Bool](repeating: false, count: old.count)
        var newUsed = [Bool](repeating: false, count: new.count)
        func name(_ input: ReviewInput) -> String? { input.file.doc?.policy?.value }

        // By name first; a name defined twice (a name-collision error) pairs once. Names match by
        // bytes (see `sameText`), as they do in lint.
        var oldByName: [ExactText: Int] = [:]
        for (i, o) in old.enumerated() { if let n = name(o).map(ExactText.init), oldByName[n] == nil { oldByName[n] = i } }
        for (j, n) in new.enumerated() {
            guard let key = name(n), let i = oldByName[ExactText(key)], !oldUsed[i] else { continue }
            oldUsed[i] = true
            newUsed[j] = true
            pairs.append((old[i], n))
        }
        // A new file whose name cannot be read is compared with the old file at the same place
        // (an unused old file: its name, if any, is gone from the new side).
        for (j, n) in new.enumerated() where !newUsed[j] && name(n) == nil {
            guard let i = old.indices.first(where: { !oldUsed[$0] && old[$0].matchKey == n.matchKey })
            else { continue }
            oldUsed[i] = true
            newUsed[j] = true
            pairs.append((old[i], n))
        }
        for (j, n) in new.enumerated() where !newUsed[j] { pairs.append((nil, n)) }
        // An old file without a name generated nothing, so nothing of it can be removed.
        for (i, o) in old.enumerated() where !oldUsed[i] && name(o) != nil { pairs.append((o, nil)) }

        let newTypes = Set(new.compactMap { name($0).map { ExactText(Naming.typeName(policy: $0)) } })
        policies = pairs.map { DiffReport.review(old: $0.old, new: $0.new, newTypes: newTypes) }
        policies.sort { a, b in
            let (x, y) = (a.policy ?? "", b.policy ?? "")
            if x != y { return x.utf8.lexicographicallyPrecedes(y.utf8) }
            return a.file.utf8.lexicographicallyPrecedes(b.file.utf8)
        }
    }

    static func review(old: ReviewInput?, new: ReviewInput?, newTypes: Set<ExactText>) -> PolicyReview {
        let diagnostics = new?.file.diagnostics ?? []
        switch (old, new) {
        case (let o?, nil):
            let name = o.file.doc?.policy?.value ?? ""
            let type = Naming.typeName(policy: name)
            let breaking = !newTypes.contains(ExactText(type))
            return PolicyReview(
                policy: name, file: o.file.path, status: .removed,
                changes: [PolicyChange(
                    path: "policy", before: .string(name), after: .null, breaking: breaking,
                    effect: breaking
                        ? "removes the type \(type): apps that use it no longer compile"
                        : "policy '\(printable(name))' is gone, but another policy still generates \(type)",
                    beforeText: printable(name), afterText: "none")],
                diagnostics: [])
        case (nil, let n?):
            let name = n.file.doc?.policy?.value
            var changes: [PolicyChange] = []
            if let name {
                changes.append(PolicyChange(
                    path: "policy", before: .null, after: .string(name), breaking: false,
                    effect: "new policy: apps get the type \(Naming.typeName(policy: name))\(Effects.newPolicySummary(n.file.doc))",
                    beforeText: "none", afterText: printable(name)))
            }
            return PolicyReview(policy: name, file: n.file.path, status: .added, changes: changes, diagnostics: diagnostics)
        case (let o?, let n?):
            var changes: [PolicyChange] = []
            if let before = o.file.doc, let after = n.file.doc {
                var builder = ChangeBuilder(old: before, new: after, newTypes: newTypes)
                builder.compareAll()
                changes = builder.changes
            }
            let name = n.file.doc?.policy?.value
            return PolicyReview(
                policy: name ?? o.file.doc?.policy?.value, file: n.file.path,
                status: changes.isEmpty && n.file.doc != nil ? .unchanged : .changed,
                changes: changes, diagnostics: diagnostics)
        case (nil, nil):
            return PolicyReview(policy: nil, file: "", status: .unchanged, changes: [], diagnostics: [])
        }
    }
}

/// Canonical JSON of the values of a `PolicyDoc`, the units of `diff`'s before and after.
enum CanonicalValue {
    static func duration(_ v: Located<Int>?) -> JSON { v.map { .int($0.value) } ?? .null }
    static func int(_ v: Located<Int>?) -> JSON { v.map { .int($0.value) } ?? .null }
    static func bool(_ v: Located<Bool>?) -> JSON { v.map { .bool($0.value) } ?? .null }
    static func string(_ v: Located<String>?) -> JSON { v.map { .string($0.value) } ?? .null }
    static func percent(_ v: Located<Percent>?) -> JSON { v.map { .double($0.value.percent) } ?? .null }

    /// `network` first, then the statuses in ascending order, each once.
    static func retryOn(_ v: Located<[Located<RetryOn>]>?) -> JSON {
        guard let v else { return .null }
        let items = Set(v.value.map(\.value))
        var out: [JSON] = items.contains(.network) ? [.string("network")] : []
        out += items.compactMap { if case .status(let s) = $0 { return s } else { return nil } }.sorted().map(JSON.int)
        return .array(out)
    }

    /// Sorted by status, then code; each pair once. Absent means empty (the key is optional).
    static func neverRetry(_ v: Located<[PolicyDoc.NeverRetry]>?) -> JSON {
        let items = Set((v?.value ?? []).map { NeverRetryKey(status: $0.status?.value, code: $0.code?.value) })
        return .array(items.sorted().map {
            .object(["status": $0.status.map(JSON.int) ?? .null, "code": $0.code.map(JSON.string) ?? .null])
        })
    }

    /// Alphabetical, each part once.
    static func reuseKey(_ v: Located<[Located<String>]>?) -> JSON {
        guard let v else { return .null }
        return .array(Set(v.value.map(\.value)).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }.map(JSON.string))
    }

    static func profile(_ p: PolicyDoc.Profile?) -> JSON {
        guard let p else { return .null }
        return .object([
            "kind": string(p.kind), "maxRetries": int(p.maxRetries), "base": duration(p.base),
            "cap": duration(p.cap), "timeout": duration(p.timeout), "deadline": duration(p.deadline),
        ])
    }
}

struct NeverRetryKey: Hashable, Comparable {
    var status: Int?
    var code: String?

    /// Codes by bytes (see `sameText`): "\u{958}" and "\u{915}\u{93C}" are two exceptions.
    static func == (a: NeverRetryKey, b: NeverRetryKey) -> Bool {
        a.status == b.status && a.code.map(ExactText.init) == b.code.map(ExactText.init)
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(status)
        hasher.combine(code.map(ExactText.init))
    }

    static func < (a: NeverRetryKey, b: NeverRetryKey) -> Bool {
        if a.status != b.status { return (a.status ?? Int.min) < (b.status ?? Int.min) }
        return (a.code ?? "").utf8.lexicographicallyPrecedes((b.code ?? "").utf8)
    }

    var words: String {
        [status.map(String.init), code.map(printable)].compactMap { $0 }.joined(separator: " ")
    }
}
