import Testing
@testable import PolicySource
@testable import PolicyCheck
@testable import PolicyReport
@testable import PolicyCodegen
@testable import PolicySimulation
@testable import PolicyReview
@testable import PolicyEditor
@testable import PolicyWorkspace
@testable import TestSupport

/// The language server's protocol, message by message, without a process: the life cycle,
/// errors, document sync and the findings it pushes (the same as `lint`'s).
@Suite struct EditorServerTests {
    static let uri = "file:///work/Policies/playback.yaml"

    static func request(_ id: Int, _ method: String, _ params: JSON = .object([:])) -> JSON {
        .object(["jsonrpc": .string("2.0"), "id": .int(id), "method": .string(method), "params": params])
    }

    static func notification(_ method: String, _ params: JSON = .object([:])) -> JSON {
        .object(["jsonrpc": .string("2.0"), "method": .string(method), "params": params])
    }

    static func initialized(encodings: [String]? = ["utf-8", "utf-16"], markdown: Bool = true,
                            documentChanges: Bool = true) -> LanguageServer {
        var server = LanguageServer()
        var general: [String: JSON] = [:]
        if let encodings { general["positionEncodings"] = .array(encodings.map(JSON.string)) }
        let formats: JSON = .array(markdown ? [.string("markdown"), .string("plaintext")] : [.string("plaintext")])
        let capabilities: JSON = .object([
            "general": .object(general),
            "textDocument": .object([
                "hover": .object(["contentFormat": formats]),
                "completion": .object(["completionItem": .object(["documentationFormat": formats])]),
                "publishDiagnostics": .object(["relatedInformation": .bool(true)]),
                "codeAction": .object(["codeActionLiteralSupport": .object([:])]),
            ]),
            "workspace": .object(["workspaceEdit": .object(["documentChanges": .bool(documentChanges)])]),
        ])
        _ = server.receive(request(1, "initialize", .object(["capabilities": capabilities, "rootUri": .null])))
        _ = server.receive(notification("initialized"))
        return server
    }

    static func open(_ server: inout LanguageServer, _ text: String, uri: String = uri, version: Int = 1) -> [JSON] {
        _ = server.receive(notification("textDocument/didOpen", .object(["textDocument": .object([
            "uri": .string(uri), "languageId": .string("yaml"), "version": .int(version), "text": .string(text),
        ])])))
        return server.publishDiagnostics()
    }

    static func errorCode(_ replies: [JSON]) -> Int? {
        replies.first?["error"]?["code"]?.intValue
    }

    // MARK: life cycle

    @Test func negotiatesUTF8WhenOfferedElseUTF16() {
        var server = LanguageServer()
        let reply = server.receive(Self.request(1, "initialize", .object(["capabilities": .object([
            "general": .object(["positionEncodings": .array([.string("utf-16"), .string("utf-8")])]),
        ])])))
        #expect(reply.first?["result"]?["capabilities"]?["positionEncoding"] == .string("utf-8"))
        #expect(server.encoding == .utf8)
        var other = LanguageServer()
        let plain = other.receive(Self.request(1, "initialize", .object(["capabilities": .object([:])])))
        #expect(plain.first?["result"]?["capabilities"]?["positionEncoding"] == .string("utf-16"))
        #expect(Self.initialized(encodings: ["utf-32", "utf-16"]).encoding == .utf16)
    }

