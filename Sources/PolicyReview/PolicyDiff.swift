import PolicySource
import PolicyCheck
import PolicyReport
import PolicySimulation

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
    /// The new side's findings this change brings or leaves in place (see `FindingMatch.attribute`).
    public var findings: [ReviewFinding] = []
    /// The new side has no valid value here: a required key is missing or did not decode.
    public var missingValue = false

    /// The new policy breaks a limit (or lacks a value) because of this change, or still does.
    public var fails: Bool { missingValue || findings.contains { $0.diagnostic.severity == .error } }

    public var json: JSON {
        .object(["path": .string(path), "before": before, "after": after, "breaking": .bool(breaking),
                 "effect": .string(effect), "fails": .bool(fails), "findings": .array(findings.map(\.json))])
    }
}

/// A policy that is gone while another with the same values (all but its name and description)
/// appears: most likely renamed, so apps must follow the new type name.
public struct LikelyRename: Sendable, Hashable {
    public var from: String
    public var to: String
    public var fromFile: String
    public var toFile: String

    public var json: JSON {
        .object(["from": .string(from), "to": .string(to), "fromFile": .string(fromFile), "toFile": .string(toFile)])
    }

    public init(from: String, to: String, fromFile: String, toFile: String) {
        self.from = from
        self.to = to
        self.fromFile = fromFile
        self.toFile = toFile
    }
}

/// What a review says about one profile as a whole, beside its changes row by row: one entry per
/// profile whose values changed or that is new. The place for figures of the whole profile (such
/// as how it fares in the standard outage).
public struct ProfileReview: Sendable, Hashable {
    public var name: String
    /// What all the profile's changes do together that no single change says (several changed).
    public var together: [String] = []

    /// The sentences the renderers print after the profile's name.
    public var lines: [String] {
        together.isEmpty ? [] : ["all its changes together: " + together.joined(separator: ", ")]
    }

    public var json: JSON {
        .object(["together": together.isEmpty ? .null : .string(together.joined(separator: ", "))])
    }
}

public struct PolicyReview: Sendable {
    public enum Status: String, Sendable {
        case added, removed, changed, unchanged
    }

    /// Nil when the file's policy name could not be read.
    public var policy: String?
    /// The new side's file; the old side's for a removed policy.
    public var file: String
    /// The old side's file; nil for an added policy.
    public var oldFile: String?
    /// The policy is in a file at another place than before.
    public var moved = false
    public var status: Status
    public var changes: [PolicyChange]
    /// Findings of the new side (none for a removed policy), each new or already there.
    public var findings: [ReviewFinding] = []
    /// Errors and warnings of the old side that the new side no longer has: what the change fixes.
    public var fixed: [Diagnostic] = []
    /// Set on both the removed and the added policy of a likely rename.
    public var likelyRename: LikelyRename?
    /// The profiles that changed or are new, in the new policy's order.
    public var profiles: [ProfileReview] = []
    /// The standard outage on both sides, per profile (`addOutageFigures`).
    public var outage: [OutageComparison] = []
    /// Figures of the built-in scenarios that moved past the review's thresholds, worse or better.
    public var scenarioChanges: [FigureChange] = []
    /// Why the values could not be compared: a side's file could not be read as a policy (not
    /// well-formed YAML, over a limit). Nil when they were.
    public var notCompared: String?

    public var diagnostics: [Diagnostic] { findings.map(\.diagnostic) }
    public var isBreaking: Bool { changes.contains(where: \.breaking) }
    public var newFindings: [ReviewFinding] { findings.filter(\.isNew) }
    public var oldFindings: [ReviewFinding] { findings.filter { !$0.isNew } }

    public var json: JSON {
        var profiles: [String: JSON] = [:]
        for p in self.profiles where profiles[p.name] == nil { profiles[p.name] = p.json }
        var members: [String: JSON] = [
            "policy": policy.map(JSON.string) ?? .null,
            "file": .string(file),
            "oldFile": oldFile.map(JSON.string) ?? .null,
            "moved": .bool(moved),
            "status": .string(status.rawValue),
            "changes": .array(changes.map(\.json)),
            "diagnostics": .array(findings.map(\.json)),
            "likelyRename": likelyRename?.json ?? .null,
            "profiles": .object(profiles),
        ]
        // Only when the retry behaviour changed.
        if !outage.isEmpty { members["outage"] = .array(outage.map(\.json)) }
        if let notCompared { members["notCompared"] = .string(notCompared) }
        if !fixed.isEmpty { members["fixed"] = .array(fixed.map(\.json)) }
        return .object(members)
    }
}

