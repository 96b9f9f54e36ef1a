import PolicySource
import PolicyCheck
import PolicyReport

/// A waiver added, removed or changed between the sides of a review: what a platform
/// team reads first, since each one is an exception to the guide with an owner and an end.
public struct WaiverChange: Sendable, Hashable {
    public enum Kind: String, Sendable {
        case added, removed, changed
    }

    /// A waiver's fields as written (nil: absent or unreadable).
    public struct Entry: Sendable, Hashable {
        public var rule: String?
        public var at: String?
        public var allow: String?
        public var reason: String?
        public var owner: String?
        public var expires: String?
        /// 1-based line of the entry in its file.
        public var line: Int

        init(_ w: PolicyDoc.Waiver) {
            rule = w.rule?.value
            at = w.at?.value
            allow = w.allow?.value
            reason = w.reason?.value
            owner = w.owner?.value
            expires = w.expires?.value
            line = w.span.start.line
        }

        var json: JSON {
            func s(_ x: String?) -> JSON { x.map(JSON.string) ?? .null }
            // A count or a number of percent as a number; a duration as written (`5s`).
            let allow: JSON = self.allow.map { text in Int(text).map(JSON.int) ?? Double(text).map(JSON.double) ?? .string(text) } ?? .null
            return .object(["rule": s(rule), "at": s(at), "allow": allow, "reason": s(reason), "owner": s(owner),
                            "expires": s(expires), "line": .int(line)])
        }
    }

    public var kind: Kind
    public var policy: String
    public var file: String
    /// The entry on each side: `before` nil when added, `after` nil when removed.
    public var before: Entry?
    public var after: Entry?

    /// The side that exists now, else the one that did.
    public var entry: Entry { after ?? before! }

    /// "expires 2027-03-31 → 2027-05-31 (61 days later)", "allow 4 → 5", "owner …",
    /// "reason 'A' → 'B'".
    public var what: [String] {
        guard let b = before, let a = after else { return [] }
        var out: [String] = []
        if b.expires != a.expires {
            var line = "expires \(Self.text(b.expires)) → \(Self.text(a.expires))"
            if let x = b.expires.flatMap(Day.init), let y = a.expires.flatMap(Day.init), x != y {
                let days = abs(y.daysSinceEpoch - x.daysSinceEpoch)
                line += " (\(Wording.count(days, "day")) \(y > x ? "later: extended" : "earlier"))"
            }
            out.append(line)
        }
        if b.allow != a.allow {
            var line = "allow \(Self.text(b.allow)) → \(Self.text(a.allow))"
            if let x = b.allow.flatMap(Double.init), let y = a.allow.flatMap(Double.init), x != y {
                line += y > x ? " (raised)" : " (lowered)"
            } else if b.allow != nil, a.allow == nil {
                line += " (any value now waived)"
            }
            out.append(line)
        }
        if b.at != a.at { out.append("at \(Self.text(b.at)) → \(Self.text(a.at))") }
        if b.owner != a.owner { out.append("owner \(Self.text(b.owner)) → \(Self.text(a.owner))") }
        if b.reason != a.reason { out.append("reason '\(Self.text(b.reason))' → '\(Self.text(a.reason))'") }
        return out
    }

    static func text(_ x: String?) -> String { x.map(printable) ?? "(none)" }

    /// The waiver covers more than before: it lost its `at` (now every key of its rule), its
    /// `allow` was lost or moved the lenient way, or it expires later.
    public var widens: Bool { !widenings.isEmpty }

    /// "at removed: now waives every finding of the rule", ….
    public var widenings: [String] {
        guard kind == .changed, let b = before, let a = after else { return [] }
        var out: [String] = []
        if b.at != nil, a.at == nil { out.append("no 'at' any more: every finding of \(Self.text(a.rule)) is waived") }
        if b.allow != nil, a.allow == nil {
            out.append("no 'allow' any more: any value is waived")
        } else if let x = b.allow.flatMap(Self.magnitude), let y = a.allow.flatMap(Self.magnitude), x != y {
            let atLeast = LimitKey.allCases.first { $0.rule.rawValue == (a.rule ?? "") }?.isMinimum ?? false
            if atLeast ? y < x : y > x { out.append("allow \(Self.text(b.allow)) → \(Self.text(a.allow)): a laxer value is waived") }
        }
        if let x = b.expires.flatMap(Day.init), let y = a.expires.flatMap(Day.init), y > x {
            out.append("expires \(Self.text(b.expires)) → \(Self.text(a.expires)): later")
        } else if b.expires != nil, a.expires == nil {
            out.append("no 'expires' any more")
        }
        return out
    }

    /// An allow's number, whatever its unit: `4`, `5s` (ms), `20%`.
    static func magnitude(_ text: String) -> Double? {
        if let n = Double(text) { return n }
        if case .value(let ms) = Values.duration(text, explain: false) { return Double(ms) }
        if case .value(let p) = Values.percent(text, explain: false) { return p.percent }
        return nil
    }

    /// "interactive-retries-max at retry.profiles.interactive.maxRetries, allow 4" (a change says
    /// its allow in `what`).
    public var subject: String {
        let e = entry
        let allow = kind == .changed ? nil : e.allow.map { ", allow \(printable($0))" }
        return Self.text(e.rule) + (e.at.map { " at \(printable($0))" } ?? "") + (allow ?? "")
    }

