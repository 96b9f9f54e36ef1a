import PolicySource
import PolicyCheck
import PolicyReport
import PolicyCodegen
import PolicySimulation
import PolicyReview

/// `textDocument/completion`.
extension LanguageServer {
    func completion(_ params: JSON) -> Result<JSON, Failure> {
        documentAndOffset(params).map { found in
            let empty: JSON = .object(["isIncomplete": .bool(false), "items": .array([])])
            guard let (_, open, offset) = found else { return empty }
            let lines = open.document.lines
            let kind = workspace.kind(of: open.document)
            guard kind != .other else { return empty }
            let items = Completion.items(lines: lines, offset: offset, markdown: client.completionMarkdown, kind: kind)
            return .object(["isIncomplete": .bool(false), "items": .array(items.map { item in
                var members: [String: JSON] = [
                    "label": .string(item.label),
                    "kind": .int(item.kind == .key ? 10 : 12),  // Property, Value
                    "sortText": .string(item.sortText),
                    "filterText": .string(item.label),
                    "insertTextFormat": .int(1),  // plain text
                    "textEdit": .object([
                        "range": Self.json(EditorRange(start: lines.position(at: item.start, encoding),
                                                       end: lines.position(at: item.end, encoding))),
                        "newText": .string(item.newText),
                    ]),
                ]
                if let detail = item.detail { members["detail"] = .string(detail) }
                if let documentation = item.documentation {
                    members["documentation"] = client.completionMarkdown
                        ? .object(["kind": .string("markdown"), "value": .string(documentation)])
                        : .string(documentation)
                }
                if item.preselect && client.preselect { members["preselect"] = .bool(true) }
                return .object(members)
            })])
        }
    }
}
