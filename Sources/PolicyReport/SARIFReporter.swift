import PolicySource
import PolicyCheck

extension Reporters {
    public static let sarifSchema = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"

    /// SARIF 2.1.0: one run whose driver lists the whole catalog, one result per finding, columns
    /// in Unicode code points on the editor's lines (`LineIndex`), paths relative to `%SRCROOT%`. The run's
    /// invocation says whether it could read every input (`executionSuccessful`); its
    /// `toolExecutionNotifications` name the inputs that could not be read and the folders
    /// without policy files. Each rule links to its page of the rule book (`helpUri`).
    public static func sarif(_ files: [CheckedFile], notices: [InputNotice] = [], pages: RulePages = .standard) -> String {
        let diagnostics = sortedDiagnostics(files)
        // The whole catalog, and any rule a finding names that the catalog lacks (so that every
        // result has a valid ruleIndex whatever the catalog holds).
        var descriptors = Catalog.rules.map { sarifDescriptor(id: $0.id, rule: $0, pages: pages) }
        var index: [RuleID: Int] = [:]
        for (i, rule) in Catalog.rules.enumerated() { index[rule.id] = i }
        for d in diagnostics where index[d.rule] == nil {
            index[d.rule] = descriptors.count
            descriptors.append(sarifDescriptor(id: d.rule, rule: nil, pages: pages))
        }
        let results: [JSON] = diagnostics.map { d in
            var message = d.message
            if let help = d.help { message += "\nhelp: " + help }
            var result: [String: JSON] = [
                "ruleId": .string(d.rule.rawValue),
                "ruleIndex": .int(index[d.rule] ?? 0),
                "level": .string(d.severity.rawValue),
                "message": .object(["text": .string(message)]),
                "locations": .array([.object(["physicalLocation": sarifPhysicalLocation(d.file, d.span)])]),
            ]
            if let fix = d.fix { result["fixes"] = .array([sarifFix(fix, file: d.file)]) }
            // An accepted finding is a suppressed result: in the policy (a waiver) or beside it (the baseline).
            if let waived = d.waived {
                result["suppressions"] = .array([.object([
                    "kind": .string("inSource"),
                    "status": .string("accepted"),
                    "justification": .string(waived.reason),
                    "location": .object(["physicalLocation": sarifPhysicalLocation(d.file, waived.span)]),
                    "properties": .object(["owner": .string(waived.owner), "expires": .string(waived.expires)]),
                ])])
            } else if d.baselined {
                result["suppressions"] = .array([.object([
                    "kind": .string("external"),
                    "status": .string("accepted"),
                    "justification": .string("recorded in the baseline"),
                ])])
            }
            if !d.related.isEmpty {
                result["relatedLocations"] = .array(d.related.enumerated().map { i, related in
                    .object([
                        "id": .int(i + 1),
                        "physicalLocation": sarifPhysicalLocation(related.file, related.span),
                        "message": .object(["text": .string(related.message)]),
                    ])
                })
            }
            return .object(result)
        }
        let notifications: [JSON] = sortedNotices(notices).map { notice in
            .object([
                "level": .string(notice.severity.rawValue),
                "message": .object(["text": .string(notice.message)]),
                "descriptor": .object(["id": .string(notice.kind.rawValue)]),
                "locations": .array([.object(["physicalLocation": .object([
                    "artifactLocation": sarifArtifactLocation(notice.path),
                ])])]),
            ])
        }
        var invocation: [String: JSON] = [
            "executionSuccessful": .bool(!notices.contains { $0.kind == .unreadable }),
        ]
        if !notifications.isEmpty { invocation["toolExecutionNotifications"] = .array(notifications) }
        let driver: JSON = .object([
            "name": .string("policyc"),
            "version": .string(PolicycVersion.string),
            "semanticVersion": .string(PolicycVersion.string),
            "rules": .array(descriptors),
        ])
        return JSON.object([
            "$schema": .string(sarifSchema),
            "version": .string("2.1.0"),
            "runs": .array([.object([
                "tool": .object(["driver": driver]),
                "columnKind": .string("unicodeCodePoints"),
                "invocations": .array([.object(invocation)]),
                "results": .array(results),
            ])]),
        ]).rendered()
    }

