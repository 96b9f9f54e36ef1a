import PolicySource
import PolicyCheck
import PolicyReport
import PolicyCodegen
import PolicySimulation
import PolicyReview
import PolicyFormat

/// `textDocument/codeAction`: quick fixes and the fix-all source action.
extension LanguageServer {
    /// The kind of the action that applies every safe fix, as `lint --fix` does.
    static let fixAllKind = "source.fixAll.policyc"
    /// At most this many quick fixes in one answer: each is checked to leave the text readable.
    static let maxQuickFixes = 100
    /// Of those, at most this many checked alone (each costs a parse of the whole text).
    static let maxFixesCheckedAlone = 8

    mutating func codeActions(_ params: JSON) -> Result<JSON, Failure> {
        guard let uri = params["textDocument"]?["uri"]?.stringValue else {
            return .failure(Failure(.invalidParams, "textDocument.uri is missing"))
        }
        guard let asked = Self.range(params["range"]) else {
            return .failure(Failure(.invalidParams, "range is missing"))
        }
        // Kinds are hierarchical: `source` asks for `source.fixAll.policyc` too. Without `only`,
        // quick fixes alone: the whole file's fixes are worked out only when asked for.
        let only = params["context"]?["only"]?.arrayValue?.compactMap(\.stringValue)
        func wanted(_ kind: String) -> Bool {
            guard let only else { return kind == "quickfix" }
            return only.contains { $0.isEmpty || kind == $0 || kind.hasPrefix($0 + ".") }
        }
        guard client.codeActionLiterals, let open = workspace.open[uri] else { return .success(.array([])) }
        if dirty {
            current = workspace.diagnostics()
            dirty = false
        }
        var actions: [JSON] = []
        if wanted("quickfix") {
            actions += quickFixes(current[uri] ?? [], uri: uri, document: open.document, asked: asked)
        }
        if wanted(Self.fixAllKind), workspace.open[uri]?.kind == .policy, let all = fixAll(uri: uri, document: open.document) {
            actions.append(all)
        }
        return .success(.array(actions))
    }

    /// The fixes of the findings whose range meets `asked`, as `quickfix` code actions: safe
    /// ones preferred, unsafe ones labelled so. Each makes exactly the edits `lint --fix` makes
    /// for that finding: placed in the text's lines as `Fixer` places them, and offered only when the text
    /// still reads as YAML afterwards (as `Fixer` keeps only such fixes).
    func quickFixes(_ diagnostics: [Diagnostic], uri: String, document: EditorDocument, asked: EditorRange) -> [JSON] {
        let lines = document.lines
        let bytes = document.bytes
        var candidates: [(diagnostic: JSON, fix: Fix)] = []
        for d in diagnostics {
            guard candidates.count < Self.maxQuickFixes, let fix = d.fix else { continue }
            let diagnostic = lsp(d, in: uri)
            guard let range = Self.range(diagnostic["range"]), range.start <= asked.end, asked.start <= range.end else { continue }
            candidates.append((diagnostic, fix))
        }
        guard !candidates.isEmpty else { return [] }
        // Whether each leaves the text readable: all at once (one parse for a whole file's fixes),
        // then one by one for the few that overlap another or break the text together.
        let together = Set(Fixer.apply(candidates.map(\.fix), to: bytes).applied)
        var alone = Self.maxFixesCheckedAlone
        var actions: [JSON] = []
        for (i, candidate) in candidates.enumerated() {
            guard let placed = Fixer.byteEdits(candidate.fix, in: lines) else { continue }
            if !together.contains(i) {
                guard alone > 0 else { continue }
                alone -= 1
                guard !Fixer.apply([candidate.fix], to: bytes).applied.isEmpty else { continue }
            }
            let edits: [JSON] = placed.map { edit in
                .object([
                    "range": Self.json(EditorRange(start: lines.position(at: edit.lower, encoding),
                                                   end: lines.position(at: edit.upper, encoding))),
                    "newText": .string(String(decoding: edit.text, as: UTF8.self)),
                ])
            }
            let fix = candidate.fix
            actions.append(.object([
                "title": .string(fix.description + (fix.safety == .unsafe ? " (unsafe)" : "")),
                "kind": .string("quickfix"),
                "diagnostics": .array([candidate.diagnostic]),
                "isPreferred": .bool(fix.safety == .safe),
                "edit": workspaceEdit(uri: uri, document: document, edits: edits),
            ]))
        }
        return actions
    }

    /// Every safe fix of a policy, applied as `lint --fix` applies them (`Fixer`, pass after
    /// pass): one edit over the part of the text that changes. Nil when nothing would.
    func fixAll(uri: String, document: EditorDocument) -> JSON? {
        let bytes = document.bytes
        guard bytes.count <= Loader.maxBytes else { return nil }
        let outcome = Fixer.fix(bytes, path: workspace.displayPath(of: document.path), unsafe: false)
        guard outcome.changed, outcome.bytes != bytes else { return nil }
        // As `lint --fix` leaves it: a formatted document stays formatted.
        let fixed = PolicyFormatter.keepingLayout(of: bytes, fixed: outcome.bytes)
        let (head, tail) = Self.shared(bytes, fixed)
        let lines = document.lines
        let edit: JSON = .object([
            "range": Self.json(EditorRange(start: lines.position(at: head, encoding),
                                           end: lines.position(at: bytes.count - tail, encoding))),
            "newText": .string(String(decoding: fixed[head..<(fixed.count - tail)], as: UTF8.self)),
        ])
        let count = outcome.applied.count
        return .object([
            "title": .string("Fix all safe findings (\(count) fix\(count == 1 ? "" : "es"))"),
            "kind": .string(Self.fixAllKind),
            "edit": workspaceEdit(uri: uri, document: document, edits: [edit]),
        ])
    }

    /// How many bytes two texts share at the start and at the end (not overlapping), never
    /// splitting a character or a CRLF: an editor's position cannot stand inside either.
    static func shared(_ a: [UInt8], _ b: [UInt8]) -> (head: Int, tail: Int) {
        func splits(_ t: [UInt8], _ i: Int) -> Bool {
            i > 0 && i < t.count && (t[i] & 0xC0 == 0x80 || (t[i - 1] == 0x0D && t[i] == 0x0A))
        }
        var head = 0
        while head < a.count && head < b.count && a[head] == b[head] { head += 1 }
        while splits(a, head) || splits(b, head) { head -= 1 }
        var tail = 0
        while tail < a.count - head && tail < b.count - head && a[a.count - 1 - tail] == b[b.count - 1 - tail] { tail += 1 }
        while splits(a, a.count - tail) || splits(b, b.count - tail) { tail -= 1 }
        return (head, tail)
    }

    /// Edits of one document as the client takes them: versioned when it can.
    func workspaceEdit(uri: String, document: EditorDocument, edits: [JSON]) -> JSON {
        client.documentChanges
            ? .object(["documentChanges": .array([.object([
                "textDocument": .object(["uri": .string(uri), "version": .int(document.version)]),
                "edits": .array(edits),
            ])])])
            : .object(["changes": .object([uri: .array(edits)])])
    }
}
