import PolicySource
import PolicyCheck
import PolicyReport
import PolicySimulation

/// The review for people: plain text for a terminal, markdown for a pull-request comment.
extension DiffReport {
    public var breakingCount: Int { policies.reduce(0) { $0 + $1.changes.count(where: \.breaking) } }

    /// Why the review fails (or what it allowed), one phrase each.
    public func reasons(_ allow: Allowances = .none) -> [String] {
        var reasons: [String] = []
        if errors > 0 {
            let old = errors - newErrors
            let split = [newErrors > 0 ? "\(newErrors) new" : nil, old > 0 ? "\(old) already there" : nil]
            reasons.append("\(Wording.count(errors, "error")) in the new policies (\(split.compactMap { $0 }.joined(separator: ", ")))")
        }
        if breaking {
            reasons.append(allow.breaking
                ? "\(Wording.count(breakingCount, "breaking change")) (allowed)"
                : "\(Wording.count(breakingCount, "breaking change")) removing generated code that apps use (--allow-breaking accepts it)")
        }
        if let worse = WorseReview.verdict(scenarioVerdict?.worse ?? []) {
            reasons.append(worse + (allow.worse ? " (allowed)" : " (--allow-worse accepts it)"))
        }
        if loosened {
            let n = projectFile.count(where: \.loosened)
            reasons.append("the project file judges less strictly (\(Wording.count(n, "limit or threshold", "limits or thresholds")) loosened)"
                + (allow.loosen ? " (allowed)" : " (--allow-loosen accepts it)"))
        }
        if widened {
            let n = waivers.count(where: \.widens)
            reasons.append("\(Wording.count(n, "waiver")) widened" + (allow.widen ? " (allowed)" : " (--allow-widen accepts it)"))
        }
        return reasons
    }

    /// The one-line verdict: passes or fails, and why.
    public func verdict(_ allow: Allowances = .none) -> (passes: Bool, text: String) {
        let reasons = reasons(allow)
        let passes = exitCode(allow) == 0
        // A policy whose file could not be read was not compared: it is neither changed nor not.
        let notCompared = policies.count { $0.notCompared != nil }
        let changed = policies.filter { $0.status != .unchanged && ($0.notCompared == nil || !$0.changes.isEmpty) }.count
        var scope = changeCount == 0
            ? "no change in \(Wording.count(policies.count - notCompared, "policy", "policies"))"
            : "\(Wording.count(changeCount, "change")) in \(Wording.count(changed, "policy", "policies"))"
        if notCompared > 0 {
            let words = "\(Wording.count(notCompared, "policy", "policies")) not compared: "
                + (notCompared == 1 ? "a file could not be read" : "files could not be read")
            scope = changeCount == 0 && policies.count == notCompared ? words : scope + ", " + words
        }
        let moved = policies.count(where: \.moved)
        if moved > 0 { scope += ", \(Wording.count(moved, "file")) moved" }
        if !waivers.isEmpty { scope += ", waivers: \(DiffReport.waiverCounts(waivers))" }
        if warnings > 0 { scope += ", \(Wording.count(warnings, "warning"))" }
        if !fixed.isEmpty { scope += ", fixes \(Wording.count(fixed.count, "finding"))" }
        if passes {
            let note = reasons.isEmpty ? "nothing breaks, no errors" : reasons.joined(separator: ", ")
            return (true, "passes: \(scope); \(note)")
        }
        return (false, "fails: " + reasons.joined(separator: ", ") + "; \(scope)")
    }

    /// Policies worth a section: changed, added, removed, moved, or with findings.
    var notable: [PolicyReview] { policies.filter { $0.status != .unchanged || $0.moved || !$0.diagnostics.isEmpty } }
    var quiet: [PolicyReview] { policies.filter { $0.status == .unchanged && !$0.moved && $0.diagnostics.isEmpty } }

    static func title(_ p: PolicyReview) -> String { p.policy.map(printable) ?? "(no policy name)" }

    /// `Policies/a.yaml`, or `Policies/a.yaml → Policies/b.yaml, moved`.
    static func files(_ p: PolicyReview) -> String {
        guard p.moved, let old = p.oldFile else { return printable(p.file) }
        return "\(printable(old)) → \(printable(p.file)), moved"
    }

    /// What a change does to the check, in short: `breaking`, `fails: timeout-min`, ...
    static func tags(_ c: PolicyChange) -> [String] {
        var out: [String] = []
        if c.breaking { out.append("breaking") }
        let errors = c.findings.filter { $0.diagnostic.severity == .error }
        let new = errors.filter(\.isNew).map(\.diagnostic.rule), old = errors.filter { !$0.isNew }.map(\.diagnostic.rule)
        if !new.isEmpty { out.append("fails: " + new.map(\.rawValue).joined(separator: ", ")) }
        if !old.isEmpty { out.append("still fails: " + old.map(\.rawValue).joined(separator: ", ")) }
        if c.missingValue && errors.isEmpty { out.append("fails: no valid value") }
        for f in c.findings { if let held = ReviewSections.heldWords(f.diagnostic) { out.append(held) } }
        let warnings = c.findings.filter { $0.diagnostic.severity == .warning }.map(\.diagnostic.rule)
        if !warnings.isEmpty { out.append("warning: " + warnings.map(\.rawValue).joined(separator: ", ")) }
        return out
    }

