import Foundation
import Testing
@testable import PolicySource
@testable import PolicyCheck
@testable import TestSupport

/// Loader tests against hand-counted positions (1-based lines, columns in Unicode scalars).
@Suite struct LoaderTests {
    func load(_ text: String) -> LoadResult { Loader.load(Array(text.utf8)) }

    func at(_ line: Int, _ column: Int) -> Mark { Mark(line: line, column: column) }

    /// The one finding of a load, which must exist and be of `rule`.
    func only(_ result: LoadResult, _ rule: RuleID,
              sourceLocation: SourceLocation = #_sourceLocation) throws -> Diagnostic {
        #expect(result.diagnostics.count == 1, "\(result.diagnostics.map(\.message))", sourceLocation: sourceLocation)
        let d = try #require(result.diagnostics.first, sourceLocation: sourceLocation)
        #expect(d.rule == rule, sourceLocation: sourceLocation)
        #expect(d.severity == .error, sourceLocation: sourceLocation)
        return d
    }

    func entries(_ node: Node?) -> [Entry] {
        if case .mapping(let e)? = node?.kind { return e }
        return []
    }

    func items(_ node: Node?) -> [Node] {
        if case .sequence(let i)? = node?.kind { return i }
        return []
    }

    func scalar(_ node: Node?) -> String? {
        if case .scalar(let s, _)? = node?.kind { return s }
        return nil
    }

    // MARK: memory

    /// A collection hands over its entries or items with no room to spare (`EventReader.handOver`):
    /// grown as they filled, a profile of five keys held room for eight (13,000 such profiles,
    /// 2.9 MB never filled). The collections of one depth fill one array in turn.
    @Test func collectionsHoldNoRoomToSpare() {
        var text = "profiles:\n"
        for i in 0..<40 { text += "  p\(i): {a: 1, b: 2, c: 3, d: 4, e: [1, 2, 3]}\n" }
        let r = load(text)
        let profiles = entries(entries(r.root).first?.value)
        #expect(profiles.count == 40)
        for profile in profiles {
            let keys = entries(profile.value)
            #expect(keys.count == 5 && keys.capacity == 5, "\(profile.key): room for \(keys.capacity)")
            let list = items(keys.last?.value)
            #expect(list.count == 3 && list.capacity == 3, "\(profile.key): room for \(list.capacity) items")
            #expect(scalar(keys.first?.value) == "1" && scalar(list.last) == "3")
        }
    }

    /// An empty mapping whose end comes in the loader's next chunk of events has a frame of its
    /// own: it must not hand the tree the room its depth kept from the collection before (three
    /// entries grow to room for four, which the depth keeps).
    @Test func anEmptyMappingAcrossChunksHoldsNoRoom() {
        for extra in 0..<3 {
            // The pads move the chunks' bounds (256 events) across the `{}` profiles' three events.
            var text = "profiles:\n  first: {a: 1, b: 2, c: 3}\n"
            for i in 0..<extra { text += "  pad\(i): 1\n" }
            for i in 0..<200 { text += "  p\(i): {}\n" }
            let profiles = entries(entries(load(text).root).first?.value)
            #expect(profiles.count == 201 + extra)
            for profile in profiles.dropFirst() {
                let room = entries(profile.value).capacity
                #expect(room == 0, "\(profile.key): room for \(room)")
            }
        }
    }

    // MARK: positions

    @Test func keysAndValuesKeepStartAndEnd() {
        let r = load("version: 1\nretry:\n  backoff: full-jitter\n")
        #expect(r.diagnostics.isEmpty && r.decodable)
        let root = entries(r.root)
        #expect(root.map(\.key) == ["version", "retry"])
        #expect(root[0].keySpan == Span(start: at(1, 1), end: at(1, 8)))
        #expect(root[0].value.span == Span(start: at(1, 10), end: at(1, 11)))
        let inner = entries(root[1].value)
        #expect(inner[0].keySpan.start == at(3, 3))
        #expect(inner[0].value.span == Span(start: at(3, 12), end: at(3, 23)))
    }

    @Test func columnsCountUnicodeScalarsAfterMultibyteText() {
        // a1 :2 ␠3 [4 日5 本6 ,7 ␠8 🎬9 ,10 ␠11 ü12 ,13 ␠14 x15
        let r = load("a: [日本, 🎬, ü, x]\nb: 1\n")
        let list = items(entries(r.root).first?.value)
        #expect(list.map(\.span.start) == [at(1, 5), at(1, 9), at(1, 12), at(1, 15)])
        #expect(list[0].span.end == at(1, 7))
        #expect(scalar(list[1]) == "🎬")
        // A syntax error after multibyte text on its line: a1 :2 ␠3 "4 日5 本6 "7 ␠8 x9
        let e = try? only(load("a: \"日本\" x\n"), .yamlSyntax)
        #expect(e?.span.start == at(1, 9))
        #expect(e?.message.hasPrefix("did not find expected key") == true)
    }