    @Test func lifeCycleAndErrors() {
        var server = LanguageServer()
        #expect(Self.errorCode(server.receive(Self.request(1, "textDocument/hover"))) == -32002)
        #expect(server.receive(Self.notification("textDocument/didOpen")).isEmpty)
        _ = server.receive(Self.request(2, "initialize", .object(["capabilities": .object([:])])))
        #expect(Self.errorCode(server.receive(Self.request(3, "initialize"))) == -32600)
        #expect(Self.errorCode(server.receive(Self.request(4, "workspace/symbol"))) == -32601)
        #expect(Self.errorCode(server.receive(Self.request(4, "$/unknown"))) == -32601)
        // Null params are no params (clients send them with `shutdown`).
        #expect(Self.errorCode(server.receive(Self.request(4, "custom/request", .null))) == -32601)
        #expect(server.receive(Self.notification("$/unknownNotification")).isEmpty)
        #expect(server.receive(Self.notification("custom/thing")).isEmpty)
        #expect(Self.errorCode(server.receive(Self.request(5, "textDocument/hover", .object([:])))) == -32602)
        #expect(Self.errorCode(server.receive(Self.request(5, "textDocument/hover", .string("x")))) == -32602)
        // Not a request at all.
        #expect(Self.errorCode(server.receive(.array([]))) == -32600)
        #expect(Self.errorCode(server.receive(.object(["jsonrpc": .string("2.0"), "id": .int(6)]))) == -32600)
        #expect(Self.errorCode(server.receive(.object(["id": .int(6), "method": .string("shutdown")]))) == -32600)
        let badID = server.receive(.object(["jsonrpc": .string("2.0"), "id": .array([]), "method": .string("shutdown")]))
        #expect(Self.errorCode(badID) == -32600 && badID.first?["id"] == .null)
        // A response to us: nothing to say.
        #expect(server.receive(.object(["jsonrpc": .string("2.0"), "id": .int(1), "result": .null])).isEmpty)
        let shutdown = server.receive(Self.request(7, "shutdown"))
        #expect(shutdown.first?["result"] == .null && shutdown.first?["error"] == nil && shutdown.first?["id"] == .int(7))
        #expect(Self.errorCode(server.receive(Self.request(8, "textDocument/hover"))) == -32600)
        #expect(server.exitCode == nil)
        _ = server.receive(Self.notification("exit"))
        #expect(server.exitCode == 0)
    }

    @Test func exitWithoutShutdownIsOne() {
        var server = Self.initialized()
        _ = server.receive(Self.notification("exit"))
        #expect(server.exitCode == 1)
    }

    @Test func idsAreEchoedAsGiven() {
        var server = Self.initialized()
        let reply = server.receive(.object(["jsonrpc": .string("2.0"), "id": .string("abc"), "method": .string("nope")]))
        #expect(reply.first?["id"] == .string("abc"))
    }

    // MARK: findings

