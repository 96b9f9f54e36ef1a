import PolicySource
import PolicyCheck
import PolicyReport
import PolicyCodegen
import PolicySimulation
import PolicyReview

/// `initialize`: the client's capabilities in, the server's out.
extension LanguageServer {
    mutating func initialize(_ params: JSON) -> JSON {
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
                "documentFormattingProvider": .bool(true),
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
}