    @Test func crlfLineEndingsCountAsOneLine() throws {
        let r = load("a: 1\r\nb: [x, y]\r\nc: z\r\n")
        #expect(r.diagnostics.isEmpty)
        let root = entries(r.root)
        #expect(root.map(\.keySpan.start) == [at(1, 1), at(2, 1), at(3, 1)])
        #expect(items(root[1].value).map(\.span.start) == [at(2, 5), at(2, 8)])
        #expect(scalar(root[2].value) == "z")
        let d = try only(load("a: 1\r\nb: [1\r\n"), .yamlSyntax)
        #expect(d.span.start == at(3, 1))
        #expect(d.message == "did not find expected ',' or ']' (while parsing a flow sequence at line 2, column 4)")
    }

    @Test func byteOrderMarkIsNotAColumn() throws {
        let r = Loader.load([0xEF, 0xBB, 0xBF] + Array("a: x\nb: [y]\n".utf8))
        #expect(r.diagnostics.isEmpty && r.decodable)
        let root = entries(r.root)
        #expect(root.map(\.key) == ["a", "b"])
        #expect(root[0].keySpan.start == at(1, 1))
        #expect(root[0].value.span.start == at(1, 4))
        let d = try only(Loader.load([0xEF, 0xBB, 0xBF] + Array("a: [x\n".utf8)), .yamlSyntax)
        #expect(d.span.start == at(2, 1))
        #expect(d.message.contains("line 1, column 4"))
    }

    // MARK: syntax errors

    @Test func syntaxErrorsCarryTheParsersPositionAndProblem() throws {
        var d = try only(load("version: 1\npolicy: [playback\n"), .yamlSyntax)
        #expect(d.span.start == at(3, 1))
        #expect(d.message == "did not find expected ',' or ']' (while parsing a flow sequence at line 2, column 9)")

        d = try only(load("a: 1\n  b: 2\n"), .yamlSyntax)
        #expect(d.span.start == at(2, 4))
        #expect(d.message == "mapping values are not allowed in this context")

        // A tab that indents: libyaml's "found character that cannot start any token", or that it
        // "violates indentation", becomes what to do, at the tab.
        for (text, tab) in [("a:\n\tb: 1\n", at(2, 1)), ("a:\n  b: 1\n\tc: 2\n", at(3, 1)), ("a:\n  b: 1\n \tc: 2\n", at(3, 2)),
                            ("# 日本語\r\nretry:\r\n  x: 1\r\n\ty: 2\r\n", at(4, 1))] {
            d = try only(load(text), .yamlSyntax)
            #expect(d.span.start == tab, "\(text)")
            #expect(d.message == "a tab indents this line; YAML indents with spaces only")
            // Issue 39, item 7: with a safe fix that indents it as its siblings.
            #expect(d.help == "replace the tab with spaces: the line starts at column 3, as its siblings", "\(text)")
            #expect(d.fix?.safety == .safe)
            #expect(d.fix?.edits.map(\.text) == ["  "], "\(text)")
        }

        d = try only(load("a: \"open\n"), .yamlSyntax)
        #expect(d.message.hasPrefix("found unexpected end of stream"))
        #expect(!load("a: \"open\n").decodable)
    }

    @Test func rawControlCharactersAreSyntaxErrorsAtTheirPlace() throws {
        let d = try only(Loader.load(Array("a: b\nc: d".utf8) + [0] + Array("e\n".utf8)), .yamlSyntax)
        #expect(d.span.start == at(2, 5))
        #expect(d.message == "control characters are not allowed (found U+0000)")
        let esc = try only(Loader.load(Array("a: é".utf8) + [0x1B] + Array("[31m\n".utf8)), .yamlSyntax)
        #expect(esc.span.start == at(1, 5))
    }

    @Test func escapedNulInDoubleQuotesIsKeptWhole() {
        let r = load("a: \"x\\0y\\0\"\n")
        #expect(r.diagnostics.isEmpty)
        let value = scalar(entries(r.root).first?.value)
        #expect(value == "x\u{0}y\u{0}")
        #expect(value?.unicodeScalars.count == 4)
    }

    // MARK: encodings

