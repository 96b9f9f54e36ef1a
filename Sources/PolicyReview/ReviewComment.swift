import PolicySource
import PolicyCheck
import PolicyReport
import PolicySimulation

/// The markdown review as a pull-request comment GitHub will post (it refuses bodies over 65,536
/// characters): the verdict and a summary table first, each policy in a `<details>` block,
/// identical change blocks of several policies said once, and past the budget the rest cut with
/// a line naming the command that prints it all.
extension DiffReport {
    /// The most characters (UTF-16 code units, what GitHub counts at most) a markdown review has.
    public static let commentLimit = 60_000

    /// The rows of the summary table stop at this share of the budget, so that the sections of
    /// the first policies always follow them.
    static let summaryShare = 3

    /// One block of the comment: the policies it is about (several when their changes are the
    /// same), and its markdown.
    struct CommentBlock {
        var policies: [PolicyReview]
        var markdown: String
    }

    /// The comment: `head` (the verdict), the summary, the waivers, then the blocks while they fit.
    /// `command` is what prints the review in full (named in the line that cuts the rest).
    func comment(head: String, limit: Int, command: String) -> String {
        let reserve = 400
        var out = head
        out += summaryTable(budget: max(0, (limit - out.utf16.count) / Self.summaryShare))
        let waiverSection = projectFileMarkdown + waiverMarkdown
        let waiversFit = out.utf16.count + waiverSection.utf16.count <= limit - reserve
        if waiversFit { out += waiverSection }
        let blocks = commentBlocks()
        var shown = 0
        for block in blocks {
            guard out.utf16.count + block.markdown.utf16.count <= limit - reserve else { break }
            out += block.markdown
            shown += 1
        }
        let quietLine = quiet.isEmpty ? ""
            : "\nUnchanged: " + quiet.map { $0.policy.map(Wording.code) ?? Wording.code($0.file) }.joined(separator: ", ") + "\n"
        if waiversFit, shown == blocks.count, out.utf16.count + quietLine.utf16.count <= limit - reserve {
            return out + quietLine
        }
        let left = blocks[shown...].reduce(0) { $0 + $1.policies.count }
        var missing: [String] = waiversFit ? [] : ["the project file's changes and the waivers"]
        if left > 0 { missing.append(Wording.count(left, "more policy", "more policies")) }
        if !quiet.isEmpty { missing.append("the list of unchanged policies") }
        var cut = "\n---\n\n✂️ Not shown: " + Wording.list(missing)
        cut += ": a pull-request comment holds at most \(Wording.thousands(limit)) characters here. "
            + "\(Wording.code(command)) prints the whole review.\n"
        return out + cut
    }

    /// `| Policy | Status | Changes | Verdict |`, a row per policy worth a section; rows past
    /// `budget` characters are counted in a last row.
    func summaryTable(budget: Int) -> String {
        let rows = notable
        guard !rows.isEmpty else { return "" }
        var out = "\n| Policy | Status | Changes | Verdict |\n|---|---|---|---|\n"
        for (i, p) in rows.enumerated() {
            let status = p.status.rawValue + (p.moved ? ", moved" : "")
            let row = "| \(p.policy.map(Wording.code) ?? Wording.code(p.file)) | \(status) | \(p.changes.count) | "
                + "\(DiffReport.summaryVerdict(p)) |\n"
            if out.utf16.count + row.utf16.count > budget, i > 0 {
                out += "| … | \(Wording.count(rows.count - i, "more policy", "more policies")) | | |\n"
                break
            }
            out += row
        }
        return out
    }

    /// What a policy's changes do to the verdict, in a few words.
    static func summaryVerdict(_ p: PolicyReview) -> String {
        var parts: [String] = []
        if p.changes.contains(where: \.breaking) { parts.append("❌ breaking") }
        let errors = p.newFindings.filter { $0.diagnostic.severity == .error }.map(\.diagnostic.rule.rawValue)
        var rules: [String] = []
        for r in errors where !rules.contains(r) { rules.append(r) }
        if !rules.isEmpty { parts.append("❌ fails: " + rules.map(Wording.code).joined(separator: ", ")) }
        else if p.changes.contains(where: \.fails) { parts.append("❌ fails") }
        if p.scenarioChanges.contains(where: \.worse) { parts.append("❌ worse in an outage") }
        if p.notCompared != nil { parts.append("⚠️ not compared") }
        if parts.isEmpty, p.newFindings.contains(where: { $0.diagnostic.severity == .warning }) { parts.append("⚠️ warning") }
        return parts.isEmpty ? "✅ ok" : parts.joined(separator: "<br>")
    }

