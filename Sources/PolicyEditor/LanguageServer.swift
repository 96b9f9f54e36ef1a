import PolicySource
import PolicyCheck
import PolicyReport
import PolicyCodegen
import PolicySimulation
import PolicyReview

/// `policyc lsp` without its input and output: the Language Server Protocol 3.17 as a state
/// machine over JSON-RPC messages. The command line frames the messages, reads the files on disk
/// when asked (`diskScanWanted`) and writes what comes back; everything else is here, so that
/// every answer can be tested without a process.
public struct LanguageServer: Sendable {
    /// JSON-RPC and LSP error codes.
    public enum ErrorCode: Int, Sendable {
        case parseError = -32700
        case invalidRequest = -32600
        case methodNotFound = -32601
        case invalidParams = -32602
        case internalError = -32603
        case serverNotInitialized = -32002
    }

    package enum Phase: Sendable {
        case starting, running, shutDown
    }

    /// What the client said it can show, from `initialize`.
    package struct ClientSupport: Sendable {
        package var hoverMarkdown = false
        package var completionMarkdown = false
        package var preselect = false
        package var documentChanges = false
        package var relatedInformation = false
        package var codeActionLiterals = false
    }

    package var phase = Phase.starting
    /// Set by `exit`: 0 after `shutdown`, 1 before it.
    public private(set) var exitCode: Int32?
    public private(set) var workspace = EditorWorkspace()

    /// The day waivers are judged by (`POLICYC_TODAY` for `policyc lsp`); nil: the UTC date.
    public mutating func judgeWaivers(on today: Day?) {
        workspace.checkOptions.today = today
    }
    public private(set) var encoding = PositionEncoding.utf16
    package var client = ClientSupport()
    /// The files on disk should be read again: the workspace folders changed, or a file was
    /// saved, closed or changed on disk. The caller reads them and calls `diskFilesRead`.
    public private(set) var diskScanWanted = false
    /// Documents whose findings are sent at the next `publishDiagnostics` even if unchanged (the
    /// client waits for them after an open, change or save).
    package var announce: Set<String> = []
    /// Findings may have changed since they were last worked out.
    package var dirty = false
    /// What was last sent for each open document.
    package var published: [String: JSON] = [:]
    /// The findings last worked out, by URI (code actions read their fixes).
    package var current: [String: [Diagnostic]] = [:]

    public init() {}

    public var isShutDown: Bool { phase == .shutDown }

    /// Whether `publishDiagnostics` has something to do.
    public var hasPendingDiagnostics: Bool { phase == .running && (dirty || !announce.isEmpty) }

    // MARK: messages

    /// Handles one message; returns the messages to send (a response, and for some notifications
    /// findings that must go at once). Findings of changed documents wait for `publishDiagnostics`,
    /// so a burst of changes is checked once.
    public mutating func receive(_ message: JSON) -> [JSON] {
        guard case .object(let m) = message else {
            return [Self.error(id: .null, .invalidRequest, "a message must be a JSON object (batches are not part of the protocol)")]
        }
        let hasID = m["id"] != nil
        let id = m["id"].flatMap(Self.validID)
        guard let method = m["method"]?.stringValue else {
            // A response to a request of ours (we send none that need one): nothing to do.
            if hasID && m["method"] == nil && (m["result"] != nil || m["error"] != nil) { return [] }
            return [Self.error(id: id ?? .null, .invalidRequest, "a request needs a method name (a string)")]
        }
        guard m["jsonrpc"]?.stringValue == "2.0" else {
            return [Self.error(id: id ?? .null, .invalidRequest, "a message needs \"jsonrpc\": \"2.0\"")]
        }
        if hasID {
            guard let id else { return [Self.error(id: .null, .invalidRequest, "an id must be a number or a string")] }
            // Absent or null (as clients send for `shutdown`), an object or an array.
            if let params = m["params"], !params.isNull, params.objectValue == nil, params.arrayValue == nil {
                return [Self.error(id: id, .invalidParams, "params must be an object or an array")]
            }
            switch request(method, params: m["params"] ?? .null) {
            case .success(let result): return [.object(["jsonrpc": .string("2.0"), "id": id, "result": result])]
            case .failure(let failure): return [Self.error(id: id, failure.code, failure.message)]
            }
        }
        return notification(method, params: m["params"] ?? .null)
    }