    @Test func utf16WithAByteOrderMarkIsRefused() throws {
        let le: [UInt8] = [0xFF, 0xFE] + Array("a: 1\n".utf8).flatMap { [$0, 0] }
        let be: [UInt8] = [0xFE, 0xFF] + Array("a: 1\n".utf8).flatMap { [0, $0] }
        for bytes in [le, be] {
            let d = try only(Loader.load(bytes), .inputLimit)
            #expect(d.span.start == at(1, 1))
            #expect(d.message.contains("UTF-16"))
        }
        let utf32: [UInt8] = [0xFF, 0xFE, 0, 0] + Array("a".utf8).flatMap { [$0, 0, 0, 0] }
        #expect(try only(Loader.load(utf32), .inputLimit).message.contains("UTF-32"))
    }

    @Test func utf16WithoutAByteOrderMarkIsRefused() throws {
        let le: [UInt8] = Array("a: 1\n".utf8).flatMap { [$0, 0] }
        let be: [UInt8] = Array("a: 1\n".utf8).flatMap { [0, $0] }
        for bytes in [le, be] {
            let r = Loader.load(bytes)
            let d = try only(r, .inputLimit)
            #expect(d.span.start == at(1, 1))
            #expect(d.message.contains("UTF-16"))
            #expect(!r.decodable && r.root == nil)
        }
    }

    @Test func invalidUTF8IsRefusedWhereItStands() throws {
        // Line 2: c1 :2 ␠3 é4 then the bad byte at column 5.
        var d = try only(Loader.load(Array("a: b\nc: é".utf8) + [0xFF] + Array("\n".utf8)), .inputLimit)
        #expect(d.span.start == at(2, 5))
        #expect(d.message.contains("0xFF"))
        // A sequence cut short at the end of the file.
        d = try only(Loader.load(Array("a: ".utf8) + [0xE6, 0x97]), .inputLimit)
        #expect(d.span.start == at(1, 4))
        // Overlong encodings and UTF-16 surrogates are not UTF-8 either.
        #expect(try only(Loader.load(Array("a: ".utf8) + [0xC0, 0xAF]), .inputLimit).span.start == at(1, 4))
        #expect(try only(Loader.load(Array("a: ".utf8) + [0xED, 0xA0, 0x80]), .inputLimit).span.start == at(1, 4))
        // Through CRLF lines.
        d = try only(Loader.load(Array("a: 1\r\nb: 2\r\n".utf8) + [0x80]), .inputLimit)
        #expect(d.span.start == at(3, 1))
    }

    // MARK: duplicate keys

    @Test func duplicateKeysReportTheSecondWithTheFirstRelated() throws {
        let r = load("a: 1\nb: 2\na: 3\n")
        let d = try only(r, .yamlDuplicateKey)
        #expect(d.span.start == at(3, 1))
        #expect(d.related.map(\.span.start) == [at(1, 1)])
        #expect(d.message.contains("'a'"))
        // The first value stays; the repeated pair is dropped, so nothing is said about it twice.
        let root = entries(r.root)
        #expect(root.map(\.key) == ["a", "b"])
        #expect(scalar(root[0].value) == "1")
        #expect(r.decodable)
    }

    @Test func duplicateKeysInNestedAndFlowMappings() throws {
        let d = try only(load("p:\n  x: {k: 1, \"k\": 2}\n"), .yamlDuplicateKey)
        // p1 … line 2: ␠1 ␠2 x3 :4 ␠5 {6 k7 :8 ␠9 1 10 ,11 ␠12 "13
        #expect(d.span.start == at(2, 13))
        #expect(d.related.first?.span.start == at(2, 7))
        #expect(load("a: {k: 1}\nb: {k: 1}\n").diagnostics.isEmpty)
    }

    // MARK: unsupported YAML

    @Test func anchorsAndAliasesAreOneFindingAtTheFirst() throws {
        let d = try only(load("a: &x 1\nb: *x\nc: *x\n"), .yamlUnsupported)
        #expect(d.span.start == at(1, 4))
        #expect(d.message.contains("(2 more in this file)"))
        let alias = try only(load("a: 1\nb: *nowhere\n"), .yamlUnsupported)
        #expect(alias.span.start == at(2, 4))
        let onMapping = try only(load("a: &m\n  k: 1\n"), .yamlUnsupported)
        #expect(onMapping.span.start == at(1, 4))
    }

    @Test func tagsAreRefused() throws {
        let d = try only(load("a: !!int 3\n"), .yamlUnsupported)
        #expect(d.span.start == at(1, 4))
        #expect(d.message.contains("'!!int'"))
        #expect(try only(load("a: !local x\n"), .yamlUnsupported).message.contains("'!local'"))
        #expect(try only(load("a: !!seq [1]\n"), .yamlUnsupported).span.start == at(1, 4))
    }

