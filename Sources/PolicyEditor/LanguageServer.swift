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

    enum Phase: Sendable {
        case starting, running, shutDown
    }

    /// What the client said it can show, from `initialize`.
    struct ClientSupport: Sendable {
        var hoverMarkdown = false
        var completionMarkdown = false
        var preselect = false
        var documentChanges = false
        var relatedInformation = false
        var codeActionLiterals = false
    }

    var phase = Phase.starting
    /// Set by `exit`: 0 after `shutdown`, 1 before it.
    public internal(set) var exitCode: Int32?
    public internal(set) var workspace = EditorWorkspace()

    /// The day waivers are judged by (`POLICYC_TODAY` for `policyc lsp`); nil: the UTC date.
    public mutating func judgeWaivers(on today: Day?) {
        workspace.checkOptions.today = today
    }

    /// Where the files a policy `extends` are read from (`policyc lsp`: the disk).
    public mutating func readParents(with reader: ParentReader) {
        workspace.checkOptions.parents = reader
    }
    public internal(set) var encoding = PositionEncoding.utf16
    var client = ClientSupport()
    /// The files on disk should be read again: the workspace folders changed, or a file was
    /// saved, closed or changed on disk. The caller reads them and calls `diskFilesRead`.
    public internal(set) var diskScanWanted = false
    /// Documents whose findings are sent at the next `publishDiagnostics` even if unchanged (the
    /// client waits for them after an open, change or save).
    var announce: Set<String> = []
    /// Findings may have changed since they were last worked out.
    var dirty = false
    /// What was last sent for each open document.
    var published: [String: JSON] = [:]
    /// The findings last worked out, by URI (code actions read their fixes).
    var current: [String: [Diagnostic]] = [:]

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

    static func validID(_ id: JSON) -> JSON? {
        switch id {
        case .int, .string, .bigInt: return id
        case .double(let d) where d.isFinite: return id
        default: return nil
        }
    }

    struct Failure: Error {
        var code: ErrorCode
        var message: String

        init(_ code: ErrorCode, _ message: String) {
            self.code = code
            self.message = message
        }
    }

    mutating func request(_ method: String, params: JSON) -> Result<JSON, Failure> {
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
            case "textDocument/formatting":
                return formatting(params)
            default:
                return .failure(Failure(.methodNotFound, "unknown method '\(printable(method))'"))
            }
        }
    }

    mutating func notification(_ method: String, params: JSON) -> [JSON] {
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

    mutating func touched(_ uri: String) {
        announce.insert(uri)
        dirty = true
    }

    /// Where a document's file is: its path for a `file:` URI, else the URI itself (an untitled
    /// buffer has no file, and is a workspace file of its own).
    static func path(of uri: String) -> String {
        FileURI.path(uri) ?? uri
    }

    static func notification(_ method: String, _ params: JSON) -> JSON {
        .object(["jsonrpc": .string("2.0"), "method": .string(method), "params": params])
    }
}