    /// "owner @payments-platform, expires 2027-03-31".
    public var ownership: String {
        "owner \(Self.text(entry.owner)), expires \(Self.text(entry.expires))"
    }

    public var json: JSON {
        var members: [String: JSON] = ["change": .string(kind.rawValue), "policy": .string(policy), "file": .string(file)]
        if let before { members["before"] = before.json }
        if let after { members["after"] = after.json }
        if kind == .changed {
            members["what"] = .array(what.map(JSON.string))
            members["widened"] = .bool(widens)
        }
        return .object(members)
    }

    /// The waivers of one policy on both sides, compared: entries pair by rule and key path (in
    /// the order written when several share both); an entry whose fields all stay is not listed.
    public static func compare(policy: String, file: String, old: [PolicyDoc.Waiver], new: [PolicyDoc.Waiver]) -> [WaiverChange] {
        struct Key: Hashable { var rule: String?; var at: String? }
        var olds: [Key: [Entry]] = [:]
        var order: [Key] = []
        for w in old {
            let key = Key(rule: w.rule?.value, at: w.at?.value)
            if olds[key] == nil { order.append(key) }
            olds[key, default: []].append(Entry(w))
        }
        var out: [WaiverChange] = []
        for w in new {
            let e = Entry(w), key = Key(rule: e.rule, at: e.at)
            if var list = olds[key], !list.isEmpty {
                let b = list.removeFirst()
                olds[key] = list
                var same = b
                same.line = e.line
                if same != e { out.append(WaiverChange(kind: .changed, policy: policy, file: file, before: b, after: e)) }
            } else {
                out.append(WaiverChange(kind: .added, policy: policy, file: file, before: nil, after: e))
            }
        }
        // An added and a removed entry of the same rule are one entry changed (its `at` edited
        // or deleted), so that a widened waiver cannot pass as a new one.
        var removed: [Entry] = order.flatMap { olds[$0] ?? [] }
        for i in out.indices where out[i].kind == .added {
            guard let j = removed.firstIndex(where: { $0.rule == out[i].after?.rule }) else { continue }
            out[i] = WaiverChange(kind: .changed, policy: policy, file: file, before: removed.remove(at: j), after: out[i].after)
        }
        for b in removed { out.append(WaiverChange(kind: .removed, policy: policy, file: file, before: b, after: nil)) }
        return out
    }
}

extension DiffReport {
    /// Every policy's waiver changes, policies in the report's order.
    public static func waiverChanges(_ pairs: [(old: ReviewInput?, new: ReviewInput?)]) -> [WaiverChange] {
        var out: [WaiverChange] = []
        for pair in pairs {
            guard let side = pair.new ?? pair.old, let name = side.file.doc?.policy?.value else { continue }
            out += WaiverChange.compare(policy: name, file: side.file.path,
                                        old: pair.old?.file.doc?.waivers?.value ?? [],
                                        new: pair.new?.file.doc?.waivers?.value ?? [])
        }
        return out
    }

    /// The text section, at the top: one line per waiver change.
    var waiverText: String {
        guard !waivers.isEmpty else { return "" }
        var out = "\nwaivers: \(Self.waiverCounts(waivers))\n"
        for w in waivers {
            let place = "\(printable(w.file)):\(w.entry.line)"
            switch w.kind {
            case .added, .removed:
                out += "  \(w.kind.rawValue) in \(printable(w.policy)): \(w.subject); \(w.ownership) (\(place))\n"
            case .changed:
                out += "  changed in \(printable(w.policy)): \(w.subject): \(w.what.joined(separator: "; ")); \(w.ownership) (\(place))\n"
            }
            if w.kind != .removed, let reason = w.entry.reason { out += "      reason: \(printable(reason))\n" }
        }
        return out
    }

    /// The markdown section, at the top: a table a platform team reads first.
    var waiverMarkdown: String {
        guard !waivers.isEmpty else { return "" }
        var out = "\n### Waivers: \(Self.waiverCounts(waivers))\n\n"
        out += "| Change | Policy | Rule | What | Owner | Expires | Reason |\n|---|---|---|---|---|---|---|\n"
        for w in waivers {
            let e = w.entry
            let rule = Wording.code(e.rule ?? "(none)") + (e.at.map { " at " + Wording.code($0) } ?? "")
            let what = w.kind == .changed ? w.what.map(Wording.markdown).joined(separator: "<br>")
                : e.allow.map { "allow " + Wording.markdown($0) } ?? "any value"
            out += "| \(w.kind.rawValue) | \(Wording.code(w.policy)) | \(rule) | \(what) | \(Wording.markdown(e.owner ?? "(none)")) | "
                + "\(Wording.markdown(e.expires ?? "(none)")) | \(Wording.markdown(e.reason ?? "(none)")) |\n"
        }
        return out
    }

    /// "1 added, 1 changed".
    static func waiverCounts(_ w: [WaiverChange]) -> String {
        [WaiverChange.Kind.added, .changed, .removed].compactMap { k in
            let n = w.count { $0.kind == k }
            return n > 0 ? "\(n) \(k.rawValue)" : nil
        }.joined(separator: ", ")
    }
}
