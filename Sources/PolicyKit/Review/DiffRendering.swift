/// The review for people: plain text for a terminal, markdown for a pull-request comment.
extension DiffReport {
    public var breakingCount: Int { policies.reduce(0) { $0 + $1.changes.count(where: \.breaking) } }

    /// The one-line verdict: passes or fails, and why.
    public func verdict(allowBreaking: Bool) -> (passes: Bool, text: String) {
        var reasons: [String] = []
        if errors > 0 { reasons.append("\(Spoken.count(errors, "error")) in the new policies") }
        if breaking {
            reasons.append(allowBreaking
                ? "\(Spoken.count(breakingCount, "breaking change")) (allowed)"
                : "\(Spoken.count(breakingCount, "breaking change")) removing generated code that apps use (--allow-breaking accepts it)")
        }
        let passes = exitCode(allowBreaking: allowBreaking) == 0
        let changed = policies.filter { $0.status != .unchanged }.count
        var scope = changeCount == 0
            ? "no change in \(Spoken.count(policies.count, "policy", "policies"))"
            : "\(Spoken.count(changeCount, "change")) in \(Spoken.count(changed, "policy", "policies"))"
        if warnings > 0 { scope += ", \(Spoken.count(warnings, "warning"))" }
        if passes {
            let note = reasons.isEmpty ? "nothing breaks, no errors" : reasons.joined(separator: ", ")
            return (true, "passes: \(scope); \(note)")
        }
        return (false, "fails: " + reasons.joined(separator: ", ") + "; \(scope)")
    }

    /// Policies worth a section: changed, added, removed, or with findings.
    var notable: [PolicyReview] { policies.filter { $0.status != .unchanged || !$0.diagnostics.isEmpty } }
    var quiet: [PolicyReview] { policies.filter { $0.status == .unchanged && $0.diagnostics.isEmpty } }

    static func title(_ p: PolicyReview) -> String { p.policy.map(printable) ?? "(no policy name)" }

    public func text(allowBreaking: Bool) -> String {
        var out = "policyc diff \(verdict(allowBreaking: allowBreaking).text)\n"
        for p in notable {
            out += "\n\(DiffReport.title(p)) (\(printable(p.file))): \(p.status.rawValue)\n"
            for c in p.changes {
                out += "  \(printable(c.path)): \(c.beforeText) → \(c.afterText)\(c.breaking ? "  [breaking]" : "")\n"
                out += "      \(c.effect)\n"
            }
            out += OutageReview.text(p.outage)   // simulate (issue 14)
            if !p.diagnostics.isEmpty {
                out += "  findings:\n"
                for d in p.diagnostics { out += "    \(d.headline)\n" }
            }
        }
        if !quiet.isEmpty {
            out += "\nunchanged: " + quiet.map(DiffReport.title).joined(separator: ", ") + "\n"
        }
        return out
    }

    /// What a bot posts: the verdict first, one section per policy with its table of changes and
    /// its findings. Every piece of policy text is escaped (`Spoken.markdown`), so none can break
    /// the table or add markup.
    public func markdown(allowBreaking: Bool) -> String {
        let v = verdict(allowBreaking: allowBreaking)
        var out = (v.passes ? "✅" : "❌") + " **policyc diff \(v.passes ? "passes" : "fails")**"
            + Spoken.markdown(String(v.text.drop(while: { $0 != ":" }))) + "\n"
        for p in notable {
            out += "\n### \(p.policy.map(Spoken.code) ?? "(no policy name)") — \(p.status.rawValue)\n\n"
            out += "File: \(Spoken.code(p.file))\n"
            if !p.changes.isEmpty {
                out += "\n| Change | Before → After | Effect | Breaking |\n|---|---|---|---|\n"
                for c in p.changes {
                    out += "| \(Spoken.code(c.path)) | \(Spoken.markdown(c.beforeText)) → \(Spoken.markdown(c.afterText)) | "
                        + "\(Spoken.markdown(c.effect)) | \(c.breaking ? "**breaking**" : "no") |\n"
                }
            }
            out += OutageReview.markdown(p.outage)   // simulate (issue 14)
            if !p.diagnostics.isEmpty {
                out += "\nFindings:\n\n"
                for d in p.diagnostics {
                    out += "- \(d.severity == .error ? "❌" : "⚠️") \(d.severity.rawValue) at "
                        + "\(Spoken.code("\(d.file):\(d.line):\(d.column)")): \(Spoken.markdown(d.message)) "
                        + "(\(Spoken.code(d.rule)))"
                    if let help = d.help { out += " — \(Spoken.markdown(help))" }
                    out += "\n"
                }
            }
        }
        if !quiet.isEmpty {
            out += "\nUnchanged: " + quiet.map { $0.policy.map(Spoken.code) ?? Spoken.code($0.file) }.joined(separator: ", ") + "\n"
        }
        return out
    }
}
