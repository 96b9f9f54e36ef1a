import PolicySource
import PolicyCheck

/// The review's sections beside the policies': the project file's changes, what a change fixes,
/// and the words for a finding that a waiver or the baseline holds.
extension DiffReport {
    /// "project file policyc.yaml: 2 changes\n  limits.backgroundMaxRetries 6 → none (loosened)".
    var projectFileText: String {
        guard !projectFile.isEmpty else { return "" }
        var out = "\nproject file \(printable(projectFileName ?? ProjectConfig.fileNames[0])): \(Wording.count(projectFile.count, "change"))\n"
        for c in projectFile { out += "  \(c.line)\n" }
        return out
    }

    var projectFileMarkdown: String {
        guard !projectFile.isEmpty else { return "" }
        var out = "\n### Project file \(Wording.code(projectFileName ?? ProjectConfig.fileNames[0])): "
            + "\(Wording.count(projectFile.count, "change"))\n\n| Key | Before → After | |\n|---|---|---|\n"
        for c in projectFile {
            let how = c.loosened ? "❌ loosened" : c.tightened ? "tightened" : ""
            out += "| \(Wording.code(c.key)) | \(Wording.markdown(c.before)) → \(Wording.markdown(c.after)) | \(how) |\n"
        }
        return out
    }
}

enum ReviewSections {
    /// The findings a policy's change fixes, under the policy in the text review.
    static func fixedText(_ fixed: [Diagnostic]) -> String {
        guard !fixed.isEmpty else { return "" }
        return "  fixed:\n" + fixed.map { "    \($0.headline)\n" }.joined()
    }

    static func fixedMarkdown(_ fixed: [Diagnostic]) -> String {
        guard !fixed.isEmpty else { return "" }
        return "\nFixed:\n\n" + fixed.map { "- ✅ \(Wording.code($0.rule.rawValue)): \(Wording.markdown($0.message))\n" }.joined()
    }

    /// "waived by payments-platform until 2027-03-31", "held by the baseline".
    static func heldWords(_ d: Diagnostic) -> String? {
        if let w = d.waived { return "waived by \(printable(w.owner)) until \(printable(w.expires))" }
        return d.baselined ? "held by the baseline" : nil
    }

    /// The same in markdown, the owner in a code span so that it notifies no one.
    static func heldMarkdown(_ d: Diagnostic) -> String? {
        if let w = d.waived {
            return "waived by \(Wording.code(w.owner)) until \(Wording.markdown(w.expires)): " + ReviewMarkdown.message(d)
        }
        return d.baselined ? "held by the baseline: " + ReviewMarkdown.message(d) : nil
    }
}

extension DiffReport {
    /// `json` with the verdict a program acts on: `verdict` (`pass`/`fail`), `exit` and `reasons`.
    public func json(_ allow: Allowances) -> JSON {
        guard case .object(var members) = json else { return json }
        let exit = exitCode(allow)
        members["verdict"] = .string(exit == 0 ? "pass" : "fail")
        members["exit"] = .int(Int(exit))
        members["reasons"] = .array(reasons(allow).map(JSON.string))
        return .object(members)
    }
}