    /// The pushed findings are lint's: same rules at the same positions, converted.
    @Test func diagnosticsAreLintsFindings() throws {
        var server = Self.initialized(encodings: nil)
        let text = Canonical.text
            .replacingFirst("maxRetries: 3", with: "maxRetries: 4")
            .replacingFirst("description: Ticket requests made by the iOS and Android players.", with: "description: 😀😀 \"x\"")
            .replacingFirst("cap: 8s", with: "cap: 8 sec")
            .replacingFirst("retryOn: [network, 429, 500, 502, 503]", with: "retryOn: [\"😀\", network, 429, 500, 502, 503, 404]")
        let published = Self.open(&server, text)
        #expect(published.count == 1)
        let params = try #require(published.first?["params"])
        #expect(params["uri"] == .string(Self.uri) && params["version"] == .int(1))
        let got = try #require(params["diagnostics"]?.arrayValue)
        let lint = Checker.check(Array(text.utf8), path: "Policies/playback.yaml").diagnostics
        #expect(got.count == lint.count && lint.count >= 4)
        let lines = LineIndex(text)
        for (g, l) in zip(got, lint) {
            #expect(g["code"] == .string(l.rule.rawValue))
            #expect(g["source"] == .string("policyc"))
            #expect(g["severity"] == .int(l.severity == .error ? 1 : 2))
            let start = lines.position(of: l.span.start, .utf16)
            #expect(g["range"]?["start"] == .object(["line": .int(start.line), "character": .int(start.character)]))
            #expect(g["message"]?.stringValue?.hasPrefix(l.message) == true)
            if let help = l.help { #expect(g["message"]?.stringValue?.hasSuffix("help: " + help) == true) }
        }
        // The 404 after an emoji: in UTF-16 the emoji is two units.
        let status = try #require(got.first { $0["code"] == .string("retry-statuses") && $0["message"]?.stringValue?.contains("404") == true })
        let line = text.split(separator: "\n", omittingEmptySubsequences: false).first { $0.contains("404") }!
        let before = line[..<line.range(of: "404")!.lowerBound]
        #expect(status["range"]?["start"]?["character"]?.intValue == before.utf16.count)
        #expect(status["range"]?["end"]?["character"]?.intValue == before.utf16.count + 3)
    }

    /// Incremental changes apply in order, in the agreed units; the document's findings follow.
    @Test func waivedFindingsAreInformationWithTheWaiver() throws {
        var server = Self.initialized(encodings: nil)
        server.judgeWaivers(on: Day(year: 2027, month: 1, day: 15))
        let text = Canonical.text.replacingFirst("maxRetries: 3", with: "maxRetries: 4")
            + "\nwaivers:\n  - rule: interactive-retries-max\n    reason: PAY-311\n    owner: \"@payments\"\n    expires: 2027-03-31\n"
        let published = Self.open(&server, text)
        let got = try #require(published.first?["params"]?["diagnostics"]?.arrayValue)
        #expect(got.count == 1)
        #expect(got.first?["severity"] == .int(3) && got.first?["code"] == .string("interactive-retries-max"))
        #expect(got.first?["message"]?.stringValue?.contains("waived until 2027-03-31 by @payments") == true)
        // Past the expiry the finding is an error again.
        server.judgeWaivers(on: Day(year: 2027, month: 4, day: 1))
        let later = Self.open(&server, text, uri: "file:///tmp/other/Policies/playback.yaml")
        let errors = try #require(later.first?["params"]?["diagnostics"]?.arrayValue)
        #expect(errors.map { $0["severity"] } == [.int(1), .int(1)])
    }

    @Test func incrementalChanges() throws {
        var server = Self.initialized()
        _ = Self.open(&server, Canonical.text)
        let line = Canonical.text.split(separator: "\n", omittingEmptySubsequences: false)
        let row = try #require(line.firstIndex { $0.contains("maxRetries: 3") })
        let column = try #require(line[row].range(of: "3")).lowerBound.utf16Offset(in: line[row])
        func change(_ version: Int, _ start: Int, _ end: Int, _ text: String) -> JSON {
            Self.notification("textDocument/didChange", .object([
                "textDocument": .object(["uri": .string(Self.uri), "version": .int(version)]),
                "contentChanges": .array([.object([
                    "range": .object([
                        "start": .object(["line": .int(row), "character": .int(start)]),
                        "end": .object(["line": .int(row), "character": .int(end)]),
                    ]),
                    "text": .string(text),
                ])]),
            ]))
        }
        _ = server.receive(change(2, column, column + 1, "7"))
        _ = server.receive(change(3, column, column, "😀"))  // 😀7
        _ = server.receive(change(4, column, column + 4, ""))  // UTF-8: the emoji is four bytes
        let published = server.publishDiagnostics()
        #expect(published.count == 1)
        #expect(published.first?["params"]?["version"] == .int(4))
        let codes = published.first?["params"]?["diagnostics"]?.arrayValue?.compactMap { $0["code"]?.stringValue }
        #expect(codes == ["interactive-retries-max"])
        #expect(server.workspace.open[Self.uri]?.document.bytes == Array(Canonical.text.replacingFirst("maxRetries: 3", with: "maxRetries: 7").utf8))
        // Nothing changed since: nothing more to send.
        #expect(server.publishDiagnostics().isEmpty)
        // A full change replaces the text; findings are sent even when they are the same.
        _ = server.receive(Self.notification("textDocument/didChange", .object([
            "textDocument": .object(["uri": .string(Self.uri), "version": .int(5)]),
            "contentChanges": .array([.object(["text": .string(Canonical.text + "# a comment\n")])]),
        ])))
        let again = server.publishDiagnostics()
        #expect(again.first?["params"]?["diagnostics"] == .array([]))
        _ = server.receive(Self.notification("textDocument/didChange", .object([
            "textDocument": .object(["uri": .string(Self.uri), "version": .int(6)]),
            "contentChanges": .array([.object(["text": .string(Canonical.text)])]),
        ])))
        #expect(server.publishDiagnostics().count == 1)
        // Closing clears them.
        let closed = server.receive(Self.notification("textDocument/didClose", .object(["textDocument": .object(["uri": .string(Self.uri)])])))
        #expect(closed.first?["params"]?["diagnostics"] == .array([]))
    }

    /// Saving sends the findings again (and asks for the disk to be read: the file changed there).
    @Test func saveSendsFindings() {
        var server = Self.initialized()
        _ = Self.open(&server, Canonical.text.replacingFirst("cap: 8s", with: "cap: 8 sec"))
        #expect(server.publishDiagnostics().isEmpty)
        _ = server.receive(Self.notification("textDocument/didSave", .object(["textDocument": .object(["uri": .string(Self.uri)])])))
        let published = server.publishDiagnostics()
        #expect(published.count == 1 && published.first?["params"]?["diagnostics"]?.arrayValue?.count == 1)
        #expect(server.diskScanWanted)
    }

    /// Over 1 MiB: one `input-limit` finding, as `lint` gives.
    @Test func oversizedDocumentIsOneFinding() throws {
        var server = Self.initialized()
        let text = Canonical.text + "# " + String(repeating: "x", count: Loader.maxBytes) + "\n"
        let published = Self.open(&server, text)
        let got = try #require(published.first?["params"]?["diagnostics"]?.arrayValue)
        #expect(got.count == 1 && got.first?["code"] == .string("input-limit"))
    }

    /// Two open documents with one policy name: the later file (in lint's order) gets the finding,
    /// pointing at the first; renaming one clears it for both.
    @Test func policyNamesAcrossOpenDocuments() throws {
        var server = Self.initialized()
        let a = "file:///work/Policies/a.yaml", b = "file:///work/Policies/b.yaml"
        _ = Self.open(&server, Canonical.text, uri: b)
        let published = Self.open(&server, Canonical.text, uri: a)
        let forB = try #require(published.first { $0["params"]?["uri"] == .string(b) })
        let finding = try #require(forB["params"]?["diagnostics"]?.arrayValue?.first)
        #expect(finding["code"] == .string("name-collision"))
        let related = try #require(finding["relatedInformation"]?.arrayValue?.first)
        #expect(related["location"]?["uri"] == .string(a))
        #expect(related["location"]?["range"]?["start"] == .object(["line": .int(1), "character": .int(8)]))
        let forA = try #require(published.first { $0["params"]?["uri"] == .string(a) })
        #expect(forA["params"]?["diagnostics"] == .array([]))
        _ = server.receive(Self.notification("textDocument/didChange", .object([
            "textDocument": .object(["uri": .string(a), "version": .int(2)]),
            "contentChanges": .array([.object(["text": .string(Canonical.text.replacingFirst("policy: playback", with: "policy: other"))])]),
        ])))
        let after = server.publishDiagnostics()
        #expect(after.count == 2)
        #expect(after.allSatisfy { $0["params"]?["diagnostics"] == .array([]) })
    }

    /// A duplicate key is related to the first, in the same document.
    @Test func duplicateKeyIsRelatedToTheFirst() throws {
        var server = Self.initialized(encodings: nil)
        let text = Canonical.text.replacingFirst("  ahead: 2", with: "  ahead: 2\n  \"😀\": 1\n  ahead: 3")
        let published = Self.open(&server, text)
        let findings = try #require(published.first?["params"]?["diagnostics"]?.arrayValue)
        let duplicate = try #require(findings.first { $0["code"] == .string("yaml-duplicate-key") })
        let related = try #require(duplicate["relatedInformation"]?.arrayValue?.first)
        #expect(related["location"]?["uri"] == .string(Self.uri))
        let row = text.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.hasPrefix("  ahead: 2") }!
        #expect(related["location"]?["range"]?["start"] == .object(["line": .int(row), "character": .int(2)]))
        #expect(duplicate["range"]?["start"] == .object(["line": .int(row + 2), "character": .int(2)]))
    }

