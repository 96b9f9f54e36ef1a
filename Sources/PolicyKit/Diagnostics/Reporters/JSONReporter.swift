extension Reporters {
    /// SPEC §3's one object: `{"diagnostics":[…],"summary":{"errors","files","warnings"}}`.
    public static func json(_ files: [CheckedFile]) -> String {
        let summary = ReportSummary(files)
        return JSON.object([
            "diagnostics": .array(sortedDiagnostics(files).map(\.json)),
            "summary": .object([
                "files": .int(summary.files),
                "errors": .int(summary.errors),
                "warnings": .int(summary.warnings),
            ]),
        ]).rendered()
    }
}