    /// The policies' blocks, in the order of `notable`: policies whose changes read the same are
    /// one block ("the same 3 changes in 30 policies"), each with its own findings after it.
    func commentBlocks() -> [CommentBlock] {
        let policies = notable
        let changes = policies.map(changesMarkdown)
        var groups: [[Int]] = []
        var groupOf: [String: Int] = [:]
        for (i, block) in changes.enumerated() {
            // A policy without changes (findings only, not compared) is never merged.
            if !policies[i].changes.isEmpty, let g = groupOf[block] {
                groups[g].append(i)
            } else {
                groupOf[block] = groups.count
                groups.append([i])
            }
        }
        var out: [CommentBlock] = []
        for group in groups {
            let members = group.map { policies[$0] }
            if group.count == 1 {
                out.append(CommentBlock(policies: members, markdown: policyDetails(members[0], changes: changes[group[0]])))
                continue
            }
            out.append(CommentBlock(policies: members, markdown: sharedDetails(members, changes: changes[group[0]])))
        }
        return out
    }

    /// `<details>` of one policy: its file, its changes and its findings; open when it fails.
    func policyDetails(_ p: PolicyReview, changes: String, sharedWith: Int? = nil) -> String {
        let open = DiffReport.summaryVerdict(p).contains("❌") ? " open" : ""
        var out = "\n<details\(open)><summary><b>\(DiffReport.summaryName(p))</b> — \(p.status.rawValue)\(p.moved ? ", moved" : "")"
            + " (\(Wording.count(p.changes.count, "change")))</summary>\n\n"
        if p.moved, let old = p.oldFile {
            out += "File: \(Wording.code(old)) → \(Wording.code(p.file)) (moved)\n"
        } else {
            out += "File: \(Wording.code(p.file))\n"
        }
        if let why = p.notCompared { out += "\n⚠️ Not compared: " + Wording.markdown(why) + "\n" }
        if let n = sharedWith {
            out += "\nIts changes: the same \(Wording.count(p.changes.count, "change")) as in \(n) policies (above).\n"
        } else {
            out += changes
        }
        out += findingsMarkdown(p)
        return out + "\n</details>\n"
    }

    /// One `<details>` for policies whose changes read the same, then those of them with findings
    /// of their own (their files differ, so their findings do).
    func sharedDetails(_ members: [PolicyReview], changes: String) -> String {
        let n = members.count, count = members[0].changes.count
        let names = members.map(DiffReport.summaryName)
        let shown = names.count > 8 ? names.prefix(8).joined(separator: ", ") + " and \(names.count - 8) more" : Wording.list(names)
        let open = members.contains { DiffReport.summaryVerdict($0).contains("❌") } ? " open" : ""
        let what = count == 1 ? "The same change" : "The same \(count) changes"
        var out = "\n<details\(open)><summary><b>\(what) in \(n) policies</b>: \(shown)</summary>\n\n"
        out += "Files: " + members.map { Wording.code($0.file) }.joined(separator: ", ") + "\n"
        out += changes + "\n</details>\n"
        for p in members where !findingsMarkdown(p).isEmpty || p.moved || p.notCompared != nil {
            out += policyDetails(p, changes: "", sharedWith: n)
        }
        return out
    }

    static func summaryName(_ p: PolicyReview) -> String {
        p.policy.map(Wording.code) ?? (p.extendedBy.isEmpty ? "(no policy name)" : "base of " + p.extendedBy.map(Wording.code).joined(separator: ", "))
    }

    /// A policy's changes: the table, what each profile's changes do together, the outage and the
    /// built-in scenarios; the same text for the same changes, whatever the file.
    func changesMarkdown(_ p: PolicyReview) -> String {
        var out = ""
        if !p.changes.isEmpty {
            out += "\n| Change | Before → After | Effect | Verdict |\n|---|---|---|---|\n"
            for c in p.changes {
                out += "| \(Wording.code(c.path)) | \(Wording.markdown(c.beforeText)) → \(Wording.markdown(c.afterText)) | "
                    + "\(Wording.markdown(c.effect)) | \(DiffReport.verdictCell(c)) |\n"
            }
        }
        let lines = p.profiles.flatMap { profile in profile.lines.map { (profile.name, $0) } }
        if !lines.isEmpty {
            out += "\n"
            for (name, line) in lines { out += "- \(Wording.code(name)) — \(Wording.markdown(line))\n" }
        }
        out += OutageReview.markdown(p.outage)
        out += scenarioMarkdown(p.scenarioChanges)
        return out
    }

    func findingsMarkdown(_ p: PolicyReview) -> String {
        var out = ReviewSections.fixedMarkdown(p.fixed)
        for (title, findings) in [("New findings", p.newFindings), ("Findings already there", p.oldFindings)] where !findings.isEmpty {
            out += "\n\(title):\n\n"
            for f in findings { out += ReviewMarkdown.item(f.diagnostic) }
        }
        return out
    }
}
