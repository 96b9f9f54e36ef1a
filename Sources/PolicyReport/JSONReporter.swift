import PolicySource
import PolicyCheck

extension Reporters {
    /// SPEC §3's one object: `{"diagnostics":[…],"summary":{"errors","files","warnings"}}`, each
    /// diagnostic as `Diagnostic.json` makes it. When an input could not be read or a folder held
    /// no policy, `notices` lists them (`{"kind","path","severity","message"}`); the summary's
    /// `warnings` counts the empty folders, as the text summary does.
    public static func json(_ files: [CheckedFile], notices: [InputNotice] = []) -> String {
        let summary = ReportSummary(files, notices: notices)
        var members: [String: JSON] = [
            "diagnostics": .array(sortedDiagnostics(files).map(\.json)),
            "summary": .object([
                "files": .int(summary.files),
                "errors": .int(summary.errors),
                "warnings": .int(summary.warnings),
            ]),
        ]
        if !notices.isEmpty {
            members["notices"] = .array(sortedNotices(notices).map(\.json))
        }
        return JSON.object(members).rendered()
    }
}

extension InputNotice {
    /// `{"kind": "unreadable-input", "path", "severity": "error", "message"}`.
    public var json: JSON {
        .object([
            "kind": .string(kind.rawValue),
            "path": .string(path),
            "severity": .string(severity.rawValue),
            "message": .string(message),
        ])
    }
}

extension Reference {
    /// `{"section", "quote"}` (quote null when the rule cites a section only), as `policyc rules
    /// --format json` shows it.
    public var json: JSON {
        .object([
            "section": .string(section),
            "quote": quote.map(JSON.string) ?? .null,
        ])
    }
}

extension Fix {
    /// `{"safety", "description", "edits": [{"start": {"line", "column"}, "end": {…}, "text"}]}`:
    /// 1-based, columns in Unicode scalars, the end not included.
    public var json: JSON {
        .object([
            "safety": .string(safety.rawValue),
            "description": .string(description),
            "edits": .array(edits.map { edit in
                .object([
                    "start": .object(["line": .int(edit.span.start.line), "column": .int(edit.span.start.column)]),
                    "end": .object(["line": .int(edit.span.end.line), "column": .int(edit.span.end.column)]),
                    "text": .string(edit.text),
                ])
            }),
        ])
    }
}

extension Diagnostic {
    /// The object of SPEC §3's `json` format: its members (`help` null when there is none), and
    /// beside them what SARIF carries too: where the finding ends (`endLine`, `endColumn`, the
    /// column after its last character), the guide's words behind the rule (`reference`, null for
    /// the language's own rules) and the other places it involves (`related`).
    public var json: JSON {
        var members: [String: JSON] = [
            "file": .string(file),
            "line": .int(line),
            "column": .int(column),
            "severity": .string(severity.rawValue),
            "rule": .string(rule.rawValue),
            "message": .string(message),
            "help": help.map(JSON.string) ?? .null,
        ]
        let end = Self.end(of: span)
        members["endLine"] = .int(end.line)
        members["endColumn"] = .int(end.column)
        members["reference"] = Catalog.rule(rule)?.reference.map(\.json) ?? .null
        members["related"] = .array(related.map { related in
            let end = Self.end(of: related.span)
            return .object([
                "file": .string(related.file),
                "line": .int(related.span.start.line),
                "column": .int(related.span.start.column),
                "endLine": .int(end.line),
                "endColumn": .int(end.column),
                "message": .string(related.message),
            ])
        })
        // Only when there is one: readers that compare the members exactly see no change otherwise.
        if let fix { members["fix"] = fix.json }
        if let waived {
            members["waived"] = .object([
                "owner": .string(waived.owner),
                "reason": .string(waived.reason),
                "expires": .string(waived.expires),
                "line": .int(waived.span.start.line),
                "column": .int(waived.span.start.column),
            ])
        }
        if baselined { members["baselined"] = .bool(true) }
        return .object(members)
    }
}