public struct DiffReport: Sendable {
    public var policies: [PolicyReview]
    /// The built-in scenarios on both sides: nil when no profile's retry values changed.
    public var scenarioVerdict: ScenarioVerdict?
    /// Waivers added, removed or changed, policy by policy (`WaiverReview.swift`).
    public var waivers: [WaiverChange] = []
    /// The project file's changes between the sides (`ProjectFileReview`), and its name.
    public var projectFile: [ProjectFileChange] = []
    public var projectFileName: String?
    /// The commit the head was compared with (`diff --base`).
    public var base: ReviewBase?
    /// A simulated figure got worse past the project's thresholds.
    public var worse: Bool { !(scenarioVerdict?.worse.isEmpty ?? true) }

    public var breaking: Bool { policies.contains(where: \.isBreaking) }
    public var errors: Int { policies.reduce(0) { $0 + $1.diagnostics.count { $0.severity == .error } } }
    /// Errors of the new side that the old side did not have.
    public var newErrors: Int {
        policies.reduce(0) { $0 + $1.findings.count { $0.isNew && $0.diagnostic.severity == .error } }
    }
    public var warnings: Int { policies.reduce(0) { $0 + $1.diagnostics.count { $0.severity == .warning } } }
    public var changeCount: Int { policies.reduce(0) { $0 + $1.changes.count } }

    /// 1 when the new side has errors, or a change is breaking, worse in an outage, loosens the
    /// project file or widens a waiver and that was not allowed; else 0.
    public func exitCode(_ allow: Allowances = .none) -> Int32 {
        errors > 0 || (breaking && !allow.breaking) || (worse && !allow.worse) || (loosened && !allow.loosen)
            || (widened && !allow.widen) ? 1 : 0
    }

    /// The head's project file judges less strictly than the base's.
    public var loosened: Bool { projectFile.contains(where: \.loosened) }
    /// A waiver covers more than before.
    public var widened: Bool { waivers.contains(where: \.widens) }
    /// What the change fixes, over every policy.
    public var fixed: [Diagnostic] { policies.flatMap(\.fixed) }

    public var json: JSON {
        var members: [String: JSON] = [
            "policies": .array(policies.map(\.json)), "breaking": .bool(breaking), "errors": .int(errors),
            "newErrors": .int(newErrors), "waivers": .array(waivers.map(\.json)),
            "fixed": .array(fixed.map(\.json)),
            "projectFile": .object(["file": projectFileName.map(JSON.string) ?? .null,
                                    "changes": .array(projectFile.map(\.json)), "loosened": .bool(loosened)]),
            "mergeBase": base.flatMap { $0.exact ? nil : JSON.string($0.commit) } ?? .null,
            "base": base.map { $0.json } ?? .null,
        ]
        // Only when the built-in scenarios ran (a profile's retry values changed).
        if let v = scenarioVerdict {
            members["worse"] = .array(v.worse.map(\.json))
            members["better"] = .array(v.better.map(\.json))
            members["withinGuide"] = .array(v.withinGuide.map(\.json))
        }
        return .object(members)
    }

    /// Compares the old side with the new. The new side should have been through
    /// `Checker.checkAcrossFiles` so that its findings are complete. `targets` are what `generate`
    /// writes (the project file's), so that a change names the symbols apps use.
    public init(old: [ReviewInput], new: [ReviewInput], targets: [CodeTarget] = CodeTarget.defaults) {
        let symbols = GeneratedSymbols(targets: targets)
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

        // A removed policy and an added one with the same values: most likely a rename. Matched by
        // their canonical values, each old policy to at most one new one.
        var twins: [Int: ReviewInput] = [:]   // pair index → the other side of the rename
        var removedByValues: [JSON: [Int]] = [:]
        for k in pairs.indices {
            guard pairs[k].new == nil, let doc = pairs[k].old?.file.doc, !doc.profiles.isEmpty else { continue }
            removedByValues[CanonicalValue.valuesBesideName(doc), default: []].append(k)
        }
        for k in pairs.indices {
            guard pairs[k].old == nil, let n = pairs[k].new, name(n) != nil, let doc = n.file.doc,
                  var candidates = removedByValues[CanonicalValue.valuesBesideName(doc)], !candidates.isEmpty
            else { continue }
            let r = candidates.removeFirst()
            removedByValues[CanonicalValue.valuesBesideName(doc)] = candidates
            twins[k] = pairs[r].old
            twins[r] = n
        }

        waivers = DiffReport.waiverChanges(pairs)
        let newTypes = Set(new.compactMap { name($0).map { ExactText(Naming.typeName(policy: $0)) } })
        policies = pairs.indices.map {
            DiffReport.review(old: pairs[$0].old, new: pairs[$0].new, twin: twins[$0], newTypes: newTypes, symbols: symbols)
        }
        policies.sort { a, b in
            let (x, y) = (a.policy ?? "", b.policy ?? "")
            if x != y { return x.utf8.lexicographicallyPrecedes(y.utf8) }
            return a.file.utf8.lexicographicallyPrecedes(b.file.utf8)
        }
    }