    /// A JSON-RPC error response.
    public static func error(id: JSON, _ code: ErrorCode, _ message: String) -> JSON {
        .object(["jsonrpc": .string("2.0"), "id": id,
                 "error": .object(["code": .int(code.rawValue), "message": .string(message)])])
    }

    package static func validID(_ id: JSON) -> JSON? {
        switch id {
        case .int, .string, .bigInt: return id
        case .double(let d) where d.isFinite: return id
        default: return nil
        }
    }

    package struct Failure: Error {
        package var code: ErrorCode
        package var message: String

        package init(_ code: ErrorCode, _ message: String) {
            self.code = code
            self.message = message
        }
    }

    package mutating func request(_ method: String, params: JSON) -> Result<JSON, Failure> {
        switch phase {
        case .starting:
            guard method == "initialize" else {
                return .failure(Failure(.serverNotInitialized, "the server is not initialized; send 'initialize' first"))
            }
            return .success(initialize(params))
        case .shutDown:
            return .failure(Failure(.invalidRequest, "the server is shut down; only 'exit' is accepted"))
        case .running:
            switch method {
            case "initialize":
                return .failure(Failure(.invalidRequest, "the server is already initialized"))
            case "shutdown":
                phase = .shutDown
                return .success(.null)
            case "textDocument/hover":
                return hover(params)
            case "textDocument/completion":
                return completion(params)
            case "textDocument/codeAction":
                return codeActions(params)
            default:
                return .failure(Failure(.methodNotFound, "unknown method '\(printable(method))'"))
            }
        }
    }

    package mutating func notification(_ method: String, params: JSON) -> [JSON] {
        if method == "exit" {
            exitCode = phase == .shutDown ? 0 : 1
            return []
        }
        // Before `initialize` and after `shutdown`, notifications are dropped.
        guard phase == .running else { return [] }
        switch method {
        case "initialized":
            diskScanWanted = true
        case "textDocument/didOpen":
            guard let item = params["textDocument"], let uri = item["uri"]?.stringValue,
                  let text = item["text"]?.stringValue else { return [] }
            workspace.openDocument(uri: uri, path: Self.path(of: uri), version: item["version"]?.intValue ?? 0,
                                   text: Array(text.utf8))
            touched(uri)
            // The files around it may have changed since the disk was last read.
            if !workspace.folders.isEmpty { diskScanWanted = true }
        case "textDocument/didChange":
            guard let uri = params["textDocument"]?["uri"]?.stringValue, workspace.open[uri] != nil,
                  let changes = params["contentChanges"]?.arrayValue else { return [] }
            var parsed: [EditorDocument.Change] = []
            for change in changes {
                guard let text = change["text"]?.stringValue else { return [] }
                if let range = change["range"] {
                    guard let r = Self.range(range) else { return [] }
                    parsed.append(.init(range: r, text: text))
                } else {
                    parsed.append(.init(range: nil, text: text))
                }
            }
            let version = params["textDocument"]?["version"]?.intValue ?? workspace.open[uri]!.document.version
            workspace.change(uri: uri, version: version, changes: parsed, encoding: encoding)
            touched(uri)
        case "textDocument/didSave":
            guard let uri = params["textDocument"]?["uri"]?.stringValue, workspace.open[uri] != nil else { return [] }
            if let text = params["text"]?.stringValue, text.utf8.elementsEqual(workspace.open[uri]!.document.bytes) == false {
                let version = workspace.open[uri]!.document.version
                workspace.change(uri: uri, version: version, changes: [.init(range: nil, text: text)], encoding: encoding)
            }
            touched(uri)
            diskScanWanted = true
        case "textDocument/didClose":
            guard let uri = params["textDocument"]?["uri"]?.stringValue, workspace.open[uri] != nil else { return [] }
            workspace.close(uri: uri)
            published[uri] = nil
            current[uri] = nil
            announce.remove(uri)
            dirty = true
            diskScanWanted = true
            // Its findings go with it.
            return [Self.notification("textDocument/publishDiagnostics",
                                      .object(["uri": .string(uri), "diagnostics": .array([])]))]
        case "workspace/didChangeWorkspaceFolders":
            guard let event = params["event"] else { return [] }
            let removed = Set((event["removed"]?.arrayValue ?? []).compactMap { $0["uri"]?.stringValue.flatMap(FileURI.path) })
            var folders = workspace.folders.filter { !removed.contains($0) }
            for added in event["added"]?.arrayValue ?? [] {
                if let path = added["uri"]?.stringValue.flatMap(FileURI.path), !folders.contains(path) { folders.append(path) }
            }
            workspace.setFolders(folders)
            dirty = true
            diskScanWanted = true
        case "workspace/didChangeWatchedFiles":
            diskScanWanted = true
        default:
            break  // `$/cancelRequest`, `$/setTrace` and anything unknown: nothing to do.
        }
        return []
    }

