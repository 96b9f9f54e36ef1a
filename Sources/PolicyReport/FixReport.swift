import PolicySource
import PolicyCheck

/// What `lint --fix` says about the fixes it made (or, with `--diff`, would make): a line a fix,
/// for policies and the project file alike, and the summary line's opening.
package enum FixReport {
    /// `path:3:5: fixed: … [rule]` a fix; as many lines as a file has findings at most (a hostile
    /// file may have thousands of fixes), then how many more.
    package static func lines(_ applied: [Fixer.Applied], path: String, wouldFix: Bool) -> String {
        let shownPath = printable(path)
        var report = ""
        for a in applied.prefix(Loader.maxFindings) {
            report += "\(shownPath):\(a.span.start.line):\(a.span.start.column): \(wouldFix ? "would fix" : "fixed"): "
                + "\(printable(a.description))\(a.safety == .unsafe ? " (unsafe)" : "") [\(a.rule)]\n"
        }
        if applied.count > Loader.maxFindings {
            report += "\(shownPath): and \(applied.count - Loader.maxFindings) more fixes\n"
        }
        return report
    }

    /// What a fix run did, before the findings' summary: `fixed 3 findings in 2 files; `,
    /// `nothing to fix; `, and the files that could not be written. `verb` is `fixed`, `would fix`
    /// or why nothing was written.
    package static func done(applied: Int, files: Int, unwritten: Int, verb: String) -> String {
        var line = applied == 0 && unwritten == 0
            ? "nothing to fix; "
            : applied == 0 ? "" : "\(verb) \(Wording.count(applied, "finding")) in \(Wording.count(files, "file")); "
        if unwritten > 0 { line += "nothing fixed in \(Wording.count(unwritten, "file")) that could not be written; " }
        return line
    }

    /// `; 2 unsafe fixes available with --unsafe-fixes`, when there are any.
    package static func unsafeAvailable(_ files: [CheckedFile]) -> String {
        let available = files.reduce(0) { $0 + $1.diagnostics.count { $0.fix?.safety == .unsafe } }
        return available > 0 ? "; \(Wording.count(available, "unsafe fix", "unsafe fixes")) available with --unsafe-fixes" : ""
    }
}