    /// A fix as SARIF has it: one artifact change whose replacements are its edits (regions end
    /// one column past their last character, as ours do; an empty region inserts). Its safety goes
    /// in the property bag, which SARIF leaves to the tool.
    static func sarifFix(_ fix: Fix, file: String) -> JSON {
        .object([
            "description": .object(["text": .string(fix.description)]),
            "artifactChanges": .array([.object([
                "artifactLocation": sarifArtifactLocation(file),
                "replacements": .array(fix.edits.map { edit in
                    .object([
                        "deletedRegion": .object([
                            "startLine": .int(edit.span.start.line),
                            "startColumn": .int(edit.span.start.column),
                            "endLine": .int(edit.span.end.line),
                            "endColumn": .int(edit.span.end.column),
                        ]),
                        "insertedContent": .object(["text": .string(edit.text)]),
                    ])
                }),
            ])]),
            "properties": .object(["safety": .string(fix.safety.rawValue)]),
        ])
    }

    package static func sarifDescriptor(id: RuleID, rule: Rule?, pages: RulePages = .standard) -> JSON {
        var descriptor: [String: JSON] = ["id": .string(id.rawValue), "name": .string(upperCamelRuleName(id.rawValue))]
        // Only a rule of the catalog has a page (a finding of another kind, such as an unreadable
        // input, has none).
        guard let rule else { return .object(descriptor) }
        descriptor["helpUri"] = .string(pages.url(for: id))
        var full = "Fires when \(rule.summary)."
        var markdown = "Fires when \(rule.summary)."
        if let reference = rule.reference {
            full += " The integration guide \"Smooth playback under load\": \(reference.text)."
            markdown += "\n\nFrom the integration guide *Smooth playback under load*: \(reference.text)."
        }
        markdown += "\n\nRun `policyc rules \(id)`, or see [its page](\(pages.url(for: id))), for examples that do and do not trigger it."
        descriptor["shortDescription"] = .object(["text": .string(rule.summary)])
        descriptor["fullDescription"] = .object(["text": .string(full)])
        descriptor["help"] = .object(["text": .string(full), "markdown": .string(markdown)])
        descriptor["defaultConfiguration"] = .object(["level": .string(rule.severity.rawValue)])
        if !rule.fixes.isEmpty { descriptor["properties"] = .object(["fixes": .array(rule.fixes.map { .string($0.rawValue) })]) }
        return .object(descriptor)
    }

    /// `interactive-retries-max` → `InteractiveRetriesMax`, the readable name SARIF asks for.
    static func upperCamelRuleName(_ id: String) -> String {
        id.split(separator: "-").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }

    static func sarifPhysicalLocation(_ file: String, _ span: Span) -> JSON {
        // SARIF counts from 1 and wants the end at or after the start.
        let start = Mark(line: max(1, span.start.line), column: max(1, span.start.column))
        var end = span.end
        if end < start { end = start }
        return .object([
            "artifactLocation": sarifArtifactLocation(file),
            "region": .object([
                "startLine": .int(start.line),
                "startColumn": .int(start.column),
                "endLine": .int(end.line),
                "endColumn": .int(end.column),
            ]),
        ])
    }

    /// A relative path becomes a URI reference under `%SRCROOT%`; an absolute one a `file:` URI.
    package static func sarifArtifactLocation(_ path: String) -> JSON {
        if path.hasPrefix("/") {
            return .object(["uri": .string("file://" + percentEncodedPath(path))])
        }
        var relative = Substring(path)
        while relative.hasPrefix("./") { relative = relative.dropFirst(2) }
        return .object([
            "uri": .string(percentEncodedPath(String(relative))),
            "uriBaseId": .string("%SRCROOT%"),
        ])
    }

    /// RFC 3986 path: unreserved characters and `/` stay, every other byte is `%XX` (so a space,
    /// `%`, `#`, `?`, `<stdin>` and non-ASCII names all give a valid URI reference).
    /// Made as bytes (a path is made for every finding and fix, and appending scalar by scalar
    /// is slow).
    static func percentEncodedPath(_ path: String) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(path.utf8.count)
        let hex = Array("0123456789ABCDEF".utf8)
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
                 UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
                bytes.append(byte)
            default:
                bytes.append(UInt8(ascii: "%"))
                bytes.append(hex[Int(byte >> 4)])
                bytes.append(hex[Int(byte & 0xF)])
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
