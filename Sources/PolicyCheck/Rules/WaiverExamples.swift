import PolicySource

extension Example {
    /// The canonical policy with `edits` and a `waivers:` section of `entries` (each the lines of
    /// one entry, without the `- `) at its end; checked on `CheckOptions.example`'s today, 2027-01-15.
    static func waiving(_ entries: [[String]], edits: [(String, String)] = [], triggers: Bool, note: String,
                                alsoFinds: [RuleID] = [], fixedEntries: [[String]]? = nil,
                                unsafeEdits: [(String, String)]? = nil) -> Example {
        func section(_ entries: [[String]]) -> String {
            guard !entries.isEmpty else { return "" }
            return "\nwaivers:\n" + entries.map { lines in
                "  - " + lines[0] + "\n" + lines.dropFirst().map { "    " + $0 + "\n" }.joined()
            }.joined()
        }
        let end = "  viewerRef: per-viewer-device\n"
        let fixed = fixedEntries.map { kept in
            edits.map { (old, new) in (old, new.filter { $0 != Example.marker }) }
                + [(end, end + (kept.isEmpty ? "" : section(kept.map { $0.map { String($0.filter { $0 != Example.marker }) } })))]
        }
        let unsafeFixed = unsafeEdits.map { $0 + [(end, end + section(entries.map { $0.map { String($0.filter { $0 != Example.marker }) } }))] }
        return .canonical(edits + [(end, end + section(entries))], triggers: triggers, note: note, alsoFinds: alsoFinds,
                          fixed: fixed, unsafeFixed: unsafeFixed)
    }

    /// A waiver entry of the examples: rule, reason, owner and expiry, and `at`/`allow` when given.
    static func waiver(_ rule: String, expires: String, at: String? = nil, allow: String? = nil) -> [String] {
        ["rule: \(rule)"] + (at.map { ["at: \($0)"] } ?? []) + (allow.map { ["allow: \($0)"] } ?? [])
            + ["reason: Payment confirmation needs a fourth try until PAY-311 ships", "owner: \"@payments-platform\"",
               "expires: \(expires)"]
    }
}
