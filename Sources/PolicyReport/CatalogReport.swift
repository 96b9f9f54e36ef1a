import PolicySource
import PolicyCheck

/// `policyc rules`: the catalog as people and programs read it, made from the rule values
/// themselves (id, severity, summary, reference, examples), so that it cannot drift from them.
public enum CatalogReport {
    public enum Format: String, Sendable, CaseIterable {
        case text, markdown, json
    }

    public static func render(_ format: Format, _ rules: [Rule] = Catalog.rules) -> String {
        switch format {
        case .text: return text(rules)
        case .markdown: return markdown(rules)
        case .json: return json(rules)
        }
    }

    /// The catalog with the limits its rules apply (`policyc rules`): text and markdown end with
    /// them, json has them as `limits`.
    public static func render(_ format: Format, limits: Limits, pages: RulePages = .standard,
                              _ rules: [Rule] = Catalog.rules) -> String {
        switch format {
        case .text: return text(rules) + "\n" + limitsText(limits)
        case .markdown: return markdown(rules) + "\n" + limitsMarkdown(limits)
        case .json: return JSON.object(["rules": rulesJSON(rules, pages: pages), "limits": limitsJSON(limits)]).rendered()
        }
    }

    // MARK: limits

    /// Each limit in effect with where it comes from: the guide's edition, or the project file's line.
    public static func limitRows(_ limits: Limits, keys: [LimitKey] = LimitKey.allCases)
        -> [(key: LimitKey, value: String, rule: String, source: String)] {
        keys.compactMap { key in
            guard let value = limits.values[key] else { return nil }
            let source: String
            if let origin = limits.origins[key] {
                source = "\(origin.file):\(origin.span.start.line) (\(limits.tightening(key)))"
            } else {
                source = "guide \(limits.edition.name)"
            }
            return (key, value.description, key.rule.rawValue, source)
        }
    }

    public static func limitsText(_ limits: Limits) -> String {
        var out = "limits in effect (guide \(limits.edition.name)):\n"
        let rows = limitRows(limits)
        let width = rows.map(\.key.rawValue.count).max() ?? 0
        let valueWidth = rows.map(\.value.count).max() ?? 0
        for row in rows {
            out += "  " + padded(row.key.rawValue, width) + "  " + padded(row.value, valueWidth)
                + "  " + printable(row.source) + " [\(row.rule)]\n"
        }
        let unset = LimitKey.allCases.filter { limits.values[$0] == nil }
        if !unset.isEmpty {
            out += "  not set: " + unset.map(\.rawValue).joined(separator: ", ") + " (policyc.yaml limits: may set them)\n"
        }
        return out
    }