    public func text(_ allow: Allowances = .none) -> String {
        var out = base.map { $0.line + "\n" } ?? ""
        out += "policyc diff \(verdict(allow).text)\n"
        out += projectFileText
        out += waiverText
        for p in notable {
            out += "\n\(DiffReport.title(p)) (\(DiffReport.files(p))): \(p.status.rawValue)\n"
            if let why = p.notCompared { out += "  not compared: \(why)\n" }
            for c in p.changes {
                let tags = DiffReport.tags(c)
                out += "  \(printable(c.path)): \(c.beforeText) → \(c.afterText)"
                    + (tags.isEmpty ? "" : "  [\(tags.joined(separator: "; "))]") + "\n"
                out += "      \(c.effect)\n"
            }
            for profile in p.profiles {
                for line in profile.lines { out += "  \(printable(profile.name)) — \(line)\n" }
            }
            out += OutageReview.text(p.outage)
            out += scenarioText(p.scenarioChanges)
            out += ReviewSections.fixedText(p.fixed)
            for (title, findings) in [("new findings", p.newFindings), ("findings already there", p.oldFindings)]
            where !findings.isEmpty {
                out += "  \(title):\n"
                for f in findings { out += "    \(f.diagnostic.headline)\n" }
            }
        }
        if !quiet.isEmpty {
            out += "\nunchanged: " + quiet.map(DiffReport.title).joined(separator: ", ") + "\n"
        }
        return out
    }

    /// The Verdict cell of a change: what it does to the check, with each finding's message.
    static func verdictCell(_ c: PolicyChange) -> String {
        var parts: [String] = []
        if c.breaking { parts.append("**breaking**") }
        let errors = c.findings.filter { $0.diagnostic.severity == .error }
        for f in errors where f.isNew { parts.append("❌ **fails**: " + ReviewMarkdown.message(f.diagnostic)) }
        for f in errors where !f.isNew { parts.append("❌ **still fails** (already there): " + ReviewMarkdown.message(f.diagnostic)) }
        if c.missingValue && errors.isEmpty { parts.append("❌ **fails**: no valid value (see the findings)") }
        for f in c.findings where f.diagnostic.severity == .warning {
            parts.append("⚠️ warning: " + ReviewMarkdown.message(f.diagnostic))
        }
        for f in c.findings { if let held = ReviewSections.heldMarkdown(f.diagnostic) { parts.append(held) } }
        // A line break inside a table cell, as GitHub renders it.
        return parts.isEmpty ? "ok" : parts.joined(separator: "<br>")
    }

    /// What a bot posts: the verdict first, a summary table, then a `<details>` block per policy
    /// (or per set of policies with the same changes) with its table of changes and its findings;
    /// at most `limit` characters (see `comment`). Every piece of policy text is escaped
    /// (`Wording.markdown`), so none can break the table, add markup or notify anyone.
    public func markdown(_ allow: Allowances = .none, limit: Int = DiffReport.commentLimit,
                         command: String = "policyc diff --format text") -> String {
        let v = verdict(allow)
        var head = (v.passes ? "✅" : "❌") + " **policyc diff \(v.passes ? "passes" : "fails")**"
            + Wording.markdown(String(v.text.drop(while: { $0 != ":" }))) + "\n"
        if let base { head += "\n" + Wording.markdown(base.line) + "\n" }
        return comment(head: head, limit: limit, command: command)
    }
}

extension DiffReport {
    /// The figures of the built-in scenarios that moved past the thresholds, worse then better.
    func scenarioText(_ changes: [FigureChange]) -> String {
        guard let v = scenarioVerdict, !changes.isEmpty else { return "" }
        var out = ""
        for (title, list) in [("worse in an outage", changes.filter { $0.worse && !$0.withinGuide }),
                              ("worse than before, within the guide's own policy", changes.filter(\.withinGuide)),
                              ("better in an outage", changes.filter { !$0.worse })]
        where !list.isEmpty {
            out += "  \(title)" + (out.isEmpty ? " (\(WorseReview.source(v.thresholds)))" : "") + ":\n"
            for c in list { out += "    \(c.line)\n" }
        }
        return out
    }

    func scenarioMarkdown(_ changes: [FigureChange]) -> String {
        guard let v = scenarioVerdict, !changes.isEmpty else { return "" }
        var out = ""
        for (title, list) in [("❌ **Worse in an outage**", changes.filter { $0.worse && !$0.withinGuide }),
                              ("Worse than before, within the guide's own policy", changes.filter(\.withinGuide)),
                              ("✅ Better in an outage", changes.filter { !$0.worse })]
        where !list.isEmpty {
            out += "\n\(title)" + (out.isEmpty ? " (\(Wording.markdown(WorseReview.source(v.thresholds))))" : "") + ":\n\n"
            for c in list { out += "- \(Wording.markdown(c.line))\n" }
        }
        return out
    }
}

/// Findings as `diff` and `explain` show them in markdown.
enum ReviewMarkdown {
    /// `interactive profile … at most 3 are allowed (`interactive-retries-max`)`.
    static func message(_ d: Diagnostic) -> String {
        "\(Wording.markdown(d.message)) (\(Wording.code(d.rule.rawValue)))"
    }

    /// One list item: severity, position, message, rule and help.
    static func item(_ d: Diagnostic) -> String {
        var out = "- \(d.severity == .error ? "❌" : d.severity == .warning ? "⚠️" : "ℹ️") \(d.severity.rawValue) at "
            + "\(Wording.code("\(d.file):\(d.line):\(d.column)")): \(message(d))"
        if let help = d.help { out += " — \(Wording.markdown(help))" }
        if let accepted = d.acceptance { out += " — \(Wording.markdown(accepted))" }
        return out + "\n"
    }
}