    package mutating func touched(_ uri: String) {
        announce.insert(uri)
        dirty = true
    }

    /// Where a document's file is: its path for a `file:` URI, else the URI itself (an untitled
    /// buffer has no file, and is a workspace file of its own).
    package static func path(of uri: String) -> String {
        FileURI.path(uri) ?? uri
    }

    package static func notification(_ method: String, _ params: JSON) -> JSON {
        .object(["jsonrpc": .string("2.0"), "method": .string(method), "params": params])
    }

    // MARK: initialize

    package mutating func initialize(_ params: JSON) -> JSON {
        phase = .running
        let capabilities = params["capabilities"] ?? .null
        let offered = capabilities["general"]?["positionEncodings"]?.arrayValue?.compactMap(\.stringValue) ?? []
        encoding = offered.contains(PositionEncoding.utf8.rawValue) ? .utf8 : .utf16
        let text = capabilities["textDocument"] ?? .null
        func offersMarkdown(_ formats: JSON?) -> Bool {
            formats?.arrayValue?.contains { $0.stringValue == "markdown" } ?? false
        }
        client.hoverMarkdown = offersMarkdown(text["hover"]?["contentFormat"])
        client.completionMarkdown = offersMarkdown(text["completion"]?["completionItem"]?["documentationFormat"])
        client.preselect = text["completion"]?["completionItem"]?["preselectSupport"]?.boolValue ?? false
        client.relatedInformation = text["publishDiagnostics"]?["relatedInformation"]?.boolValue ?? false
        client.codeActionLiterals = text["codeAction"]?["codeActionLiteralSupport"] != nil
        client.documentChanges = capabilities["workspace"]?["workspaceEdit"]?["documentChanges"]?.boolValue ?? false

        var folders: [String] = []
        if let listed = params["workspaceFolders"]?.arrayValue {
            folders = listed.compactMap { $0["uri"]?.stringValue.flatMap(FileURI.path) }
        }
        if folders.isEmpty, let root = params["rootUri"]?.stringValue.flatMap(FileURI.path) { folders = [root] }
        if folders.isEmpty, let root = params["rootPath"]?.stringValue, root.hasPrefix("/") { folders = [root] }
        workspace.setFolders(folders)
        diskScanWanted = !folders.isEmpty

        let sync: JSON = .object([
            "openClose": .bool(true),
            "change": .int(2),  // incremental; a change without a range replaces the whole text
            "save": .object(["includeText": .bool(false)]),
        ])
        return .object([
            "capabilities": .object([
                "positionEncoding": .string(encoding.rawValue),
                "textDocumentSync": sync,
                "hoverProvider": .bool(true),
                "completionProvider": .object([
                    "triggerCharacters": .array([.string(" "), .string("[")]),
                    "resolveProvider": .bool(false),
                ]),
                "codeActionProvider": .object([
                    "codeActionKinds": .array([.string("quickfix"), .string(Self.fixAllKind)]),
                    "resolveProvider": .bool(false),
                ]),
                "workspace": .object([
                    "workspaceFolders": .object(["supported": .bool(true), "changeNotifications": .bool(true)]),
                ]),
            ]),
            "serverInfo": .object(["name": .string("policyc"), "version": .string(PolicycVersion.string)]),
        ])
    }

