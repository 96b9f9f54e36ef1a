import PolicySource
import PolicyCheck
import PolicyReport
import PolicySimulation

/// Where findings stand in the language's terms: the key path of the key or value a finding points
/// at (`retry.budget.ratio`, `retry.profiles.fast.timeout`), spelled as `diff` names its changes.
/// Read from the YAML tree again, since a value that did not decode has no place in `PolicyDoc`;
/// only files with findings are read (their bytes are kept for the reporters anyway).
struct KeyPaths {
    private let root: Node?
    /// Every key path of the file (lists are leaves: their items share the list's path), when
    /// asked for: only `nearestExisting` needs them.
    private let known: Set<String>

    init(source: [UInt8], indexingKeys: Bool = true) {
        root = source.isEmpty ? nil : Loader.load(source).root
        var known: Set<String> = []
        func walk(_ node: Node, _ path: String) {
            guard case .mapping(let entries) = node.kind else { return }
            for i in entries.indices {
                let p = KeyPaths.join(path, entries[i].key)
                known.insert(p)
                walk(entries[i].value, p)
            }
        }
        if indexingKeys, let root { walk(root, "") }
        self.known = known
    }

    static func join(_ path: String, _ key: String) -> String { path.isEmpty ? key : path + "." + key }

    /// The path of the deepest key or value that holds `mark`: `""` for the document outside any
    /// key, nil when the file has no tree (it did not parse).
    func path(at mark: Mark) -> String? {
        guard var node = root else { return nil }
        var path = ""
        while case .mapping(let entries) = node.kind {
            // Entries are in document order: the last key that starts at or before the mark.
            var lo = 0, hi = entries.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if entries[mid].keySpan.start <= mark { lo = mid + 1 } else { hi = mid }
            }
            guard lo > 0 else { return path }
            let entry = entries[lo - 1]
            let p = KeyPaths.join(path, entry.key)
            if KeyPaths.contains(entry.keySpan, mark) { return p }
            guard KeyPaths.contains(entry.value.span, mark) else { return path }
            path = p
            node = entry.value
        }
        return path
    }

    /// The longest prefix of `path` (cut at dots) that the file has; `""` for the document.
    func nearestExisting(_ path: String) -> String {
        var p = Substring(path)
        while !p.isEmpty {
            if known.contains(String(p)) { return String(p) }
            guard let dot = p.lastIndex(of: ".") else { return "" }
            p = p[..<dot]
        }
        return ""
    }

    /// A zero-width span (a finding at a point) holds its start.
    static func contains(_ span: Span, _ mark: Mark) -> Bool {
        span.start <= mark && (mark < span.end || mark == span.start)
    }
}

/// Which new findings a change brings, and which findings were there before it.
enum FindingMatch {
    /// Sibling keys that rules read besides the value they point at: `backoff-order` points at
    /// `base` but fires because of `cap` as well, so changing either brings the finding.
    static let alsoReads: [RuleID: [String]] = [
        RuleID.backoffOrder: ["cap"],
        RuleID.timeoutWithinDeadline: ["deadline"],
        RuleID.interactiveRetriesMax: ["kind"],
        RuleID.interactiveDeadline: ["kind"],
        RuleID.notReadyNeverRetried: ["neverRetry"],
    ]

    /// The new side's findings, each new or already there. Already there: the old side has the
    /// same rule at the same key path (its value may differ — a ratio of 20% → 30% still breaks
    /// the same limit); first those with the same message, so that of two statuses listed at one
    /// path the one that was there before is the one matched. A finding without a key path (the
    /// YAML itself did not parse) matches by rule and message. Messages are compared without the
    /// line and column numbers some quote, which move with any edit above them.
    static func classify(new: [Diagnostic], newPaths: KeyPaths, old: [Diagnostic], oldSource: [UInt8]) -> [ReviewFinding] {
        guard !new.isEmpty else { return [] }
        let oldPaths = old.isEmpty ? nil : KeyPaths(source: oldSource, indexingKeys: false)
        struct Exact: Hashable { var rule: RuleID, path: String?, message: String }
        struct RuleAtPath: Hashable { var rule: RuleID, path: String }
        var exact: [Exact: Int] = [:], atPath: [RuleAtPath: Int] = [:]
        for d in old {
            let path = oldPaths?.path(at: d.span.start)
            exact[Exact(rule: d.rule, path: path, message: withoutPositions(d.message)), default: 0] += 1
            if let path { atPath[RuleAtPath(rule: d.rule, path: path), default: 0] += 1 }
        }
        var findings = new.map { d in ReviewFinding(diagnostic: d, isNew: true, path: newPaths.path(at: d.span.start)) }
        // Exact matches first, so that a looser match cannot take an old finding an exact one needs.
        for i in findings.indices {
            let key = Exact(rule: findings[i].diagnostic.rule, path: findings[i].path,
                            message: withoutPositions(findings[i].diagnostic.message))
            guard let n = exact[key], n > 0 else { continue }
            exact[key] = n - 1
            if let path = key.path { atPath[RuleAtPath(rule: key.rule, path: path), default: 0] -= 1 }
            findings[i].isNew = false
        }
        for i in findings.indices where findings[i].isNew {
            guard let path = findings[i].path else { continue }
            let key = RuleAtPath(rule: findings[i].diagnostic.rule, path: path)
            guard let n = atPath[key], n > 0 else { continue }
            atPath[key] = n - 1
            findings[i].isNew = false
        }
        return findings
    }

