import Testing
@testable import PolicySource
@testable import TestSupport

/// The JSON parser the language server reads its client with: RFC 8259 exactly, and hostile
/// input (deep nesting, broken text, invalid UTF-8) a failure, never a crash.
@Suite struct EditorJSONParserTests {
    func parse(_ text: String) -> JSON? {
        try? JSONParser.parse(text).get()
    }

    @Test func valuesOfEveryKind() {
        let parsed = parse(#" {"a": [1, -2, 3.5, 1e2, true, false, null, "x\"\\\/\b\f\n\r\t\u00e9\ud83d\ude00"], "b": {}, "c": [], "big": 123456789012345678901234} "#)
        #expect(parsed == .object([
            "a": .array([.int(1), .int(-2), .double(3.5), .double(100), .bool(true), .bool(false), .null,
                         .string("x\"\\/\u{8}\u{C}\n\r\té😀")]),
            "b": .object([:]), "c": .array([]), "big": .bigInt("123456789012345678901234"),
        ]))
        #expect(parse("\"plain ünïcode 😀 text that is long enough to take the fast path\"") == .string("plain ünïcode 😀 text that is long enough to take the fast path"))
        // A lone surrogate is no character: it reads as U+FFFD.
        #expect(parse(#""\ud800x""#) == .string("\u{FFFD}x"))
        #expect(parse(#""\udc00""#) == .string("\u{FFFD}"))
        // The last of two equal keys wins.
        #expect(parse(#"{"k": 1, "k": 2}"#) == .object(["k": .int(2)]))
    }

    @Test(arguments: [
        "", " ", "{", "[", "[1,]", "{\"a\":}", "{\"a\" 1}", "{a: 1}", "[1 2]", "01", "1.", ".5", "-", "1e", "+1",
        "tru", "nul", "\"abc", "\"\\x\"", "\"\\u12\"", "\"a\u{1}b\"", "[1]x", "{\"a\":1,}", "'a'", "NaN", "[\"\\u00", "\"\\",
    ])
    func brokenTextFails(_ text: String) {
        #expect(parse(text) == nil, "\(text.debugDescription) parsed")
    }

    @Test func textOverTheSizeLimitFails() {
        #expect(parse("[1, 2]") != nil)
        #expect((try? JSONParser.parse("[1, 2]", maxBytes: 5).get()) == nil)
        #expect((try? JSONParser.parse("[1, 2]", maxBytes: 6).get()) == .array([.int(1), .int(2)]))
    }

    @Test func invalidUTF8Fails() {
        let result = JSONParser.parse([0x22, 0xC3, 0x28, 0x22])
        guard case .failure(let failure) = result else {
            Issue.record("invalid UTF-8 parsed")
            return
        }
        #expect(failure.offset == 1)
    }

    /// Nesting is limited, and a million open brackets is a failure in no time and little memory
    /// (no recursion to overflow the stack).
    @Test func deepNestingFails() {
        #expect(parse(String(repeating: "[", count: 128) + String(repeating: "]", count: 128)) != nil)
        #expect(parse(String(repeating: "[", count: 129) + String(repeating: "]", count: 129)) == nil)
        #expect(parse(String(repeating: "[", count: 1_000_000)) == nil)
        #expect(parse(String(repeating: "{\"a\":", count: 200) + "1" + String(repeating: "}", count: 200)) == nil)
    }

    /// Random mutations of a real message: each parses or fails, and what parses renders back to
    /// JSON that renders the same again.
    @Test func mutatedMessagesNeverCrash() {
        let message = #"{"jsonrpc":"2.0","id":7,"method":"textDocument/didChange","params":{"textDocument":{"uri":"file:///p.yaml","version":2},"contentChanges":[{"range":{"start":{"line":0,"character":1},"end":{"line":0,"character":2}},"text":"a\n\u00e9😀"}]}}"#
        var rng = Rng(state: 42)
        let bytes = Array(message.utf8)
        for _ in 0..<3000 {
            var m = bytes
            for _ in 0..<(1 + rng.below(4)) {
                let i = rng.below(m.count)
                switch rng.below(3) {
                case 0: m[i] = UInt8(rng.below(256))
                case 1: m.remove(at: i)
                default: m.insert(rng.pick(Array("{}[]\",:\\u0e-".utf8)), at: i)
                }
            }
            if case .success(let value) = JSONParser.parse(m) {
                let text = value.rendered(pretty: false)
                #expect((try? JSONParser.parse(text).get())?.rendered(pretty: false) == text)
            }
        }
    }

    @Test func accessors() {
        let value = parse(#"{"a": {"b": [1, "x", true, 2.0]}}"#)
        #expect(value?["a"]?["b"]?.arrayValue?.count == 4)
        #expect(value?["a"]?["b"]?.arrayValue?[0].intValue == 1)
        #expect(value?["a"]?["b"]?.arrayValue?[3].intValue == 2)
        #expect(value?["a"]?["b"]?.arrayValue?[1].stringValue == "x")
        #expect(value?["a"]?["b"]?.arrayValue?[2].boolValue == true)
        #expect(value?["missing"] == nil)
        #expect(value?["a"]?["b"]?["c"] == nil)
    }
}

/// The writer's layout: two spaces a level at any depth (the breaks of the first levels are made
/// once), members in byte order, and what it writes reads back as the value.
@Suite struct JSONWriterTests {
    @Test func everyDepthIsIndentedTwoSpacesALevel() throws {
        var value = JSON.object(["b": .int(1), "a": .array([.string("x"), .null])])
        for depth in 0..<24 { value = depth % 2 == 0 ? .array([value, .bool(true)]) : .object(["k\(depth)": value, "A": .int(depth)]) }
        let text = value.rendered()
        for line in text.split(separator: "\n") {
            let spaces = line.prefix { $0 == " " }.count
            #expect(spaces % 2 == 0, "\(line)")
        }
        // The innermost object sits 24 levels in; its members come in byte order.
        #expect(text.contains("\n" + String(repeating: "  ", count: 25) + "\"a\": [\n" + String(repeating: "  ", count: 26) + "\"x\","))
        #expect(text.contains("\n" + String(repeating: "  ", count: 25) + "\"b\": 1\n" + String(repeating: "  ", count: 24) + "}"))
        #expect(try JSONParser.parse(text).get() == value)
        #expect(try JSONParser.parse(value.rendered(pretty: false)).get() == value)
    }
}