    private static func padded(_ text: String, _ width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - text.count))
    }

    public static func limitsMarkdown(_ limits: Limits, keys: [LimitKey] = LimitKey.allCases) -> String {
        var out = "| limit | value | rule | from |\n|---|---|---|---|\n"
        for row in limitRows(limits, keys: keys) {
            out += "| `\(row.key.rawValue)` | \(cell(row.value)) | `\(row.rule)` | \(cell(row.source)) |\n"
        }
        return out
    }

    /// `{"edition", "values": [{"key", "value", "rule", "file", "line"}]}`, file and line null
    /// for the guide's own.
    public static func limitsJSON(_ limits: Limits, keys: [LimitKey] = LimitKey.allCases) -> JSON {
        .object([
            "edition": .string(limits.edition.name),
            "values": .array(keys.compactMap { key in
                guard let value = limits.values[key] else { return nil }
                let origin = limits.origins[key]
                return .object([
                    "key": .string(key.rawValue),
                    "value": .string(value.description),
                    "rule": .string(key.rule.rawValue),
                    "guide": limits.edition.values[key].map { .string($0.description) } ?? .null,
                    "file": origin.map { .string($0.file) } ?? .null,
                    "line": origin.map { .int($0.span.start.line) } ?? .null,
                ])
            }),
        ])
    }

    // MARK: markdown

    /// The table the README embeds: `| rule | severity | fires when | guide | fix |`.
    public static func markdown(_ rules: [Rule] = Catalog.rules) -> String {
        var out = "| rule | severity | fires when | guide | fix |\n|---|---|---|---|---|\n"
        for rule in rules {
            let guide = rule.reference.map { cell($0.text) } ?? "—"
            out += "| `\(rule.id.rawValue)` | \(rule.severity.rawValue) | \(cell(rule.summary)) | \(guide) | \(fixes(rule)) |\n"
        }
        return out
    }

    /// `safe`, `unsafe`, `safe, unsafe`, or `—` for a rule without fixes.
    static func fixes(_ rule: Rule) -> String {
        rule.fixes.isEmpty ? "—" : rule.fixes.map(\.rawValue).joined(separator: ", ")
    }

    /// A table cell: a `|` would end it and a line break would end the table.
    static func cell(_ text: String) -> String {
        printable(text).replacingAll("|", with: "\\|")
    }

    // MARK: json

    /// `{"rules":[{"id","severity","summary","reference","examples":[…]}]}`; an example's
    /// `findings` are the positions its markers stand for (empty when it must not trigger).
    public static func json(_ rules: [Rule] = Catalog.rules) -> String {
        JSON.object(["rules": rulesJSON(rules)]).rendered()
    }

    /// With `pages`, each rule has its `page` too.
    static func rulesJSON(_ rules: [Rule], pages: RulePages? = nil) -> JSON {
        .array(rules.map { rule in
            var members: [String: JSON] = [
                "id": .string(rule.id.rawValue),
                "severity": .string(rule.severity.rawValue),
                "summary": .string(rule.summary),
                "fixes": .array(rule.fixes.map { .string($0.rawValue) }),
                "reference": rule.reference.map { reference in
                    JSON.object([
                        "section": .string(reference.section),
                        "quote": reference.quote.map(JSON.string) ?? .null,
                    ])
                } ?? .null,
                "examples": .array(rule.examples.map { example in
                    JSON.object([
                        "triggers": .bool(example.triggers),
                        "note": .string(example.note),
                        "yaml": .string(example.source),
                        // What `lint --fix` and `lint --fix --unsafe-fixes` make of it (null: no change).
                        "fixed": example.fixed.map(JSON.string) ?? .null,
                        "unsafeFixed": example.unsafeFixed.map(JSON.string) ?? .null,
                        "findings": .array(example.markedPositions.map {
                            JSON.object(["line": .int($0.line), "column": .int($0.column)])
                        }),
                    ])
                }),
            ]
            if let pages { members["page"] = .string(pages.url(for: rule.id)) }
            return JSON.object(members)
        })
    }

    // MARK: text

    /// Each rule with its summary, the guide's words and its examples. An example that is the
    /// canonical policy with a few lines changed shows only those lines, with their numbers; a
    /// `^` marks where the finding points.
    public static func text(_ rules: [Rule] = Catalog.rules) -> String {
        rules.map { heading($0) + examplesText($0) }.joined(separator: "\n")
    }

    /// A rule's first lines: its id and severity, when it fires, the guide's words, its fixes.
    static func heading(_ rule: Rule) -> String {
        var out = "\(rule.id.rawValue) (\(rule.severity.rawValue))\n"
        out += "  fires when \(printable(rule.summary))\n"
        if let reference = rule.reference {
            out += "  guide: \(printable(reference.text))\n"
        }
        if !rule.fixes.isEmpty {
            out += "  fixes: \(fixes(rule))\(rule.fixes.contains(.safe) ? " (safe: lint --fix" + (rule.fixes.contains(.unsafe) ? "; unsafe: lint --unsafe-fixes)" : ")") : " (lint --unsafe-fixes)")\n"
        }
        return out
    }

    /// Each example of a rule, with what the fixes make of it.
    static func examplesText(_ rule: Rule) -> String {
        var out = ""
        for example in rule.examples {
            out += "\n  \(example.triggers ? "triggers" : "passes"): \(printable(example.note))\n"
            out += excerpt(of: example)
            if let fixed = example.fixed {
                out += "    lint --fix makes it:\n" + excerpt(of: Example(fixed, triggers: false, note: ""))
            }
            if let unsafeFixed = example.unsafeFixed {
                out += "    lint --unsafe-fixes makes it:\n" + excerpt(of: Example(unsafeFixed, triggers: false, note: ""))
            }
        }
        return out
    }

    /// The lines of an example worth reading, numbered, with carets under its markers.
    static func excerpt(of example: Example) -> String {
        let lines = LineIndex(example.source).lineTexts
        let marks = example.markedPositions
        let canonical = LineIndex(Canonical.text).lineTexts
        if lines == canonical { return "      (the canonical policy, unchanged)\n" }

        var prefix = 0
        while prefix < min(lines.count, canonical.count), lines[prefix] == canonical[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < min(lines.count, canonical.count) - prefix,
              lines[lines.count - 1 - suffix] == canonical[canonical.count - 1 - suffix] { suffix += 1 }
        if prefix + suffix >= canonical.count / 2 {
            let changed = prefix..<(lines.count - suffix)
            if changed.isEmpty {
                let removed = prefix..<(canonical.count - suffix)
                var out = "      the canonical policy without \(describe(removed)):\n"
                for i in removed { out += numbered(i + 1, "- " + canonical[i]) }
                return out
            }
            var out = "      the canonical policy with \(describe(changed)) as:\n"
            for i in changed { out += numbered(i + 1, lines[i], marks: marks) }
            return out
        }
        // Not a small change of the canonical policy: the whole text (its last line only when a
        // marker stands on it).
        var shown = lines
        if shown.last == "", !marks.contains(where: { $0.line == shown.count }) { shown.removeLast() }
        return shown.enumerated().map { numbered($0.offset + 1, $0.element, marks: marks) }.joined()
    }

    static func describe(_ range: Range<Int>) -> String {
        range.count == 1 ? "line \(range.lowerBound + 1)" : "lines \(range.lowerBound + 1)–\(range.upperBound)"
    }

    /// `     9 | text` and, when markers stand on the line, a caret line under them.
    static func numbered(_ n: Int, _ line: String, marks: [Mark] = []) -> String {
        let number = String(n)
        let gutter = String(repeating: " ", count: max(0, 4 - number.count)) + number
        let shown = printable(line.replacingAll("\t", with: "    "))
        var out = "    \(gutter) |" + (shown.isEmpty ? "" : " " + shown) + "\n"
        let columns = Set(marks.filter { $0.line == n }.map(\.column))
        if let last = columns.max() {
            var caret = ""
            for column in 1...last {
                caret += columns.contains(column) ? "^" : " "
            }
            out += "         | " + caret + "\n"
        }
        return out
    }
}