    /// The old side's errors and warnings that no finding of the new side matches (as `classify`
    /// matches them, the sides swapped): what the change fixes. The old side's notes (waived or
    /// baselined findings) are not counted, since they failed nothing.
    static func fixed(old: CheckedFile, new: CheckedFile) -> [Diagnostic] {
        let counted = old.diagnostics.filter { $0.severity != .note }
        guard !counted.isEmpty else { return [] }
        // A finding the new side waives or holds in its baseline is still there, not fixed.
        let gone = classify(new: counted, newPaths: KeyPaths(source: old.source), old: new.diagnostics, oldSource: new.source)
        return gone.filter(\.isNew).map(\.diagnostic)
    }

    /// `the first is at line 3, column 5` → `the first is at line #, column #`. By hand on the
    /// bytes: a Regex literal linked the whole regex engine (~900 KB) into the one-file binary.
    static func withoutPositions(_ message: String) -> String {
        let b = Array(message.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(b.count)
        var i = 0
        func isDigit(_ k: Int) -> Bool { k < b.count && b[k] >= 0x30 && b[k] <= 0x39 }
        func word(_ w: String, at k: Int) -> Bool {
            let u = Array(w.utf8)
            return k + u.count + 1 < b.count && Array(b[k..<k + u.count]) == u && b[k + u.count] == 0x20 && isDigit(k + u.count + 1)
        }
        while i < b.count {
            if let w = ["line", "column"].first(where: { word($0, at: i) }) {
                out += Array(w.utf8) + Array(" #".utf8)
                i += w.utf8.count + 1
                while isDigit(i) { i += 1 }
            } else {
                out.append(b[i])
                i += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Gives each change the new side's findings it brings or leaves in place: findings at its
    /// value or inside it (a new profile), findings of a rule that also reads it, and for a value
    /// the new side lacks, the missing or unknown key where it should be. Indexed from the
    /// findings' side, so that a file of many profiles costs changes + findings, not their product.
    static func attribute(_ findings: [ReviewFinding], to changes: inout [PolicyChange], paths: KeyPaths) {
        guard !findings.isEmpty, !changes.isEmpty else { return }
        var related: [String: [Int]] = [:]       // a change's path → the findings that concern it
        var missingAt: [String: [Int]] = [:]     // missing-key findings by the mapping they point at
        var unknownIn: [String: [Int]] = [:]     // unknown-key findings by their mapping
        for (i, f) in findings.enumerated() {
            guard let at = f.path else { continue }
            var targets: Set<String> = [at]
            var p = Substring(at)
            while let dot = p.lastIndex(of: ".") {   // the paths that hold it
                p = p[..<dot]
                targets.insert(String(p))
            }
            for key in alsoReads[f.diagnostic.rule] ?? [] { targets.insert(sibling(at, key)) }
            for t in targets { related[t, default: []].append(i) }
            switch f.diagnostic.rule {
            case RuleID.missingKey: missingAt[at, default: []].append(i)
            case RuleID.unknownKey: unknownIn[parent(at), default: []].append(i)
            default: break
            }
        }
        for c in changes.indices {
            var hits = related[changes[c].path] ?? []
            if changes[c].missingValue {
                let nearest = paths.nearestExisting(changes[c].path)
                hits += (missingAt[nearest] ?? []) + (unknownIn[nearest] ?? [])
            }
            changes[c].findings = Set(hits).sorted().map { findings[$0] }
        }
    }

    static func parent(_ path: String) -> String {
        path.lastIndex(of: ".").map { String(path[..<$0]) } ?? ""
    }

    static func sibling(_ path: String, _ key: String) -> String {
        KeyPaths.join(parent(path), key)
    }
}

/// A finding of the new side in a review.
public struct ReviewFinding: Sendable, Hashable {
    public var diagnostic: Diagnostic
    /// Not on the old side: the change brings it. (False: it was already there.)
    public var isNew: Bool
    /// The key path it points at, nil when the file did not parse.
    var path: String?

    /// The diagnostic's JSON object with `"new"`.
    public var json: JSON {
        guard case .object(var members) = diagnostic.json else { return diagnostic.json }
        members["new"] = .bool(isNew)
        return .object(members)
    }
}