    // MARK: files on disk

    /// The absolute paths of the workspace folders, for the caller to read.
    public var folders: [String] { workspace.folders }

    /// Whether the workspace holds the file on disk at `path` (absolute).
    public func knowsDiskFile(_ path: String) -> Bool { workspace.disk[path] != nil }

    /// What the caller read from disk after `diskScanWanted`: each workspace folder's policy set
    /// (`PolicySet.of`, from its project file) and the roots of them that are missing, when read;
    /// the policy files under the roots that are new or changed, and the files that are gone.
    /// Findings across files are worked out again at the next publish.
    public mutating func diskFilesRead(sets: [String: PolicySet]? = nil, missing: Set<String> = [],
                                       changed: [(path: String, bytes: [UInt8])], removed: [String]) {
        diskScanWanted = false
        if let sets, sets != workspace.sets || missing != workspace.missingRoots {
            workspace.setPolicySets(sets, missing: missing)
            dirty = true
        }
        for file in changed { workspace.setDiskFile(path: file.path, bytes: file.bytes) }
        for path in removed { workspace.removeDiskFile(path: path) }
        if !changed.isEmpty || !removed.isEmpty { dirty = true }
    }

    // MARK: diagnostics

    /// `textDocument/publishDiagnostics` for each open document whose findings changed, or that
    /// was opened, changed or saved since the last call.
    public mutating func publishDiagnostics() -> [JSON] {
        guard hasPendingDiagnostics else { return [] }
        if dirty {
            current = workspace.diagnostics()
            dirty = false
        }
        var out: [JSON] = []
        for uri in current.keys.sorted(by: utf8Precedes) {
            guard let open = workspace.open[uri] else { continue }
            let diagnostics = JSON.array(current[uri]!.map { lsp($0, in: uri) })
            guard announce.contains(uri) || published[uri] != diagnostics else { continue }
            published[uri] = diagnostics
            out.append(Self.notification("textDocument/publishDiagnostics", .object([
                "uri": .string(uri),
                "version": .int(open.document.version),
                "diagnostics": diagnostics,
            ])))
        }
        announce.removeAll()
        return out
    }

    /// A finding as the protocol's `Diagnostic`.
    package func lsp(_ d: Diagnostic, in uri: String) -> JSON {
        guard let lines = workspace.open[uri]?.document.lines else { return .null }
        var range = lines.range(of: d.span, encoding)
        if range.end.line > range.start.line {
            // A finding at a whole mapping (a missing key at the root) is underlined on its first
            // line, not over the whole file.
            range.end = lines.position(at: lines.editorLineEnd(range.start.line), encoding)
        }
        var message = d.message
        if let help = d.help { message += "\nhelp: " + help }
        // A waived finding is information, with the waiver that accepted it.
        if let accepted = d.acceptance { message += "\n" + accepted }
        var members: [String: JSON] = [
            "range": Self.json(range),
            "severity": .int(d.severity == .error ? 1 : d.severity == .warning ? 2 : 3),
            "code": .string(d.rule),
            "source": .string("policyc"),
        ]
        var related: [JSON] = []
        for r in d.related {
            guard let location = workspace.location(of: r, from: uri, encoding: encoding) else { continue }
            if client.relatedInformation {
                related.append(.object([
                    "location": .object(["uri": .string(location.uri ?? FileURI.uri(location.path)), "range": Self.json(location.range)]),
                    "message": .string(r.message),
                ]))
            } else {
                message += "\n\(r.message) (\(r.file):\(r.span.start.line):\(r.span.start.column))"
            }
        }
        if !related.isEmpty { members["relatedInformation"] = .array(related) }
        members["message"] = .string(message)
        return .object(members)
    }