    @Test func mergeKeysAreRefused() throws {
        let r = load("a: {x: 1}\nb:\n  <<: {y: 2}\n  z: 3\n")
        let d = try only(r, .yamlUnsupported)
        #expect(d.span.start == at(3, 3))
        #expect(d.message.contains("'<<'"))
        #expect(entries(entries(r.root)[1].value).map(\.key) == ["z"])
        // A quoted "<<" is an ordinary (unknown) key.
        #expect(load("\"<<\": 1\n").diagnostics.isEmpty)
    }

    @Test func aSecondDocumentIsRefused() throws {
        var d = try only(load("a: 1\n---\nb: 2\n"), .yamlUnsupported)
        #expect(d.span.start == at(2, 1))
        d = try only(load("---\na: 1\n---\nb: 2\n"), .yamlUnsupported)
        #expect(d.span.start == at(3, 1))
        #expect(load("---\na: 1\n...\n").diagnostics.isEmpty)
    }

    @Test func nonScalarKeysAreRefused() throws {
        var r = load("[a, b]: 1\nc: 2\n")
        var d = try only(r, .yamlUnsupported)
        #expect(d.span.start == at(1, 1))
        #expect(entries(r.root).map(\.key) == ["c"])
        r = load("? {a: 1}\n: 2\n")
        d = try only(r, .yamlUnsupported)
        #expect(d.span.start == at(1, 3))
        #expect(d.message.contains("mapping"))
        #expect(entries(r.root).isEmpty)
    }

    // MARK: limits

    /// `depth` nested collections: the root mapping and `depth - 1` flow lists.
    func nested(_ depth: Int) -> String {
        "a: " + String(repeating: "[", count: depth - 1) + String(repeating: "]", count: depth - 1) + "\n"
    }

    @Test func depth32IsAcceptedAnd33Refused() throws {
        let ok = load(nested(32))
        #expect(ok.diagnostics.isEmpty && ok.decodable)
        let r = load(nested(33))
        let d = try only(r, .inputLimit)
        // a1 :2 ␠3, then 32 brackets at columns 4…35: the 32nd opens the 33rd level.
        #expect(d.span.start == at(1, 35))
        #expect(!r.decodable && r.root == nil)
        // Block mappings count the same way.
        let block = (0..<33).map { String(repeating: " ", count: $0) + "k\($0):" }.joined(separator: "\n") + " 1\n"
        #expect(try only(load(block), .inputLimit).span.start == at(33, 33))
        let block32 = (0..<32).map { String(repeating: " ", count: $0) + "k\($0):" }.joined(separator: "\n") + " 1\n"
        #expect(load(block32).diagnostics.isEmpty)
    }

    @Test func deepNestingStopsEarly() throws {
        let deep = String(repeating: "[", count: 100_000)
        let d = try only(load(deep), .inputLimit)
        #expect(d.span.start == at(1, 33))
    }

    @Test func aFileOver1MiBIsRefusedWithoutParsing() throws {
        // Not YAML at all: a parse would report a syntax error; only the size is reported.
        let big = [UInt8](repeating: UInt8(ascii: "["), count: Loader.maxBytes + 1)
        let d = try only(Loader.load(big), .inputLimit)
        #expect(d.span.start == at(1, 1))
        #expect(d.message.contains("\(Loader.maxBytes + 1) bytes"))
        #expect(d.message.contains("1 MiB"))
        // Exactly 1 MiB is fine.
        let comment = Array("# ".utf8) + [UInt8](repeating: UInt8(ascii: "x"), count: Loader.maxBytes - 3) + [0x0A]
        #expect(comment.count == Loader.maxBytes)
        #expect(Loader.load(comment).diagnostics.isEmpty)
    }

    /// A large mapping's keys are indexed by hash (`HashIndex`), grown many times over: every
    /// repeated key is found, with its first position, exactly as a scan of all keys finds it.
    @Test func repeatedKeysOfALargeMappingAreAllFound() throws {
        var keys: [String] = []
        for i in 0..<3000 {
            // Every seventh key repeats one from far earlier; the others are new (some long).
            keys.append(i % 7 == 6 ? keys[(i * 31) % i] : i % 5 == 0 ? "key-\(i)-" + String(repeating: "x", count: 40) : "k\(i)")
        }
        let text = "m:\n" + keys.map { "  \($0): 1\n" }.joined()
        var firstLine: [String: Int] = [:]
        var expected: [(line: Int, first: Int)] = []
        for (i, key) in keys.enumerated() {
            if let first = firstLine[key] { expected.append((i + 2, first)) } else { firstLine[key] = i + 2 }
        }
        let found = load(text).diagnostics.filter { $0.rule == RuleID.yamlDuplicateKey }
        #expect(expected.count > 400)
        #expect(found.count == min(expected.count, Loader.maxFindings))
        for (d, e) in zip(found, expected) {
            #expect(d.span.start.line == e.line && d.related.first?.span.start.line == e.first, "\(d.message)")
        }
    }

