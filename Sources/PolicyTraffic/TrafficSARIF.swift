import PolicySource
import PolicyCheck
import PolicyReport

extension TrafficReport {
    /// SARIF 2.1.0: the traffic rules as the driver's rules; each result at its entry's place in
    /// the recording, with the logical location `entries[N]` and the other entries as related.
    static func sarif(_ run: TrafficRun) -> String {
        var index: [RuleID: Int] = [:]
        for (i, rule) in Traffic.rules.enumerated() { index[rule.rule.id] = i }
        let results: [JSON] = run.findings.map { f in
            func location(_ entry: Int, _ mark: Mark?) -> [String: JSON] {
                var physical: [String: JSON] = ["artifactLocation": Reporters.sarifArtifactLocation(f.file)]
                if let mark { physical["region"] = .object(["startLine": .int(mark.line), "startColumn": .int(mark.column)]) }
                return ["physicalLocation": .object(physical),
                        "logicalLocations": .array([.object(["fullyQualifiedName": .string("entries[\(entry)]"), "kind": .string("element")])])]
            }
            return .object([
                "ruleId": .string(f.rule.rawValue),
                "ruleIndex": .int(index[f.rule] ?? 0),
                "level": .string(f.severity.rawValue),
                "message": .object(["text": .string(f.message)]),
                "locations": .array([.object(location(f.entry, f.mark))]),
                "relatedLocations": .array(f.entries.filter { $0 != f.entry }.enumerated().map { n, entry in
                    var related = location(entry, nil)
                    related["id"] = .int(n + 1)
                    related["message"] = .object(["text": .string("entries[\(entry)], also involved")])
                    return .object(related)
                }),
                "properties": .object(["client": .string(f.client), "entries": .array(f.entries.map(JSON.int))]),
            ])
        }
        let notifications: [JSON] = run.errors.map { file, error in
            .object([
                "level": .string("error"),
                "message": .object(["text": .string(error.description)]),
                "descriptor": .object(["id": .string(error.rule)]),
                "locations": .array([.object(["physicalLocation": .object([
                    "artifactLocation": Reporters.sarifArtifactLocation(file),
                    "region": .object(["startLine": .int(error.line), "startColumn": .int(error.column)]),
                ])])]),
            ])
        }
        var invocation: [String: JSON] = ["executionSuccessful": .bool(run.errors.isEmpty)]
        if !notifications.isEmpty { invocation["toolExecutionNotifications"] = .array(notifications) }
        let driver: JSON = .object([
            "name": .string("policyc"),
            "version": .string(PolicycVersion.string),
            "semanticVersion": .string(PolicycVersion.string),
            "rules": .array(Traffic.rules.map { Reporters.sarifDescriptor(id: $0.rule.id, rule: $0.rule) }),
        ])
        return JSON.object([
            "$schema": .string(Reporters.sarifSchema),
            "version": .string("2.1.0"),
            "runs": .array([.object([
                "tool": .object(["driver": driver]),
                "invocations": .array([.object(invocation)]),
                "results": .array(results),
            ])]),
        ]).rendered()
    }
}