    /// A file on disk under the workspace folder counts, unless it is open.
    @Test func policyNamesOnDisk() throws {
        var server = LanguageServer()
        _ = server.receive(Self.request(1, "initialize", .object(["capabilities": .object([:]), "rootUri": .string("file:///work")])))
        #expect(server.diskScanWanted && server.folders == ["/work"])
        server.diskFilesRead(changed: [("/work/Policies/a.yaml", Array(Canonical.text.utf8))], removed: [])
        let published = Self.open(&server, Canonical.text, uri: "file:///work/Policies/b.yaml")
        let finding = try #require(published.first?["params"]?["diagnostics"]?.arrayValue?.first)
        #expect(finding["code"] == .string("name-collision"))
        // Without related-information support, the other place is in the message.
        #expect(finding["message"]?.stringValue?.contains("Policies/a.yaml:2:9") == true)
        server.diskFilesRead(changed: [], removed: ["/work/Policies/a.yaml"])
        #expect(server.publishDiagnostics().first?["params"]?["diagnostics"] == .array([]))
    }

    /// YAML in a workspace folder that is not one of its policies: empty findings are published
    /// (the client clears what it showed), and no fix, completion or hover is offered.
    @Test func otherYAMLGetsNothing() throws {
        var server = LanguageServer()
        _ = server.receive(Self.request(1, "initialize", .object(["capabilities": .object([
            "textDocument": .object(["codeAction": .object(["codeActionLiteralSupport": .object([:])])]),
        ]), "rootUri": .string("file:///work")])))
        _ = server.receive(Self.notification("initialized"))
        server.diskFilesRead(sets: ["/work": PolicySet.of(folder: "/work", projectFile: ("policyc.yaml", Array("version: 1\npolicies: [Policies]\n".utf8)),
                                                          hasPoliciesFolder: true)], changed: [], removed: [])
        let uri = "file:///work/.github/workflows/ci.yml"
        let text = "name: CI\non: [push]\njobs:\n  test:\n    runs-on: ubuntu-latest\n"
        let published = Self.open(&server, text, uri: uri)
        #expect(published.count == 1 && published.first?["params"]?["uri"] == .string(uri))
        #expect(published.first?["params"]?["diagnostics"] == .array([]))
        let whole: JSON = .object(["start": .object(["line": .int(0), "character": .int(0)]),
                                   "end": .object(["line": .int(5), "character": .int(0)])])
        let actions = server.receive(Self.request(2, "textDocument/codeAction", .object([
            "textDocument": .object(["uri": .string(uri)]), "range": whole,
            "context": .object(["diagnostics": .array([]), "only": .array([.string("quickfix"), .string("source.fixAll")])]),
        ])))
        #expect(actions.first?["result"] == .array([]))
        let at: JSON = .object(["textDocument": .object(["uri": .string(uri)]), "position": .object(["line": .int(0), "character": .int(1)])])
        #expect(server.receive(Self.request(3, "textDocument/hover", at)).first?["result"] == .null)
        let completion = server.receive(Self.request(4, "textDocument/completion", .object([
            "textDocument": .object(["uri": .string(uri)]), "position": .object(["line": .int(5), "character": .int(0)]),
        ])))
        #expect(completion.first?["result"]?["items"] == .array([]))
        // The same text under Policies/ is a policy: findings, and completion of its keys.
        let policy = Self.open(&server, text, uri: "file:///work/Policies/ci.yaml")
        #expect(policy.first?["params"]?["diagnostics"]?.arrayValue?.isEmpty == false)
    }

