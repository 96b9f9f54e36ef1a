import PolicySource
import PolicyCheck

/// Findings of an open policy that stand in a file it extends: the editor shows a document's
/// findings on the document, so each is shown at the document's `extends` entry, saying where
/// the inherited value is written (lint shows it at the parent's line).
enum EditorInheritance {
    static func placed(_ diagnostics: [Diagnostic], of file: CheckedFile) -> [Diagnostic] {
        guard let inheritance = file.inheritance, let entry = inheritance.entry else { return diagnostics }
        var placed = diagnostics
        for i in placed.indices where placed[i].file != file.path {
            let d = placed[i]
            let suffix = " (inherited by \(file.path))"
            let message = d.message.hasSuffix(suffix) ? String(d.message.dropLast(suffix.count)) : d.message
            placed[i].message = message + " (inherited from \(d.file):\(d.line):\(d.column))"
            placed[i].related.insert(.init(file: d.file, span: d.span, message: "the inherited value"), at: 0)
            placed[i].file = file.path
            placed[i].span = entry
        }
        placed.sortForReport()
        return placed
    }
}