    @Test func manyAliasesGiveOneFinding() throws {
        let text = "a: &x 1\nb: [" + Array(repeating: "*x", count: 50_000).joined(separator: ", ") + "]\n"
        let d = try only(load(text), .yamlUnsupported)
        #expect(d.message.contains("(50000 more in this file)"))
    }

    @Test func findingsPerFileAreCapped() throws {
        let text = String(repeating: "a: 1\n", count: 5000)
        let file = Checker.check(Array(text.utf8), path: "many.yaml")
        #expect(file.diagnostics.count == Loader.maxFindings + 1)
        let first = try #require(file.diagnostics.first)
        #expect(first.rule == "input-limit" && first.span.start == at(1, 1))
        // 4999 repeated keys, the unknown key 'a' and the five missing keys of the root.
        #expect(first.message == "the file has 5005 findings; only the first 1000 are reported")
        // The loader's findings fill the room first; the decoder's are only counted.
        #expect(Set(file.diagnostics.dropFirst().map(\.rule)) == ["yaml-duplicate-key"])
    }

    // MARK: empty input

    @Test func emptyAndCommentOnlyFilesHaveNoRoot() {
        for text in ["", "\n", "# only a comment\n", "  \n# one\n# two", "---\n"] {
            let r = load(text)
            #expect(r.diagnostics.isEmpty, "\(text)")
            #expect(r.decodable)
            #expect(r.root == nil || r.root?.isNull == true)
            let checked = Checker.check(Array(text.utf8), path: "empty.yaml")
            #expect(checked.diagnostics.map(\.rule) == ["missing-key"])
            #expect(checked.diagnostics.first?.span.start == at(1, 1))
        }
    }

    // MARK: the parser on a second thread

    /// A tree and its findings as text, every span included.
    static func describe(_ result: LoadResult) -> String {
        var out = "decodable \(result.decodable), suppressed \(result.suppressed)\n"
        for d in result.diagnostics { out += "\(d)\n" }
        func node(_ n: Node, _ indent: String) {
            out += "\(indent)\(n.span.start.line):\(n.span.start.column)-\(n.span.end.line):\(n.span.end.column) "
            switch n.kind {
            case .scalar(let text, let style): out += "\(style) \(text.debugDescription)\n"
            case .reported: out += "reported\n"
            case .sequence(let items):
                out += "[\(items.count)]\n"
                for item in items { node(item, indent + " ") }
            case .mapping(let entries):
                out += "{\(entries.count)}\n"
                for e in entries {
                    out += "\(indent) \(e.key.debugDescription)@\(e.keySpan.start.line):\(e.keySpan.start.column)\n"
                    node(e.value, indent + "  ")
                }
            }
        }
        if let root = result.root { node(root, "") }
        return out
    }

    /// Inputs made to stress the hand-over: large and small, broken, stopped early, with every
    /// construct the reader refuses (and a tag's text, which travels with its event).
    static func madePipeInputs() -> [(name: String, bytes: [UInt8])] {
        var profiles = "version: 1\npolicy: big\nretry:\n  profiles:\n"
        for i in 0..<3000 {
            switch i % 6 {
            case 0: profiles += "    p\(i): {maxRetries: 2, kind: foreground}\n"
            case 1: profiles += "    \"pé\(i)\": !!str {base: 1 séc}\n"
            case 2: profiles += "    p\(i): &a\(i) {x: [1, 2, *a\(i)]}\n"
            case 3: profiles += "    p\(i):\n      maxRetries: 1\n      maxRetries: 2\n      <<: {y: 1}\n"
            case 4: profiles += "    ? [k\(i)]\n    : v\n"
            default: profiles += "    p\(i): |\n      \(String(repeating: "long ", count: i % 50))\n"
            }
        }
        let bulk = Array(profiles.utf8)
        let nest = String(repeating: "[", count: 40) + String(repeating: "]", count: 40)
        return [
            ("profiles", bulk),
            ("second document late", bulk + Array("---\na: 1\n".utf8) + bulk),
            ("second document early", Array("a: 1\n---\n".utf8) + bulk),
            ("too deep early", Array("a: \(nest)\n".utf8) + bulk),
            ("syntax error late", bulk + Array("  bad: [\n".utf8)),
            ("encoding error late", bulk + [0xC0, 0xAF]),
            ("empty", []),
            ("comment", Array("# nothing\n".utf8)),
        ]
    }