    // MARK: code actions

    /// A finding's fix becomes a quick fix: safe ones preferred, unsafe ones labelled, the edit
    /// in the agreed units (the fixes themselves come from the rules).
    @Test func fixesBecomeQuickFixes() throws {
        for documentChanges in [true, false] {
            var server = Self.initialized(documentChanges: documentChanges)
            let text = "a: 😀😀 8 sec\n"
            _ = Self.open(&server, text)
            let document = try #require(server.workspace.open[Self.uri]?.document)
            let value = Span(start: Mark(line: 1, column: 7), end: Mark(line: 1, column: 12))
            let safe = Diagnostic(span: value, severity: .error, rule: "type-mismatch", message: "m",
                                  fix: Fix(.safe, "write 8s", edits: [TextEdit(value, "8s")]))
            let unsafe = Diagnostic(span: value, severity: .error, rule: "timeout-min", message: "n",
                                    fix: Fix(.unsafe, "write 5s", edits: [TextEdit(value, "5s")]))
            let plain = Diagnostic(span: value, severity: .error, rule: "x", message: "no fix")
            let everywhere = EditorRange(start: EditorPosition(line: 0, character: 0), end: EditorPosition(line: 0, character: 0))
            let actions = server.quickFixes([safe, unsafe, plain], uri: Self.uri, document: document,
                                            asked: EditorRange(start: everywhere.start, end: EditorPosition(line: 0, character: 12)))
            try #require(actions.count == 2)
            #expect(actions[0]["title"] == .string("write 8s") && actions[0]["isPreferred"] == .bool(true))
            #expect(actions[1]["title"] == .string("write 5s (unsafe)") && actions[1]["isPreferred"] == .bool(false))
            #expect(actions.allSatisfy { $0["kind"] == .string("quickfix") && $0["diagnostics"]?.arrayValue?.count == 1 })
            let edits = documentChanges
                ? actions[0]["edit"]?["documentChanges"]?.arrayValue?.first?["edits"]
                : actions[0]["edit"]?["changes"]?[Self.uri]
            // "a: 😀😀 " is 12 bytes in UTF-8.
            #expect(edits == .array([.object([
                "range": .object(["start": .object(["line": .int(0), "character": .int(12)]),
                                  "end": .object(["line": .int(0), "character": .int(17)])]),
                "newText": .string("8s"),
            ])]))
            // A range that does not meet the finding gets nothing.
            #expect(server.quickFixes([safe], uri: Self.uri, document: document, asked: everywhere).isEmpty)
        }
    }

    @Test func codeActionRequestAnswersAList() {
        var server = Self.initialized()
        _ = Self.open(&server, Canonical.text.replacingFirst("cap: 8s", with: "cap: 8 sec"))
        let range: JSON = .object(["start": .object(["line": .int(0), "character": .int(0)]),
                                   "end": .object(["line": .int(40), "character": .int(0)])])
        let reply = server.receive(Self.request(9, "textDocument/codeAction", .object([
            "textDocument": .object(["uri": .string(Self.uri)]), "range": range,
            "context": .object(["diagnostics": .array([])]),
        ])))
        #expect(reply.first?["result"]?.arrayValue != nil)
        let onlySource = server.receive(Self.request(10, "textDocument/codeAction", .object([
            "textDocument": .object(["uri": .string(Self.uri)]), "range": range,
            "context": .object(["diagnostics": .array([]), "only": .array([.string("source.organizeImports")])]),
        ])))
        #expect(onlySource.first?["result"] == .array([]))
    }

    /// The project file's did-you-mean mistakes get the quick fixes a policy's get.
    @Test func theProjectFileGetsQuickFixes() throws {
        var server = Self.initialized()
        let uri = "file:///work/policyc.yaml"
        _ = Self.open(&server, "version: 1\nkotlinPakage: com.x\ntargets: [swfit]\n", uri: uri)
        let range: JSON = .object(["start": .object(["line": .int(0), "character": .int(0)]),
                                   "end": .object(["line": .int(3), "character": .int(0)])])
        let reply = server.receive(Self.request(9, "textDocument/codeAction", .object([
            "textDocument": .object(["uri": .string(uri)]), "range": range,
            "context": .object(["diagnostics": .array([])]),
        ])))
        let titles = reply.first?["result"]?.arrayValue?.compactMap { $0["title"]?.stringValue }
        #expect(titles == ["rename 'kotlinPakage' to 'kotlinPackage' (unsafe)", "write swift (unsafe)"], "\(reply)")
    }

    /// The fix-all edit spans the bytes that change, never part of a character or of a CRLF.
    @Test func fixAllEditBoundaries() {
        func cut(_ a: String, _ b: String) -> (String, String) {
            let (x, y) = (Array(a.utf8), Array(b.utf8))
            let (head, tail) = LanguageServer.shared(x, y)
            return (String(decoding: x[head..<(x.count - tail)], as: UTF8.self), String(decoding: y[head..<(y.count - tail)], as: UTF8.self))
        }
        #expect(cut("cap: 8 sec\n", "cap: 8s\n") == (" sec", "s"))
        // é (C3 A9) and è (C3 A8) share their first byte: the edit takes the whole character.
        #expect(cut("a: é\n", "a: è\n") == ("é", "è"))
        #expect(cut("a: 😀x", "a: 😁x") == ("😀", "😁"))
        // A line end changed from LF to CRLF, and a CRLF not split from its LF.
        #expect(cut("a\nb", "a\r\nb") == ("\n", "\r\n"))
        #expect(cut("a\r\nb", "a\r\nc\r\nb") == ("", "c\r\n"))
        #expect(cut("x: 1\r\n", "x: 1\r\ny: 2\r\n") == ("", "y: 2\r\n"))
        #expect(cut("abc", "abc") == ("", ""))
        #expect(cut("", "abc") == ("", "abc"))
    }

    /// `source.fixAll.policyc` only when asked for, and only for a policy.
    @Test func fixAllWhenAsked() throws {
        var server = Self.initialized()
        let text = Canonical.text.replacingFirst("cap: 8s", with: "cap: 8 sec").replacingFirst("honor: true", with: "honor: yes")
        _ = Self.open(&server, text)
        func ask(_ only: [String]?) -> [JSON] {
            var context: [String: JSON] = ["diagnostics": .array([])]
            if let only { context["only"] = .array(only.map(JSON.string)) }
            let reply = server.receive(Self.request(9, "textDocument/codeAction", .object([
                "textDocument": .object(["uri": .string(Self.uri)]),
                "range": .object(["start": .object(["line": .int(0), "character": .int(0)]),
                                  "end": .object(["line": .int(60), "character": .int(0)])]),
                "context": .object(context),
            ])))
            return reply.first?["result"]?.arrayValue ?? []
        }
        #expect(ask(nil).map { $0["kind"] } == [.string("quickfix"), .string("quickfix")])
        let all = try #require(ask(["source.fixAll"]).first)
        #expect(all["kind"] == .string("source.fixAll.policyc"))
        #expect(all["title"] == .string("Fix all safe findings (2 fixes)"))
        #expect(ask(["source"]).count == 1 && ask(["quickfix", "source.fixAll.policyc"]).count == 3)
        #expect(ask(["source.organizeImports"]).isEmpty && ask(["source.fixAll.other"]).isEmpty)
    }
}
