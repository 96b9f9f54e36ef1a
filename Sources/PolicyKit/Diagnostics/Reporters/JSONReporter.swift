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
