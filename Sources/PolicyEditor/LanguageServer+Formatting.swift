import PolicySource
import PolicyFormat

/// `textDocument/formatting`: the document as `policyc fmt` writes it, as one edit of the whole
/// text (none when it is formatted already; nothing for YAML that lint does not check; or when it is not YAML that can be formatted: the
/// diagnostics say why).
extension LanguageServer {
    func formatting(_ params: JSON) -> Result<JSON, Failure> {
        guard let uri = params["textDocument"]?["uri"]?.stringValue else {
            return .failure(Failure(.invalidParams, "textDocument.uri is missing"))
        }
        guard let open = workspace.open[uri], open.kind != .other else { return .success(.null) }
        let lines = open.document.lines
        guard case .formatted(let out) = PolicyFormatter.format(lines.bytes, shape: open.kind.formatShape),
              out != lines.bytes else { return .success(.array([])) }
        let whole = EditorRange(start: lines.position(at: 0, encoding), end: lines.position(at: lines.bytes.count, encoding))
        return .success(.array([.object([
            "range": Self.json(whole),
            "newText": .string(String(decoding: out, as: UTF8.self)),
        ])]))
    }
}