    /// One policy's review. `twin` is the other side of a likely rename: the added policy for a
    /// removed one, the removed policy for an added one.
    static func review(old: ReviewInput?, new: ReviewInput?, twin: ReviewInput?, newTypes: Set<ExactText>,
                               symbols: GeneratedSymbols = GeneratedSymbols(targets: CodeTarget.defaults)) -> PolicyReview {
        switch (old, new) {
        case (let o?, nil):
            let name = o.file.doc?.policy?.value ?? ""
            let type = Naming.typeName(policy: name)
            let breaking = !newTypes.contains(ExactText(type))
            var effect = breaking
                ? "removes the type \(printable(type))\(symbols.module(type)): apps that use it no longer compile"
                : "policy '\(printable(name))' is gone, but another policy still generates \(printable(type))"
            var rename: LikelyRename?
            if let twin, let to = twin.file.doc?.policy?.value {
                rename = LikelyRename(from: name, to: to, fromFile: o.file.path, toFile: twin.file.path)
                effect += "; it looks renamed to '\(printable(to))'"
                    + (twin.matchKey == o.matchKey ? "" : " in \(printable(twin.file.path))") + " with the same values"
            }
            var review = PolicyReview(
                policy: name, file: o.file.path, oldFile: o.file.path, status: .removed,
                changes: [PolicyChange(path: "policy", before: .string(name), after: .null, breaking: breaking,
                                       effect: effect, beforeText: printable(name), afterText: "none")])
            review.likelyRename = rename
            return review
        case (nil, let n?):
            let name = n.file.doc?.policy?.value
            // Findings of a renamed policy are compared with those it had under its old name.
            let findings = FindingMatch.classify(new: n.file.diagnostics, newPaths: KeyPaths(source: n.file.source),
                                                 old: twin?.file.diagnostics ?? [], oldSource: twin?.file.source ?? [])
            var changes: [PolicyChange] = []
            var rename: LikelyRename?
            if let name {
                let type = Naming.typeName(policy: name)
                var effect = "new policy: apps get the type \(printable(type))\(symbols.module(type))"
                if let twin, let from = twin.file.doc?.policy?.value {
                    rename = LikelyRename(from: from, to: name, fromFile: twin.file.path, toFile: n.file.path)
                    effect += "; it looks renamed from '\(printable(from))'"
                        + (twin.matchKey == n.matchKey ? "" : " in \(printable(twin.file.path))") + " with the same values"
                } else {
                    effect += Effects.newPolicySummary(n.file.doc)
                }
                // A new policy brings every finding it has.
                changes.append(PolicyChange(path: "policy", before: .null, after: .string(name), breaking: false,
                                            effect: effect, beforeText: "none", afterText: printable(name),
                                            findings: findings))
            }
            var review = PolicyReview(policy: name, file: n.file.path, status: .added, changes: changes, findings: findings)
            review.likelyRename = rename
            if n.file.doc == nil { review.notCompared = DiffReport.unreadable(old: false, new: true) }
            review.profiles = (n.file.doc?.profiles ?? []).map { ProfileReview(name: $0.name.value) }
            return review
        case (let o?, let n?):
            var changes: [PolicyChange] = []
            var profiles: [ProfileReview] = []
            // Only a file with findings keeps its bytes: one without has nothing to place.
            let paths = KeyPaths(source: n.file.source)
            let findings = FindingMatch.classify(new: n.file.diagnostics, newPaths: paths,
                                                 old: o.file.diagnostics, oldSource: o.file.source)
            if let before = o.file.doc, let after = n.file.doc {
                var builder = ChangeBuilder(old: before, new: after, newTypes: newTypes, symbols: symbols)
                builder.compareAll()
                changes = builder.changes
                profiles = builder.profiles
                FindingMatch.attribute(findings, to: &changes, paths: paths)
            }
            let name = n.file.doc?.policy?.value
            // A side that could not be read is never "unchanged": nothing was compared.
            let compared = o.file.doc != nil && n.file.doc != nil
            var review = PolicyReview(
                policy: name ?? o.file.doc?.policy?.value, file: n.file.path, oldFile: o.file.path,
                status: changes.isEmpty && compared ? .unchanged : .changed,
                changes: changes, findings: findings)
            review.moved = o.matchKey != n.matchKey
            review.profiles = profiles
            review.fixed = FindingMatch.fixed(old: o.file, new: n.file)
            if !compared { review.notCompared = DiffReport.unreadable(old: o.file.doc == nil, new: n.file.doc == nil) }
            return review
        case (nil, nil):
            return PolicyReview(policy: nil, file: "", status: .unchanged, changes: [])
        }
    }

