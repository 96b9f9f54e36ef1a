import PolicySource
import PolicyCheck

/// The waiver inventory (`policyc waivers`) in each format: rows in, text out.
public enum WaiverReport {
    public enum Format: String, Sendable, CaseIterable {
        case text, json, csv, markdown
    }

    /// The columns of json, csv and markdown, in SPEC's order.
    public static let columns = ["policy", "file", "line", "rule", "at", "allow", "owner", "reason", "expires", "daysLeft"]

    public static func render(_ format: Format, _ rows: [WaiverInventory.Row]) -> String {
        switch format {
        case .text: return text(rows)
        case .json: return json(rows)
        case .csv: return csv(rows)
        case .markdown: return markdown(rows)
        }
    }

    // MARK: json

    /// `{"waivers": [{"policy", "file", "line", "rule", "at", "allow", "owner", "reason", "expires",
    /// "daysLeft"}]}`: `line` and `daysLeft` numbers, what a waiver lacks null.
    public static func json(_ rows: [WaiverInventory.Row]) -> String {
        JSON.object(["waivers": .array(rows.map { row in
            func text(_ value: String?) -> JSON { value.map(JSON.string) ?? .null }
            return .object([
                "policy": text(row.policy), "file": .string(row.file), "line": .int(row.line),
                "rule": text(row.rule), "at": text(row.at), "allow": text(row.allow), "owner": text(row.owner),
                "reason": text(row.reason), "expires": text(row.expires), "daysLeft": row.daysLeft.map(JSON.int) ?? .null,
            ])
        })]).rendered()
    }

    // MARK: csv

    /// RFC 4180: a header, CRLF after every record, fields quoted where needed; an empty field
    /// where a waiver lacks a value.
    public static func csv(_ rows: [WaiverInventory.Row]) -> String {
        var out = columns.joined(separator: ",") + "\r\n"
        for row in rows {
            // Numbers as they are: `-5` is no formula, and quoted it would read as text.
            let head: [String?] = [row.policy, row.file]
            let texts: [String?] = [row.rule, row.at, row.allow, row.owner, row.reason, row.expires]
            var fields: [String] = head.map { CSV.field($0 ?? "") }
            fields.append(String(row.line))
            fields += texts.map { CSV.field($0 ?? "") }
            fields.append(row.daysLeft.map { String($0) } ?? "")
            out += fields.joined(separator: ",") + "\r\n"
        }
        return out
    }

    // MARK: markdown

    /// A table for a pull request or a wiki, `|` escaped in every cell.
    public static func markdown(_ rows: [WaiverInventory.Row]) -> String {
        guard !rows.isEmpty else { return "No waivers.\n" }
        var out = "| expires | days left | policy | rule | at | allow | owner | reason | file |\n"
        out += "|---|---:|---|---|---|---|---|---|---|\n"
        for row in rows {
            let cells = [row.expires, row.daysLeft.map(String.init), row.policy, row.rule, row.at, row.allow,
                         row.owner, row.reason, "\(row.file):\(row.line)"]
            out += "| " + cells.map { $0.map(CatalogReport.cell) ?? "—" }.joined(separator: " | ") + " |\n"
        }
        return out
    }

    // MARK: text

    /// Per waiver, where it is written and when it ends, then what it accepts and why:
    ///
    ///     Policies/ios.yaml:44: interactive-retries-max expires on 2027-03-31, in 75 days (policy ios, owner @pay)
    ///       at retry.profiles.checkout.maxRetries, allow 4
    ///       reason: Payment confirmation needs a fourth try until PAY-311 ships
    public static func text(_ rows: [WaiverInventory.Row]) -> String {
        var out = ""
        for row in rows {
            var who: [String] = []
            if let policy = row.policy { who.append("policy " + printable(policy)) }
            if let owner = row.owner { who.append("owner " + printable(owner)) }
            if let child = row.inheritedBy { who.append("inherited by " + printable(child)) }
            out += "\(printable(row.file)):\(row.line): \(row.rule.map(printable) ?? "(no rule)") \(ending(row))"
                + (who.isEmpty ? "" : " (" + who.joined(separator: ", ") + ")") + "\n"
            var scope: [String] = []
            if let at = row.at { scope.append("at " + printable(at)) }
            if let allow = row.allow { scope.append("allow " + printable(allow)) }
            if !scope.isEmpty { out += "  " + scope.joined(separator: ", ") + "\n" }
            if let reason = row.reason { out += "  reason: " + printable(reason) + "\n" }
        }
        return out
    }

    /// `expires on 2027-03-31, in 75 days`, `expires today, 2027-01-15`, `expired on 2027-01-10, 5 days ago`.
    static func ending(_ row: WaiverInventory.Row) -> String {
        guard let expires = row.expires else { return "has no expiry" }
        guard let days = row.daysLeft else { return "has no valid expiry ('\(excerpt(expires))')" }
        if days < 0 { return "expired on \(expires), \(Wording.count(-days, "day")) ago" }
        if days == 0 { return "expires today, \(expires)" }
        return "expires on \(expires), in \(Wording.count(days, "day"))"
    }
}