    /// The made inputs, the hostile seeds and crash fixtures, and a quarter of the kept corpus.
    static func pipeInputs() -> [(name: String, bytes: [UInt8])] {
        var inputs = madePipeInputs()
        for url in Corpus.hostile + Corpus.crashes {
            if let data = FileManager.default.contents(atPath: url.path) { inputs.append((url.lastPathComponent, [UInt8](data))) }
        }
        for url in Corpus.kept.enumerated().filter({ $0.offset % 4 == 0 }).map(\.element) {
            if let data = FileManager.default.contents(atPath: url.path) { inputs.append((url.lastPathComponent, [UInt8](data))) }
        }
        return inputs
    }

    /// The size of the chunks of events changes nothing: the same tree and findings for chunks of
    /// one event, a few, the size `Loader.load` uses and one chunk for the whole file.
    @Test func chunksOfAnySizeBuildTheSameTree() {
        let inputs = Self.pipeInputs()
        #expect(inputs.count > 400)
        for (name, bytes) in inputs {
            let usual = Self.describe(Loader.load(bytes))
            for chunk in [1, 3, 1 << 20] {
                #expect(Self.describe(Loader.load(bytes, chunk: chunk)) == usual, "\(name), chunks of \(chunk)")
            }
        }
    }

    /// Every chunk but the last is full, and together they are the events of one chunk of any size.
    @Test func chunksAreFullButTheLast() {
        let yaml = "version: 1\npolicy: blank\n" + String(repeating: "\n", count: 100_000) + "retry:\n" + String(repeating: "  - 1\n", count: 3_000)
        func counts(chunkSize: Int) -> [Int] {
            var counts: [Int] = []
            EventSource.parse(Array(yaml.utf8), chunkSize: chunkSize) { chunk in
                counts.append(chunk.count)
                return true
            }
            return counts
        }
        let chunked = counts(chunkSize: 2048), whole = counts(chunkSize: 1 << 20)
        let chunkedEvents: Int = chunked.reduce(0, +), wholeEvents: Int = whole.reduce(0, +)
        #expect(chunked.dropLast().allSatisfy { $0 == 2048 })
        #expect(whole.count == 1)
        #expect(chunkedEvents == wholeEvents)
        #expect(wholeEvents > 3_000)
    }

    /// An empty collection (`{}`, `[]`) is made at once when its end is the next event of the
    /// chunk. In chunks of one event it never is, so that load makes every collection in a frame:
    /// both give the same tree and findings, wherever the empty collection stands (a value, an
    /// item, a key, with an anchor or a tag, a duplicate's value, below the kept depth).
    @Test func emptyCollectionsAreMadeAsTheirFramesMakeThem() {
        let yaml = """
            version: 1
            a: {}
            b: []
            c: [{}, [], {x: {}}, [[]], {}]
            {}: 1
            []: 2
            d: &anchor {}
            e: !tag []
            f: {g: {}, g: []}
            deep: [[[[[[[[[[{}, []]]]]]]]]]]
            retry:
              profiles:
                p1: {}
                p2: []
                p3: {retryOn: [], backoff: {}}
            """
        let bytes = Array(yaml.utf8)
        for reading in [nil, Shape.object(Language.root)] {
            let framed = Self.describe(Loader.load(bytes, chunk: 1, reading: reading))
            let direct = Self.describe(Loader.load(bytes, reading: reading))
            #expect(direct == framed)
            #expect(framed.contains("{0}") && framed.contains("[0]") && framed.contains("not a mapping") && framed.contains("anchors"))
        }
    }

    /// What the reader never looks into is let go as it streams in: a flow collection keeps its
    /// kind and span, a block one its last entry or item; what the shape reads is kept whole, and
    /// a repeated key inside a let-go collection is still found.
    @Test func unreadCollectionsAreLetGoButStillChecked() throws {
        let yaml = """
            a:
              b: {c: {d: 1, d: 2}, e: [1, [2]]}
              f:
                - 1
                - {g: 1}
              l: [1, 2]
            h:
              i: 1
              j: [3]
            """
        let shape = Shape.object([Field("a", .object([Field("l", .list(.integer(min: 0, max: 9), unique: false), title: "", help: "")]),
                                        title: "", help: "")])
        let loaded = Loader.load(Array(yaml.utf8), reading: shape)
        #expect(loaded.diagnostics.map(\.rule) == ["yaml-duplicate-key"])
        guard case .mapping(let top)? = loaded.root?.kind, case .mapping(let a) = top[0].value.kind,
              case .mapping(let h) = top[1].value.kind else { Issue.record("not mappings"); return }
        // `b` (a key the shape lacks, flow) keeps its span only; `f` (block) its last item; `l`
        // (read) all its items; `h` (block, unread) its last entry.
        guard case .mapping(let b) = a[0].value.kind, case .sequence(let f) = a[1].value.kind,
              case .sequence(let l) = a[2].value.kind else { Issue.record("b, f, l"); return }
        #expect(b.isEmpty && a[0].value.span == Span(start: Mark(line: 2, column: 6), end: Mark(line: 2, column: 36)))
        #expect(f.count == 1 && f[0].span.start == Mark(line: 5, column: 7))
        #expect(l.count == 2)
        #expect(h.map(\.key) == ["j"])
        // Without a shape, everything is kept.
        #expect(Self.describe(Loader.load(Array(yaml.utf8))).contains("\"i\"@"))
    }

