import PolicySource
import PolicyCheck
import PolicyReport
import PolicyCodegen
import PolicySimulation
import PolicyReview

/// `textDocument/hover`, and the document and offset every request on a document names.
extension LanguageServer {
    /// The open document and the byte offset a request names.
    func documentAndOffset(_ params: JSON) -> Result<(uri: String, open: EditorWorkspace.Open, offset: Int)?, Failure> {
        guard let uri = params["textDocument"]?["uri"]?.stringValue else {
            return .failure(Failure(.invalidParams, "textDocument.uri is missing"))
        }
        guard let position = Self.position(params["position"]) else {
            return .failure(Failure(.invalidParams, "position (line and character) is missing"))
        }
        guard let open = workspace.open[uri] else { return .success(nil) }
        return .success((uri, open, open.document.lines.offset(of: position, encoding)))
    }

    mutating func hover(_ params: JSON) -> Result<JSON, Failure> {
        workspace.checkOpenDocuments()
        return documentAndOffset(params).map { found in
            guard let (_, open, offset) = found, open.kind != .other else { return .null }
            let lines = open.document.lines
            // Only a policy that extends others is read again, with its parents, for their origins.
            let effective = open.checked?.inheritance == nil ? nil
                : EffectivePolicy(open.document.bytes, path: open.checked!.path, options: workspace.options(for: open.document))
            guard let answer = Hover.answer(lines: lines, offset: offset, doc: open.checked?.doc ?? open.lastGoodDoc,
                                            markdown: client.hoverMarkdown, kind: open.kind, effective: effective) else { return .null }
            return .object([
                "contents": .object([
                    "kind": .string(client.hoverMarkdown ? "markdown" : "plaintext"),
                    "value": .string(answer.text),
                ]),
                "range": Self.json(EditorRange(start: lines.position(at: answer.start, encoding),
                                               end: lines.position(at: answer.end, encoding))),
            ])
        }
    }
}