    package static func json(_ p: EditorPosition) -> JSON {
        .object(["line": .int(p.line), "character": .int(p.character)])
    }

    package static func json(_ r: EditorRange) -> JSON {
        .object(["start": json(r.start), "end": json(r.end)])
    }

    package static func position(_ json: JSON?) -> EditorPosition? {
        guard let line = json?["line"]?.intValue, let character = json?["character"]?.intValue else { return nil }
        return EditorPosition(line: line, character: character)
    }

    package static func range(_ json: JSON?) -> EditorRange? {
        guard let start = position(json?["start"]), let end = position(json?["end"]) else { return nil }
        return EditorRange(start: start, end: end)
    }

    // MARK: requests on a document

    /// The open document and the byte offset a request names.
    package func documentAndOffset(_ params: JSON) -> Result<(uri: String, open: EditorWorkspace.Open, offset: Int)?, Failure> {
        guard let uri = params["textDocument"]?["uri"]?.stringValue else {
            return .failure(Failure(.invalidParams, "textDocument.uri is missing"))
        }
        guard let position = Self.position(params["position"]) else {
            return .failure(Failure(.invalidParams, "position (line and character) is missing"))
        }
        guard let open = workspace.open[uri] else { return .success(nil) }
        return .success((uri, open, open.document.lines.offset(of: position, encoding)))
    }

    package mutating func hover(_ params: JSON) -> Result<JSON, Failure> {
        workspace.checkOpenDocuments()
        return documentAndOffset(params).map { found in
            guard let (_, open, offset) = found, open.kind != .other else { return .null }
            let lines = open.document.lines
            guard let answer = Hover.answer(lines: lines, offset: offset, doc: open.checked?.doc ?? open.lastGoodDoc,
                                            markdown: client.hoverMarkdown, kind: open.kind) else { return .null }
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

    package func completion(_ params: JSON) -> Result<JSON, Failure> {
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

    /// The kind of the action that applies every safe fix, as `lint --fix` does.
    package static let fixAllKind = "source.fixAll.policyc"
    /// At most this many quick fixes in one answer: each is checked to leave the text readable.
    package static let maxQuickFixes = 100
    /// Of those, at most this many checked alone (each costs a parse of the whole text).
    package static let maxFixesCheckedAlone = 8

    package mutating func codeActions(_ params: JSON) -> Result<JSON, Failure> {
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
    /// for that finding: placed with `Fixer`'s map of the text, and offered only when the text
    /// still reads as YAML afterwards (as `Fixer` keeps only such fixes).
    package func quickFixes(_ diagnostics: [Diagnostic], uri: String, document: EditorDocument, asked: EditorRange) -> [JSON] {
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
        let map = SourceMap(bytes)
        var actions: [JSON] = []
        for (i, candidate) in candidates.enumerated() {
            guard let placed = Fixer.byteEdits(candidate.fix, in: map) else { continue }
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
    package func fixAll(uri: String, document: EditorDocument) -> JSON? {
        let bytes = document.bytes
        guard bytes.count <= Loader.maxBytes else { return nil }
        let outcome = Fixer.fix(bytes, path: workspace.displayPath(of: document.path), unsafe: false)
        guard outcome.changed, outcome.bytes != bytes else { return nil }
        let fixed = outcome.bytes
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
    package static func shared(_ a: [UInt8], _ b: [UInt8]) -> (head: Int, tail: Int) {
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
    package func workspaceEdit(uri: String, document: EditorDocument, edits: [JSON]) -> JSON {
        client.documentChanges
            ? .object(["documentChanges": .array([.object([
                "textDocument": .object(["uri": .string(uri), "version": .int(document.version)]),
                "edits": .array(edits),
            ])])])
            : .object(["changes": .object([uri: .array(edits)])])
    }
}