    /// `the new file could not be read as a policy (see its findings)`.
    static func unreadable(old: Bool, new: Bool) -> String {
        let which = old && new ? "neither file" : old ? "the old file" : "the new file"
        return "\(which) could \(old && new ? "" : "not ")be read as a policy (see the findings)"
    }
}

/// The names of generated code that a review speaks of, for the targets `generate` writes: Swift
/// and Kotlin as the words always had them, TypeScript's module and constants when it is written.
struct GeneratedSymbols: Sendable {
    var typeScript: Bool

    init(targets: [CodeTarget]) {
        typeScript = targets.contains(.typescript)
    }

    /// ` (TypeScript module PlaybackPolicy.ts)`, or nothing without TypeScript.
    func module(_ type: String) -> String {
        typeScript ? " (TypeScript module \(printable(type)).ts)" : ""
    }

    /// `PlaybackPolicy.interactive (Kotlin PlaybackPolicy.INTERACTIVE)`, with `, TypeScript
    /// INTERACTIVE of PlaybackPolicy.ts` inside the parentheses when TypeScript is written.
    func profile(_ type: String, _ name: String) -> String {
        "\(type).\(printable(Naming.swiftProfile(name))) (Kotlin \(type).\(printable(Naming.kotlinProfile(name)))"
            + (typeScript ? ", TypeScript \(printable(Naming.typeScriptProfile(name))) of \(type).ts" : "") + ")"
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
    static func reuseKey(_ v: Located<[Located<ReuseKeyPart>]>?) -> JSON {
        guard let v else { return .null }
        return .array(Set(v.value.map(\.value.rawValue)).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }.map(JSON.string))
    }

    /// Every value of a policy but its name and description, as `diff` compares them: two
    /// policies with equal values here have no change between them but those two.
    static func valuesBesideName(_ d: PolicyDoc) -> JSON {
        var profiles: [String: JSON] = [:]
        for p in d.profiles where profiles[p.name.value] == nil { profiles[p.name.value] = profile(p) }
        return .object([
            "version": int(d.version), "profiles": .object(profiles), "retryOn": retryOn(d.retryOn),
            "neverRetry": neverRetry(d.neverRetry), "backoff": string(d.backoff?.raw), "honor": bool(d.retryAfterHonor),
            "maxJitter": duration(d.retryAfterMaxJitter), "ratio": percent(d.budgetRatio),
            "minPerMinute": int(d.budgetMinPerMinute), "ahead": int(d.prefetchAhead),
            "onlyUnlocked": bool(d.prefetchOnlyUnlocked), "retryRefused": bool(d.prefetchRetryRefused),
            "reuseKey": reuseKey(d.reuseKey), "stopReuseBefore": duration(d.stopReuseBefore),
            "viewerRef": string(d.viewerRef?.raw),
        ])
    }

    static func profile(_ p: PolicyDoc.Profile?) -> JSON {
        guard let p else { return .null }
        return .object([
            "kind": string(p.kind?.raw), "maxRetries": int(p.maxRetries), "base": duration(p.base),
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

/// What a review lets pass that would fail it: `--allow-breaking`, `--allow-worse`,
/// `--allow-loosen`, `--allow-widen`.
public struct Allowances: Sendable, Equatable {
    public var breaking = false
    public var worse = false
    public var loosen = false
    public var widen = false

    public static let none = Allowances()

    public init(breaking: Bool = false, worse: Bool = false, loosen: Bool = false, widen: Bool = false) {
        self.breaking = breaking
        self.worse = worse
        self.loosen = loosen
        self.widen = widen
    }
}
