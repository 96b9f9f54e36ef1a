extension Reporters {
    /// SPEC §3's one object: `{"diagnostics":[…],"summary":{"errors","files","warnings"}}`.
    public static func json(_ files: [CheckedFile]) -> String {
        let summary = ReportSummary(files)
        return JSON.object([
            "diagnostics": .array(sortedDiagnostics(files).map(jsonWithFix)),
            "summary": .object([
                "files": .int(summary.files),
                "errors": .int(summary.errors),
                "warnings": .int(summary.warnings),
            ]),
        ]).rendered()
    }
}

extension Reporters {
    /// A diagnostic's object with its `fix` when it has one (left out when it has none).
    static func jsonWithFix(_ d: Diagnostic) -> JSON {
        guard let fix = d.fix, case .object(var members) = d.json else { return d.json }
        members["fix"] = fix.json
        return .object(members)
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