    /// Letting go of what the decoder never reads changes no finding, fix or document:
    /// `Checker.check` with it and without, over the inputs above and policies whose values and
    /// unknown keys hold flow and block collections (fixes placed after them, inserted and
    /// appended around them).
    @Test func unreadContentsChangeNothingThatLintReports() {
        let nested = """
            version: 1
            policy: nested
            retry:
              profiles:
                a:
                  kind: {x: [1,
                    2]}
                b:
                  base: [1, {y: 2}]
                  cap:
                    z: {w: 1}
                c: {kind: interactive, timeout: {t: [1]}}
                d:
                  kind: background
                  odd:
                    - 1
                    - x:
                        - 2

                  # a block list ends where the next key starts
              retryOn: [429, {s: [503]}]
              extra:
                - [1, 2]
                - - 3
                  - {q: 4}
              neverRetry:
                - {status: 503, code: {a: 1}}
                - status: 400
                  code: [x, {y: z}]
                - [7, 8]
            unknown:
              - {a: 1}
              - b:
                  - 1
                  - 2
            """
        var inputs = Self.pipeInputs()
        inputs.append(("nested", Array(nested.utf8)))
        // Without neverRetry, whose fix then inserts it after retryOn's deep flow item.
        let withoutNeverRetry = nested.split(separator: "\n", omittingEmptySubsequences: false).prefix(21).joined(separator: "\n") + "\n"
        inputs.append(("nested without neverRetry", Array(withoutNeverRetry.utf8)))
        var fixes = 0
        for (name, bytes) in inputs {
            let kept = Checker.check(bytes, path: "p.yaml", reading: nil)
            let letGo = Checker.check(bytes, path: "p.yaml", reading: .object(Language.root))
            // Compared whole, not printed whole: a failure names the input.
            let same = letGo.diagnostics == kept.diagnostics && letGo.doc == kept.doc
            #expect(same, "\(name)")
            if name.hasPrefix("nested") { fixes += kept.diagnostics.count { $0.fix != nil } }
        }
        // The nested policies do make fixes that must be placed around their deep values.
        #expect(fixes >= 6)
    }

