import Testing
@testable import PolicySource
@testable import PolicyCheck
@testable import PolicyFormat
@testable import PolicyEditor
@testable import TestSupport

/// `textDocument/formatting`: the text `policyc fmt` writes, as one edit of the whole document.
@Suite struct EditorFormattingTests {
    static func formatting(_ server: inout LanguageServer, uri: String = EditorServerTests.uri) -> JSON? {
        server.receive(EditorServerTests.request(7, "textDocument/formatting", .object([
            "textDocument": .object(["uri": .string(uri)]),
            "options": .object(["tabSize": .int(2), "insertSpaces": .bool(true)]),
        ]))).first?["result"]
    }

    @Test func theServerSaysItFormats() {
        var server = LanguageServer()
        let reply = server.receive(EditorServerTests.request(1, "initialize", .object(["capabilities": .object([:])])))
        #expect(reply.first?["result"]?["capabilities"]?["documentFormattingProvider"] == .bool(true))
    }

    /// One edit from the start to the end in UTF-16 units (the last line holds characters of
    /// two units), with the text `policyc fmt` writes.
    @Test func aDocumentIsReplacedWholeByItsFormattedText() throws {
        var server = EditorServerTests.initialized(encodings: nil)
        let text = "policy: p\nversion:    1\ndescription: \"🎬 é\""
        _ = EditorServerTests.open(&server, text)
        let edits = try #require(Self.formatting(&server)?.arrayValue)
        #expect(edits.count == 1)
        let range: JSON = .object([
            "start": .object(["line": .int(0), "character": .int(0)]),
            "end": .object(["line": .int(2), "character": .int(19)]),
        ])
        #expect(edits.first?["range"] == range)
        #expect(edits.first?["newText"] == .string("version: 1\npolicy: p\ndescription: 🎬 é\n"))
    }

    @Test func noEditForAFormattedDocumentOrOneThatIsNotYAML() {
        var server = EditorServerTests.initialized()
        _ = EditorServerTests.open(&server, Canonical.text)
        #expect(Self.formatting(&server) == .array([]))
        _ = EditorServerTests.open(&server, "version: 1\npolicy: [a\n", version: 2)
        #expect(Self.formatting(&server) == .array([]))
        #expect(Self.formatting(&server, uri: "file:///work/Policies/closed.yaml") == .null)
    }
}
