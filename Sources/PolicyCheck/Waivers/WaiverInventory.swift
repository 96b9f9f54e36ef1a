import PolicySource

/// `policyc waivers`: every waiver of the checked policies as a row, the soonest to expire first,
/// for a platform team that answers for them (and a scheduled job that fails once one has expired).
/// Pure: checked files in, rows out.
public enum WaiverInventory {
    /// One waiver as written; a field the waiver lacks (or that did not decode) is nil, and lint
    /// reports it.
    public struct Row: Sendable, Hashable {
        public var policy: String?
        public var file: String
        /// The line of the waiver's entry (its `- `).
        public var line: Int
        public var rule: String?
        public var at: String?
        public var allow: String?
        public var owner: String?
        public var reason: String?
        /// As written, `YYYY-MM-DD` when valid.
        public var expires: String?
        /// Days from today to the last day the waiver holds: 0 expires today, negative has
        /// expired; nil when `expires` is missing or not a date.
        public var daysLeft: Int?
        /// The policy that lists the waiver through `extends`, when `file` is one of its parents.
        public var inheritedBy: String? = nil

        public var hasExpired: Bool { (daysLeft ?? 0) < 0 }
    }

    /// The waivers of `files`, soonest to expire first (then by file and line; those without a
    /// valid expiry last). With `expiringWithin`, only those that expire within that many days
    /// of today, expired ones included.
    public static func rows(_ files: [CheckedFile], today: Day, expiringWithin: Int? = nil) -> [Row] {
        var rows: [Row] = []
        for file in files {
            guard let doc = file.doc, let waivers = doc.waivers?.value else { continue }
            for w in waivers {
                let days = w.expires.flatMap { Day($0.value) }.map { today.days(to: $0) }
                // A waiver a child inherits is where its parent wrote it (the child's tree numbers
                // the lines of its whole chain).
                let origin = file.inheritance?.locate(w.span) ?? (file: file.path, span: w.span)
                rows.append(Row(policy: doc.policy?.value, file: origin.file, line: origin.span.start.line,
                                rule: w.rule?.value, at: w.at?.value, allow: w.allow?.value,
                                owner: w.owner?.value, reason: w.reason?.value, expires: w.expires?.value, daysLeft: days,
                                inheritedBy: origin.file == file.path ? nil : file.path))
            }
        }
        if let within = expiringWithin {
            rows.removeAll { row in row.daysLeft.map { $0 > within } ?? true }
        }
        return rows.sorted(by: precedes)
    }

    static func precedes(_ a: Row, _ b: Row) -> Bool {
        switch (a.daysLeft, b.daysLeft) {
        case let (x?, y?) where x != y: return x < y
        case (.some, nil): return true
        case (nil, .some): return false
        default: break
        }
        if a.file != b.file { return utf8Precedes(a.file, b.file) }
        return a.line < b.line
    }

    /// Files whose waivers cannot be read (they are not YAML, or too large), each with why: the
    /// list would be silently short without them.
    public static func unreadable(_ files: [CheckedFile]) -> [(file: String, why: String)] {
        files.compactMap { file in
            guard file.doc == nil else { return nil }
            let first = file.diagnostics.first { $0.severity == .error }
            return (file.path, first.map { "line \($0.span.start.line), column \($0.span.start.column): \($0.message)" }
                ?? "it could not be read as a policy")
        }
    }

    /// `3 waivers in 2 files: 1 expired, 1 expiring within 14 days` (to stderr, beside the report;
    /// 14 is when lint starts to warn, `waiver-expiring`).
    public static func summary(_ rows: [Row], files: Int, expiringWithin: Int?) -> String {
        let expired = rows.count(where: \.hasExpired)
        let soon = rows.count { !$0.hasExpired && ($0.daysLeft ?? Int.max) <= WaiverPass.expiringDays }
        var parts: [String] = []
        if expired > 0 { parts.append("\(expired) expired") }
        if soon > 0, expiringWithin == nil { parts.append("\(soon) expiring within \(WaiverPass.expiringDays) days") }
        let what = expiringWithin.map { Wording.count(rows.count, "waiver") + " expiring within " + Wording.count($0, "day") }
            ?? Wording.count(rows.count, "waiver")
        return what + " in " + Wording.count(files, "file") + (parts.isEmpty ? "" : ": " + parts.joined(separator: ", "))
    }
}