    /// The inputs above do reach what they are for: each stops, fails or is refused where it says.
    @Test func thePipeInputsStopWhereTheySay() throws {
        let inputs = Dictionary(Self.madePipeInputs().map { ($0.name, $0.bytes) }, uniquingKeysWith: { a, _ in a })
        func rules(_ name: String) throws -> [RuleID] { Loader.load(try #require(inputs[name]), chunk: 1).diagnostics.map(\.rule) }
        #expect(try rules("second document early") == ["yaml-unsupported"])
        #expect(try rules("too deep early") == ["input-limit"])
        #expect(try rules("syntax error late").last == "yaml-syntax")
        #expect(try rules("encoding error late") == ["input-limit"])
        let profiles = Loader.load(try #require(inputs["profiles"]))
        #expect(profiles.decodable)
        #expect(Set(profiles.diagnostics.map(\.rule)) == ["yaml-unsupported", "yaml-duplicate-key"])
        #expect(profiles.diagnostics.contains { $0.message.hasPrefix("tags such as '!!str'") })
    }
}

/// A file that is not UTF-8 is placed where its first bad byte stands, as a plain walk of the
/// bytes places it: before that byte every character is whole, whatever line breaks and bad
/// sequences (stray continuation bytes, cut sequences, bytes never in UTF-8) come after.
@Suite struct InvalidUTF8PositionTests {
    @Test func theFirstBadByteIsPlacedAsAWalkPlacesIt() throws {
        var rng = Rng(state: 97)
        let bad: [[UInt8]] = [[0x80], [0xBF], [0xC0, 0x80], [0xE2, 0x82], [0xE2, 0x80], [0xF0, 0x9F, 0x98], [0xFF],
                              [0xC2], [0xE2, 0x80, 0x41], [0xED, 0xA0, 0x80]]
        var placed = 0
        for round in 0..<300 {
            var bytes = Array(rng.text(rng.below(30), bom: round % 5 == 0).utf8)
            let at = rng.below(bytes.count + 1)
            // Not inside a character of the good text: cut there, the bad bytes would start earlier.
            guard at == bytes.count || bytes[at] & 0xC0 != 0x80 else { continue }
            bytes.insert(contentsOf: rng.pick(bad) + rng.pick(bad), at: at)
            bytes += Array(rng.text(rng.below(10)).utf8)
            // Two bad pieces may make a good character (C2 then 80): then there is nothing to place.
            guard let problem = Encoding.problem(in: bytes) else { continue }
            let offset = try #require(Encoding.firstInvalidUTF8(bytes))
            #expect(problem.mark == referenceMark(offset, in: bytes), "\(bytes) at \(offset)")
            placed += 1
        }
        #expect(placed > 150)
    }

    /// The loader scans a small mapping for a repeated key and looks a large one's up: both point
    /// at the first occurrence, at every size around the switch.
    @Test(arguments: [1, 2, 15, 16, 17, 40])
    func duplicateKeysInMappingsOfEverySize(_ keys: Int) {
        var text = ""
        for k in 0..<keys { text += "k\(k): \(k)\n" }
        text += "k\(keys - 1): again\n"
        text += "k0: again\n"
        let loaded = Loader.load(Array(text.utf8))
        let duplicates = loaded.diagnostics.filter { $0.rule == RuleID.yamlDuplicateKey }
        #expect(duplicates.count == 2)
        #expect(duplicates.first?.related.first?.span.start == Mark(line: keys, column: 1))
        #expect(duplicates.last?.related.first?.span.start == Mark(line: 1, column: 1))
        if case .mapping(let entries)? = loaded.root?.kind {
            #expect(entries.count == keys)
        } else {
            Issue.record("no mapping")
        }
    }
}

/// Issue 48: libyaml breaks lines at NEL, LS and PS too; the loader's marks count the editor's
/// lines (LF, CR, CRLF), converted from libyaml's by byte offset.
@Suite struct LineSeparatorMarkTests {
    @Test func marksCountTheEditorsLines() throws {
        let text = "a: \"x\u{2028}y\"  # c\u{85}\nb: [1, 2]\u{2029}\nc: 3\n"
        let loaded = Loader.load(Array(text.utf8))
        #expect(loaded.diagnostics.isEmpty)
        guard case .mapping(let entries)? = loaded.root?.kind else { Issue.record("not a mapping"); return }
        #expect(entries.map(\.key) == ["a", "b", "c"])
        #expect(entries[0].value.span == Span(start: Mark(line: 1, column: 4), end: Mark(line: 1, column: 9)))
        #expect(entries[1].keySpan.start == Mark(line: 2, column: 1))
        #expect(entries[1].value.span == Span(start: Mark(line: 2, column: 4), end: Mark(line: 2, column: 10)))
        #expect(entries[2].keySpan.start == Mark(line: 3, column: 1))
        #expect(entries[2].value.span.start == Mark(line: 3, column: 4))
    }

    @Test func aSyntaxErrorAfterSeparatorsIsOnTheEditorsLine() throws {
        let text = "a: \"x\u{2028}y\u{2029}z\"\nb: [1\n"
        let error = try #require(Loader.load(Array(text.utf8)).diagnostics.first)
        #expect(error.rule == RuleID.yamlSyntax)
        // libyaml stops at the end of the text: line 3 of the editor's, where it would be line 5 of libyaml's.
        #expect(error.span.start.line == 3, "\(error.headline)")
    }

    /// The stream's end, which libyaml may put on a line past its last, is the end of the text:
    /// a finding that spans the whole document ends inside it.
    @Test func theEndOfTheStreamIsTheEndOfTheText() throws {
        for text in ["a: \"x\u{2028}y\"\nb: 1", "a: \"x\u{2028}y\"\nb: 1\n", "a: x\u{85}\n"] {
            let bytes = Array(text.utf8)
            let loaded = Loader.load(bytes)
            let end = try #require(loaded.root?.span.end)
            let last = LineIndex(bytes).mark(at: bytes.count)
            #expect(end.line <= last.line, "\(text.debugDescription): \(end) past \(last)")
        }
    }

    /// A BOM and a separator: columns after both count as the editor's line has them.
    @Test func aByteOrderMarkAndASeparator() throws {
        let text = "\u{FEFF}a: \"\u{2028}\"\nb: 1\n"
        guard case .mapping(let entries)? = Loader.load(Array(text.utf8)).root?.kind else { Issue.record("not a mapping"); return }
        #expect(entries[0].value.span == Span(start: Mark(line: 1, column: 4), end: Mark(line: 1, column: 7)))
        #expect(entries[1].value.span.start == Mark(line: 2, column: 4))
    }
}
