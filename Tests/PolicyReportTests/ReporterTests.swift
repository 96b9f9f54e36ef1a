import Foundation
import Testing
@testable import PolicySource
@testable import PolicyCheck
@testable import PolicyReport
@testable import TestSupport
#if canImport(FoundationXML)
import FoundationXML
#endif

/// The reporters on checked files built by hand (so warnings, related locations and hostile text
/// can be tested whatever rules exist) and on files the checker really checked.
@Suite struct ReporterTests {
    // MARK: fixtures

    static func span(_ line: Int, _ column: Int, _ endColumn: Int? = nil) -> Span {
        Span(start: Mark(line: line, column: column), end: Mark(line: line, column: endColumn ?? column + 1))
    }

    static func file(_ path: String, _ source: String, _ diagnostics: [Diagnostic]) -> CheckedFile {
        var diagnostics = diagnostics
        for i in diagnostics.indices { diagnostics[i].file = path }
        return CheckedFile(path: path, diagnostics: diagnostics.sorted(by: Diagnostic.inReportOrder),
                           doc: nil, policy: nil, source: Array(source.utf8))
    }

    static func diagnostic(_ line: Int, _ column: Int, _ endColumn: Int? = nil, _ severity: Severity = .error,
                           rule: RuleID = .yamlSyntax, message: String = "a message",
                           help: String? = nil, related: [Diagnostic.Related] = []) -> Diagnostic {
        Diagnostic(span: span(line, column, endColumn), severity: severity, rule: rule, message: message,
                   help: help, related: related)
    }

    /// The checker hands the text report its index of the file's lines.
    @Test func theCheckerHandsItsLinesToTheReport() {
        let checked = Checker.check(Array(Canonical.text.replacingFirst("prefetch:", with: "prefech:").utf8), path: "p.yaml")
        #expect(checked.lines?.bytes == checked.source && checked.lines?.lineCount == LineIndex(checked.source).lineCount)
    }

    /// One error with help, one warning, one error with a related location, and a clean file.
    static var mixed: [CheckedFile] {
        let broken = file("Policies/b.yaml", "version: 1\npolicy: b\nretry:\n  budgte: {}\n", [
            diagnostic(4, 3, 9, rule: RuleID.unknownKey, message: "unknown key 'budgte' in 'retry'",
                       help: "did you mean 'budget'?"),
            diagnostic(2, 9, 10, .warning, rule: RuleID.interactiveDeadline, message: "deadline is long"),
        ])
        let duplicate = file("Policies/a.yaml", "version: 1\nversion: 1\n", [
            diagnostic(2, 1, 8, rule: RuleID.yamlDuplicateKey, message: "key 'version' appears twice",
                       related: [.init(file: "Policies/a.yaml", span: span(1, 1, 8), message: "first 'version' is here")]),
        ])
        let clean = file("Policies/c.yaml", Canonical.text, [])
        return [broken, clean, duplicate]
    }

    // MARK: summary

    @Test func summaryCountsAndPlurals() {
        let summary = ReportSummary(Self.mixed)
        #expect(summary == ReportSummary(files: 3, errors: 2, warnings: 1))
        #expect(summary.text == "2 errors, 1 warning in 3 files")
        #expect(ReportSummary(files: 1, errors: 1, warnings: 0).text == "1 error, 0 warnings in 1 file")
        #expect(ReportSummary(files: 1, errors: 0, warnings: 1).failed(strict: false) == false)
        #expect(ReportSummary(files: 1, errors: 0, warnings: 1).failed(strict: true) == true)
        #expect(ReportSummary(files: 1, errors: 1, warnings: 0).failed(strict: false) == true)
        #expect(ReportSummary(files: 1, errors: 0, warnings: 0).failed(strict: true) == false)
    }

    // MARK: order

    /// `sortForReport` skips lists already in order and sorts the others by index: it must give
    /// what a stable sort of the findings gives, ties (same place, rule and message) in the order
    /// they came, for lists in order, reversed, shuffled and with many ties.
    @Test func reportOrderIsAStableSort() {
        var rng = Rng(state: 7)
        for round in 0..<200 {
            let count = rng.below(40)
            var list: [Diagnostic] = (0..<count).map { i in
                Diagnostic(file: rng.pick(["a.yaml", "b.yaml"]), span: Self.span(1 + rng.below(4), 1 + rng.below(3), 9),
                           severity: .error, rule: rng.pick(["missing-key", "bad-name"]),
                           message: rng.pick(["m", "n"]), help: "\(i)")
            }
            if round % 4 == 0 { list.sort { Diagnostic.inReportOrder($0, $1) } }
            if round % 4 == 1 { list = list.sorted { Diagnostic.inReportOrder($0, $1) }.reversed() }
            let stable = list.enumerated().sorted { a, b in
                Diagnostic.inReportOrder(a.element, b.element)
                    || (!Diagnostic.inReportOrder(b.element, a.element) && a.offset < b.offset)
            }.map(\.element)
            #expect(list.sortedForReport() == stable, "round \(round)")
        }
    }

    // MARK: text

    /// The text report writes its headlines as bytes: each is `Diagnostic.headline`, whatever
    /// the numbers, severities and messages (escapes made printable).
    @Test func headlinesWrittenAsBytesAreTheHeadlines() {
        var findings = Self.mixed.flatMap(\.diagnostics)
        findings.append(Self.diagnostic(123_456, 7_890, nil, .warning, rule: "bad-name", message: "tab\there \u{1B}[31m"))
        findings.append(Self.diagnostic(0, 0))
        for var d in findings {
            d.file = "dir/a b.yaml"
            var bytes: [UInt8] = []
            Reporters.writeHeadline(d, file: d.file, color: false, to: &bytes)
            #expect(String(decoding: bytes, as: UTF8.self) == d.headline)
        }
    }

    @Test func textIsCompilerStyleWithSourceCaretHelpAndGuide() {
        let text = Reporters.text(Self.mixed)
        let expected = """
            Policies/a.yaml:2:1: error: key 'version' appears twice [yaml-duplicate-key]
            version: 1
            ^~~~~~~
              note: Policies/a.yaml:1:1: first 'version' is here
            Policies/b.yaml:2:9: warning: deadline is long [interactive-deadline]
            policy: b
                    ^
            \(Catalog.rule(named: "interactive-deadline")?.reference.map { "  guide: \($0.text)\n" } ?? "")\
            Policies/b.yaml:4:3: error: unknown key 'budgte' in 'retry' [unknown-key]
              budgte: {}
              ^~~~~~
              help: did you mean 'budget'?

            """
        #expect(text == expected)
    }

    @Test func textShowsTheGuideOfRulesWithAReference() throws {
        let rule = try #require(Catalog.rule(.timeoutMin))
        let files = [Self.file("p.yaml", "      timeout: 2s\n", [Self.diagnostic(1, 16, 18, rule: RuleID.timeoutMin, message: "too short")])]
        let reference = try #require(rule.reference)
        #expect(Reporters.text(files) == """
            p.yaml:1:16: error: too short [timeout-min]
                  timeout: 2s
                           ^~
              guide: "\(reference.quote ?? "")" (\(reference.section))

            """)
    }

    @Test func textKeepsTabsAndCountsColumnsInScalars() {
        // The caret line repeats the tab, and a multibyte character before the column is one column.
        let source = "a:\t\"é中\": x\n"
        let files = [Self.file("t.yaml", source, [Self.diagnostic(1, 8, 9)])]
        let lines = Reporters.text(files).split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines[1] == "a:\t\"é中\": x")
        // 'a', ':' are one column each, the tab is kept, '"' and 'é' one column, '中' two, '"' one.
        #expect(lines[2] == "  \t     ^")
    }

    @Test func textNeutralisesControlAndBidiCharactersInTheSourceLine() {
        let source = "name: \u{1B}[31mred\u{202E}x\n"
        let files = [Self.file("e.yaml", source, [Self.diagnostic(1, 7, 8, message: "bad \u{1B}[2J")])]
        let text = Reporters.text(files)
        #expect(!text.unicodeScalars.contains("\u{1B}"))
        #expect(!text.unicodeScalars.contains("\u{202E}"))
        #expect(text.contains("name: \\u{1B}[31mred\\u{202E}x"))
        #expect(text.contains("bad \\u{1B}[2J"))
        // The escape takes 6 columns; the caret is under its first.
        #expect(text.split(separator: "\n")[2] == "      ^~~~~~")
    }

    @Test func textNeutralisesAFileName() {
        let files = [Self.file("evil\n\u{1B}[2J.yaml", "a: 1\n", [Self.diagnostic(1, 1, message: "m")])]
        #expect(Reporters.text(files) == "evil\\u{A}\\u{1B}[2J.yaml:1:1: error: m [yaml-syntax]\na: 1\n^\n")
    }

    @Test func textFindsLinesAsEditorsCountThem() {
        // CRLF, a lone CR and a BOM: the third line is still line 3, and the BOM is no column.
        let source = "\u{FEFF}a: 1\r\nb: 2\rc: 3\n"
        let files = [Self.file("n.yaml", source, [Self.diagnostic(1, 1), Self.diagnostic(3, 4)])]
        let lines = Reporters.text(files).split(separator: "\n")
        #expect(lines[1] == "a: 1")
        #expect(lines[2] == "^")
        #expect(lines[4] == "c: 3")
        #expect(lines[5] == "   ^")
    }

    @Test func textWithoutTheLineShowsOnlyTheHeadline() {
        // A syntax error at the end of a file that ends with a newline points at a line that is empty.
        let files = [Self.file("s.yaml", "a: [b\n", [Self.diagnostic(2, 1, rule: RuleID.yamlSyntax, message: "m"),
                                                   Self.diagnostic(9, 1, rule: RuleID.yamlSyntax, message: "n")])]
        #expect(Reporters.text(files) == "s.yaml:2:1: error: m [yaml-syntax]\ns.yaml:9:1: error: n [yaml-syntax]\n")
    }

    @Test func textCaretAtTheEndOfTheLine() {
        let files = [Self.file("m.yaml", "key:\n", [Self.diagnostic(1, 5, message: "m")])]
        #expect(Reporters.text(files).split(separator: "\n")[2] == "    ^")
    }

    @Test func textCutsVeryLongLinesToAWindow() {
        let long = String(repeating: "x", count: 5000) + "BAD" + String(repeating: "y", count: 5000)
        let files = [Self.file("l.yaml", long, [Self.diagnostic(1, 5001, 5004)])]
        let lines = Reporters.text(files).split(separator: "\n").map(String.init)
        #expect(lines[1].count <= Reporters.Excerpt.window + 2)
        #expect(lines[1].hasPrefix("…") && lines[1].hasSuffix("…"))
        // The caret still stands under the B of BAD.
        let caretOffset = lines[2].firstIndex(of: "^").map { lines[2].distance(from: lines[2].startIndex, to: $0) }
        let badOffset = lines[1].range(of: "BAD").map { lines[1].distance(from: lines[1].startIndex, to: $0.lowerBound) }
        #expect(caretOffset != nil && caretOffset == badOffset)
        #expect(lines[2].hasSuffix("^~~"))
    }

    @Test func colourIsTheSameTextWithEscapes() {
        let plain = Reporters.text(Self.mixed, color: false)
        let coloured = Reporters.text(Self.mixed, color: true)
        #expect(coloured != plain)
        #expect(coloured.contains("\u{1B}[1;31merror:"))
        #expect(coloured.contains("\u{1B}[1;33mwarning:"))
        #expect(!plain.contains("\u{1B}"))
        #expect(Self.stripANSI(coloured) == plain)
    }

    static func stripANSI(_ s: String) -> String {
        var out = ""
        var scalars = s.unicodeScalars[...]
        while let c = scalars.popFirst() {
            if c == "\u{1B}" {
                while let d = scalars.popFirst(), d != "m" {}
            } else {
                out.unicodeScalars.append(c)
            }
        }
        return out
    }

    @Test func reportsDoNotDependOnTheOrderOfFiles() {
        let files = Self.mixed
        for format in ReportFormat.allCases {
            #expect(Reporters.render(format, files) == Reporters.render(format, files.reversed()))
        }
    }

    @Test func theBytesWrittenAreTheReport() {
        // The CLI writes the text report's bytes as made (`textBytes`), never made a String: they
        // are `text`'s UTF-8 with lines past ASCII, a bidi control and an invalid byte in the
        // source, colour on and off.
        let source = Array("a: \"éé中\u{202E}\": x\nb: ".utf8) + [0xFF, 0x0A]
        var odd = Self.file("u.yaml", "", [Self.diagnostic(1, 5, 7, message: "über"), Self.diagnostic(2, 4)])
        odd.source = source
        for files in [Self.mixed, [odd], Self.mixed + [odd]] {
            #expect(Reporters.textBytes(files) == Array(Reporters.text(files).utf8))
            #expect(Reporters.textBytes(files, color: true) == Array(Reporters.text(files, color: true).utf8))
            #expect(Reporters.textBytes(files) == Array(Reporters.render(.text, files).utf8))
            #expect(!Reporters.textBytes(files).isEmpty)
        }
    }

    // MARK: json

    @Test func jsonIsSpecsOneObject() throws {
        let json = Reporters.json(Self.mixed)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect(Set(object.keys) == ["diagnostics", "summary"])
        let summary = try #require(object["summary"] as? [String: Int])
        #expect(summary == ["files": 3, "errors": 2, "warnings": 1])
        let diagnostics = try #require(object["diagnostics"] as? [[String: Any]])
        #expect(diagnostics.count == 3)
        for d in diagnostics {
            // SPEC's members, and beside them what SARIF carries too.
            #expect(Set(d.keys) == ["file", "line", "column", "severity", "rule", "message", "help",
                                    "endLine", "endColumn", "reference", "related"])
        }
        #expect(diagnostics.map { $0["file"] as? String } == ["Policies/a.yaml", "Policies/b.yaml", "Policies/b.yaml"])
        #expect(diagnostics.map { $0["line"] as? Int } == [2, 2, 4])
        #expect(diagnostics[2]["help"] as? String == "did you mean 'budget'?")
        #expect(diagnostics[0]["help"] is NSNull)
        #expect(Reporters.json([]) == "{\n  \"diagnostics\": [],\n  \"summary\": {\n    \"errors\": 0,\n    \"files\": 0,\n    \"warnings\": 0\n  }\n}\n")
    }

    /// A finding with a fix carries it (1-based, columns in Unicode scalars, the end left out); one
    /// without has no `fix` at all.
    @Test func jsonCarriesTheFix() throws {
        let text = Canonical.text.replacingFirst("description: Ticket requests made by the iOS and Android players.",
                                                with: "description: 日本語 🎬")
            .replacingFirst("cap: 8s", with: "cap: 8 sec").replacingFirst("timeout: 8s", with: "timeout: 20s")
        let file = Checker.check(Array(text.utf8), path: "p.yaml")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(Reporters.json([file]).utf8)) as? [String: Any])
        let diagnostics = try #require(object["diagnostics"] as? [[String: Any]])
        #expect(diagnostics.map { $0["rule"] as? String } == ["type-mismatch", "timeout-within-deadline"])
        let fix = try #require(diagnostics[0]["fix"] as? [String: Any])
        #expect(fix["safety"] as? String == "safe")
        #expect(fix["description"] as? String == "write 8s")
        let edits = try #require(fix["edits"] as? [[String: Any]])
        #expect(edits.count == 1)
        #expect(edits[0]["start"] as? [String: Int] == ["line": 11, "column": 12])
        #expect(edits[0]["end"] as? [String: Int] == ["line": 11, "column": 17])
        #expect(edits[0]["text"] as? String == "8s")
        // No single correction for a timeout over the deadline: no fix, and no key for it.
        #expect(diagnostics[1]["fix"] == nil)
        #expect(Set(diagnostics[1].keys) == ["file", "line", "column", "severity", "rule", "message", "help",
                                              "endLine", "endColumn", "reference", "related"])
    }

    @Test func textShowsTheFixLastAndHelpOfSeveralLinesIndented() throws {
        let text = Canonical.text.replacingFirst("  budget:\n    ratio: 10%\n    minPerMinute: 10\n", with: "")
            .replacingFirst("honor: true", with: "honor: yes")
        let out = Reporters.text([Checker.check(Array(text.utf8), path: "p.yaml")])
        #expect(out.contains("""
              help: add it as the canonical policy has it:
                    budget:
                      ratio: 10%
                      minPerMinute: 10
              fix: add the canonical 'budget' (unsafe: lint --unsafe-fixes)

            """))
        #expect(out.contains("  help: write true\n  fix: write true (safe: lint --fix)\n"))
    }

    // MARK: github

    @Test func githubEscapesAsGitHubDocuments() {
        #expect(Reporters.githubData("100% done\r\nnext") == "100%25 done%0D%0Anext")
        #expect(Reporters.githubData("a:b,c") == "a:b,c")
        #expect(Reporters.githubProperty("dir:x/a,b%.yaml\n") == "dir%3Ax/a%2Cb%25.yaml%0A")
        #expect(Reporters.githubData("\u{2028}::error::x\u{85}") == "\\u{2028}::error::x\\u{85}")
    }

    @Test func githubWorkflowCommands() {
        let lines = Reporters.github(Self.mixed).split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines == [
            "::error file=Policies/a.yaml,line=2,col=1,endLine=2,endColumn=7,title=yaml-duplicate-key::key 'version' appears twice",
            "::warning file=Policies/b.yaml,line=2,col=9,endLine=2,endColumn=9,title=interactive-deadline::deadline is long"
                + (Catalog.rule(named: "interactive-deadline")?.reference.map { "%0Aguide: " + Reporters.githubData($0.text) } ?? ""),
            "::error file=Policies/b.yaml,line=4,col=3,endLine=4,endColumn=8,title=unknown-key::unknown key 'budgte' in 'retry'%0Ahelp: did you mean 'budget'?",
            "",
        ])
    }

    @Test func githubHostileTextCannotStartACommand() {
        let hostile = "x\n::error file=evil::pwned\r::add-mask::y\u{2028}::warning::z %0A"
        let files = [Self.file("a,b:c%d.yaml", "x\n", [
            Self.diagnostic(1, 1, rule: RuleID.yamlSyntax, message: hostile, help: "\n::stop-commands::t"),
        ])]
        let out = Reporters.github(files)
        let lines = out.split(separator: "\n")
        #expect(lines.count == 1)
        #expect(!out.contains("\r") && !out.unicodeScalars.contains("\u{2028}"))
        #expect(lines[0].hasPrefix("::error file=a%2Cb%3Ac%25d.yaml,line=1,"))
        #expect(lines[0].hasSuffix("::x%0A::error file=evil::pwned%0D::add-mask::y\\u{2028}::warning::z %250A%0Ahelp: %0A::stop-commands::t"))
    }

    // MARK: junit

    @Test func junitSuitesCasesAndFailures() throws {
        let xml = Reporters.junit(Self.mixed)
        let tree = try XMLTree(xml)
        #expect(tree.count("testsuite") == 3)
        #expect(tree.count("testcase") == 4)  // two errors, one warning, one clean file
        #expect(tree.count("failure") == 2)
        #expect(tree.count("system-out") == 1)
        #expect(tree.attributes("testsuite", "name") == ["Policies/a.yaml", "Policies/b.yaml", "Policies/c.yaml"])
        #expect(tree.attributes("testsuite", "failures") == ["1", "1", "0"])
        #expect(tree.attributes("testsuites", "failures") == ["2"])
        #expect(tree.attributes("testcase", "name").last == "lint")
    }

    @Test func junitStrictFailsWarningsToo() throws {
        let tree = try XMLTree(Reporters.junit(Self.mixed, strict: true))
        #expect(tree.count("failure") == 3)
        #expect(tree.count("system-out") == 0)
    }

    @Test func junitEscapesAndDropsWhatXMLCannotHold() throws {
        let hostile = "<tag a=\"1\"> & 'q' \u{0}\u{1B}\u{8}\u{FFFE}\u{FFFF} ]]> \r\n\t end"
        let files = [Self.file("a&<b>\".yaml", "x\n", [Self.diagnostic(1, 1, message: hostile, help: hostile)])]
        let xml = Reporters.junit(files)
        for bad: Unicode.Scalar in ["\u{0}", "\u{1B}", "\u{8}", "\u{FFFE}", "\u{FFFF}"] {
            #expect(!xml.unicodeScalars.contains(bad))
        }
        let tree = try XMLTree(xml)
        #expect(tree.attributes("testsuite", "name") == ["a&<b>\".yaml"])
        let message = try #require(tree.attributes("failure", "message").first)
        #expect(message == "<tag a=\"1\"> & 'q' \\u{0}\\u{1B}\\u{8}\\u{FFFE}\\u{FFFF} ]]> \r\n\t end")
    }

    // MARK: sarif

    @Test func sarifShape() throws {
        let sarif = Reporters.sarif(Self.mixed)
        let root = try #require(try JSONSerialization.jsonObject(with: Data(sarif.utf8)) as? [String: Any])
        #expect(root["version"] as? String == "2.1.0")
        #expect((root["$schema"] as? String)?.hasSuffix("sarif-schema-2.1.0.json") == true)
        let run = try #require((root["runs"] as? [[String: Any]])?.first)
        #expect(run["columnKind"] as? String == "unicodeCodePoints")
        let driver = try #require((run["tool"] as? [String: Any])?["driver"] as? [String: Any])
        #expect(driver["name"] as? String == "policyc")
        #expect(driver["version"] as? String == PolicycVersion.string)
        let rules = try #require(driver["rules"] as? [[String: Any]])
        let ids = rules.compactMap { $0["id"] as? String }
        // The whole catalog first, in its order, then rules a finding names that it lacks.
        #expect(Array(ids.prefix(Catalog.rules.count)) == Catalog.rules.map(\.id.rawValue))
        for rule in rules.prefix(Catalog.rules.count) {
            #expect(rule["shortDescription"] != nil && rule["fullDescription"] != nil)
            let help = try #require(rule["help"] as? [String: String])
            #expect(help["text"] != nil && help["markdown"] != nil)
            #expect(((rule["defaultConfiguration"] as? [String: String])?["level"]).map { ["error", "warning"].contains($0) } == true)
        }
        let results = try #require(run["results"] as? [[String: Any]])
        #expect(results.count == 3)
        for result in results {
            let index = try #require(result["ruleIndex"] as? Int)
            #expect(ids[index] == result["ruleId"] as? String)
        }
        #expect(results.map { $0["level"] as? String } == ["error", "warning", "error"])
        let location = try #require((results[0]["locations"] as? [[String: Any]])?.first?["physicalLocation"] as? [String: Any])
        let artifact = try #require(location["artifactLocation"] as? [String: String])
        #expect(artifact == ["uri": "Policies/a.yaml", "uriBaseId": "%SRCROOT%"])
        let region = try #require(location["region"] as? [String: Int])
        #expect(region == ["startLine": 2, "startColumn": 1, "endLine": 2, "endColumn": 8])
        let related = try #require(results[0]["relatedLocations"] as? [[String: Any]])
        #expect(related.count == 1)
        #expect(((related[0]["message"] as? [String: String])?["text"]) == "first 'version' is here")
    }

    @Test func sarifFixesAreReplacements() throws {
        let text = Canonical.text.replacingFirst("502, 503]", with: "502, 503, 404]")
        let sarif = Reporters.sarif([Checker.check(Array(text.utf8), path: "p.yaml")])
        let root = try #require(try JSONSerialization.jsonObject(with: Data(sarif.utf8)) as? [String: Any])
        let result = try #require(((root["runs"] as? [[String: Any]])?.first?["results"] as? [[String: Any]])?.first)
        let fix = try #require((result["fixes"] as? [[String: Any]])?.first)
        #expect((fix["description"] as? [String: String])?["text"] == "remove 404 from retryOn")
        #expect((fix["properties"] as? [String: String])?["safety"] == "unsafe")
        let change = try #require((fix["artifactChanges"] as? [[String: Any]])?.first)
        #expect(change["artifactLocation"] as? [String: String] == ["uri": "p.yaml", "uriBaseId": "%SRCROOT%"])
        let replacement = try #require((change["replacements"] as? [[String: Any]])?.first)
        // `, 404` goes: from after 503 (column 40) up to the bracket (column 45).
        #expect(replacement["deletedRegion"] as? [String: Int] == ["startLine": 21, "startColumn": 40, "endLine": 21, "endColumn": 45])
        #expect(replacement["insertedContent"] as? [String: String] == ["text": ""])
        // The catalog marks the rules that can fix.
        let rules = try #require((((root["runs"] as? [[String: Any]])?.first?["tool"] as? [String: Any])?["driver"] as? [String: Any])?["rules"] as? [[String: Any]])
        let statuses = try #require(rules.first { $0["id"] as? String == "retry-statuses" })
        #expect((statuses["properties"] as? [String: [String]])?["fixes"] == ["unsafe"])
    }

    @Test func sarifURIsAreURIReferences() {
        #expect(Reporters.sarifArtifactLocation("./Policies/a b%#?.yaml")
                == .object(["uri": .string("Policies/a%20b%25%23%3F.yaml"), "uriBaseId": .string("%SRCROOT%")]))
        #expect(Reporters.sarifArtifactLocation("<stdin>")
                == .object(["uri": .string("%3Cstdin%3E"), "uriBaseId": .string("%SRCROOT%")]))
        #expect(Reporters.sarifArtifactLocation("/tmp/é.yaml") == .object(["uri": .string("file:///tmp/%C3%A9.yaml")]))
    }

    @Test(.enabled(if: SARIFValidator.shouldRun, "python3 with jsonschema is missing: SARIF schema validation skipped (required when CI=true)"))
    func sarifValidatesAgainstTheSchema() throws {
        let checked = [
            Checker.check(Array(Canonical.text.utf8), path: "Policies/playback.yaml"),
            Checker.check(Array(Canonical.text.replacingFirst("maxRetries: 3", with: "maxRetries: 4").utf8), path: "x/4 retries.yaml"),
            Checker.check(Array("version: 1\nversion: 2\n".utf8), path: "dup.yaml"),
            Checker.check(Array("a: [b\n".utf8), path: "<stdin>"),
            Checker.check([0xFF, 0xFE, 0x41], path: "/abs/binary.yaml"),
            // Fixes of every shape: a replacement, an insertion of lines, a deletion, quotes kept.
            Checker.check(Array(Canonical.text.replacingFirst("cap: 8s", with: "cap: 8 sec")
                .replacingFirst("  budget:\n    ratio: 10%\n    minPerMinute: 10\n", with: "")
                .replacingFirst("502, 503]", with: "502, 503, 404]")
                .replacingFirst("backoff: full-jitter", with: "backoff: \"exponential\"").utf8), path: "fixes/é.yaml"),
        ]
        let fixes = Reporters.sarif([checked[5]])
        #expect(fixes.contains("\"artifactChanges\"") && fixes.contains("\"deletedRegion\"") && fixes.contains("\"insertedContent\""))
        for files in [[], checked, Self.mixed, [checked[2]]] {
            try SARIFValidator.validate(Reporters.sarif(files))
        }
        // Each rule's helpUri, the default's and a project's own rulesUrl.
        try SARIFValidator.validate(Reporters.sarif(checked, pages: try #require(RulePages("https://docs.example.com/r/{rule}.html?v=1"))))
    }

    // MARK: inputs that could not be read, folders without policies

    static let notices = [
        InputNotice(.unreadable, path: "Policies/sub", message: "cannot read 'Policies/sub': Permission denied"),
        InputNotice.empty(folder: "Other"),
    ]

    @Test func everyMachineFormatCarriesTheNotices() throws {
        let json = try #require(try JSONSerialization.jsonObject(with: Data(Reporters.json(Self.mixed, notices: Self.notices).utf8)) as? [String: Any])
        #expect(json["summary"] as? [String: Int] == ["files": 3, "errors": 2, "warnings": 2])
        #expect((json["notices"] as? [[String: String]])?.map { $0["kind"] } == ["no-policy-files", "unreadable-input"])
        #expect(Reporters.json(Self.mixed).contains("notices") == false)

        let github = Reporters.github([], notices: Self.notices)
        #expect(github == "::warning title=no-policy-files::no *.yaml or *.yml file under 'Other'\n"
                + "::error file=Policies/sub,title=unreadable-input::cannot read 'Policies/sub': Permission denied\n")

        let tree = try XMLTree(Reporters.junit(Self.mixed, notices: Self.notices))
        #expect(tree.attributes("testsuites", "errors") == ["1"])
        #expect(tree.attributes("testsuite", "name") == ["Other", "Policies/a.yaml", "Policies/b.yaml", "Policies/c.yaml", "Policies/sub"])
        #expect(tree.count("error") == 1 && tree.count("failure") == 2)
        let strict = try XMLTree(Reporters.junit([], notices: Self.notices, strict: true))
        #expect(strict.count("failure") == 1 && strict.attributes("testsuites", "failures") == ["1"])

        let sarif = try #require(try JSONSerialization.jsonObject(with: Data(Reporters.sarif(Self.mixed, notices: Self.notices).utf8)) as? [String: Any])
        let invocation = try #require(((sarif["runs"] as? [[String: Any]])?.first?["invocations"] as? [[String: Any]])?.first)
        #expect(invocation["executionSuccessful"] as? Bool == false)
        #expect((invocation["toolExecutionNotifications"] as? [[String: Any]])?.map { $0["level"] as? String } == ["warning", "error"])
        if SARIFValidator.shouldRun {
            try SARIFValidator.validate(Reporters.sarif(Self.mixed, notices: Self.notices))
            try SARIFValidator.validate(Reporters.sarif([], notices: [Self.notices[1]]))
        }
        #expect(ReportSummary(Self.mixed, notices: Self.notices).line(strict: false) == "2 errors, 2 warnings in 3 files; 1 path could not be read")
        #expect(ReportSummary([], notices: [Self.notices[1]]).line(strict: true) == "0 errors, 1 warning in 0 files; failing because of --strict (warnings fail the check)")
    }

    @Test func repositoryPaths() {
        let here = RepositoryLocation(root: "/src/repo", workingDirectory: "/src/repo/apps/player")
        #expect(here.relative("Policies/a.yaml") == "apps/player/Policies/a.yaml")
        #expect(here.relative("./Policies/../Policies//a.yaml") == "apps/player/Policies/a.yaml")
        #expect(here.relative("../../b.yaml") == "b.yaml")
        #expect(here.relative("../../../outside.yaml") == "../../../outside.yaml")
        #expect(here.relative("/src/repo/x/y.yaml") == "x/y.yaml")
        #expect(here.relative("/elsewhere/y.yaml") == "/elsewhere/y.yaml")
        #expect(here.relative("<stdin>") == "<stdin>")
        let lines = Reporters.github(Self.mixed, repository: here).split(separator: "\n")
        #expect(lines.allSatisfy { $0.hasPrefix("::error file=apps/player/Policies/") || $0.hasPrefix("::warning file=apps/player/Policies/") })
    }

    @Test func jsonEndsAndRelated() throws {
        let json = try #require(try JSONSerialization.jsonObject(with: Data(Reporters.json(Self.mixed).utf8)) as? [String: Any])
        let diagnostics = try #require(json["diagnostics"] as? [[String: Any]])
        #expect(diagnostics.map { $0["endColumn"] as? Int } == [8, 10, 9])
        #expect(diagnostics[1]["reference"] as? [String: String?] != nil)
        let related = try #require(diagnostics[0]["related"] as? [[String: Any]])
        #expect(related.first?["message"] as? String == "first 'version' is here")
        #expect(related.first?["endColumn"] as? Int == 8)
        // A span that ends before it starts (a position only) ends where it starts.
        let point = Diagnostic(file: "p", span: Span(start: Mark(line: 3, column: 4), end: Mark(line: 1, column: 1)),
                               severity: .error, rule: "yaml-syntax", message: "m")
        guard case .object(let members) = point.json else { Issue.record("not an object"); return }
        #expect(members["endLine"] == .int(3) && members["endColumn"] == .int(4))
    }

    @Test func sarifValidatorIsThereOnCI() {
        if ProcessInfo.processInfo.environment["CI"] == "true" {
            #expect(SARIFValidator.isAvailable, "CI=true: python3 with jsonschema must be installed to validate SARIF")
        }
    }

    // MARK: the catalog report

    @Test func catalogMarkdownIsTheTable() {
        let lines = CatalogReport.markdown().split(separator: "\n")
        #expect(lines.first == "| rule | severity | fires when | guide | fix |")
        #expect(lines.count == Catalog.rules.count + 2)
        for (line, rule) in zip(lines.dropFirst(2), Catalog.rules) {
            #expect(line.hasPrefix("| `\(rule.id.rawValue)` | \(rule.severity.rawValue) | "))
            #expect(line.split(separator: "|", omittingEmptySubsequences: false).count == 7)
            // The last column says which fixes the rule's findings carry.
            let fix = line.split(separator: "|", omittingEmptySubsequences: false)[5].trimmingCharacters(in: .whitespaces)
            #expect(fix == (rule.fixes.isEmpty ? "—" : rule.fixes.map(\.rawValue).joined(separator: ", ")))
        }
        #expect(CatalogReport.markdown().contains("| `type-mismatch` | error | "))
        #expect(CatalogReport.markdown().contains("| — | safe, unsafe |"))
    }

    @Test func catalogJSONHasEveryRuleAndExample() throws {
        let root = try #require(try JSONSerialization.jsonObject(with: Data(CatalogReport.json().utf8)) as? [String: Any])
        let rules = try #require(root["rules"] as? [[String: Any]])
        #expect(rules.map { $0["id"] as? String } == Catalog.rules.map(\.id.rawValue))
        for (json, rule) in zip(rules, Catalog.rules) {
            #expect(json["fixes"] as? [String] == rule.fixes.map(\.rawValue))
            let examples = try #require(json["examples"] as? [[String: Any]])
            #expect(examples.count == rule.examples.count)
            for (e, example) in zip(examples, rule.examples) {
                #expect(e["yaml"] as? String == example.source)
                #expect(e["fixed"] as? String == example.fixed)
                #expect(e["unsafeFixed"] as? String == example.unsafeFixed)
                #expect(e["triggers"] as? Bool == example.triggers)
                #expect((e["findings"] as? [Any])?.count == example.markedPositions.count)
            }
        }
    }

    @Test func catalogTextShowsEveryRuleAndExample() {
        let text = CatalogReport.text()
        for rule in Catalog.rules {
            #expect(text.contains("\(rule.id.rawValue) (\(rule.severity.rawValue))\n"))
            for example in rule.examples {
                #expect(text.contains("\(example.triggers ? "triggers" : "passes"): \(example.note)\n"))
            }
        }
    }

    @Test func catalogTextShowsOnlyTheChangedLinesOfACanonicalExample() {
        let example = Example.canonical(replacing: "maxRetries: 3", with: "maxRetries: ↓4", triggers: true, note: "n")
        #expect(CatalogReport.excerpt(of: example) == """
                  the canonical policy with line 9 as:
                   9 |       maxRetries: 4         # retries after the first attempt
                     |                   ^

            """)
        let removal = Example(Canonical.text.replacingFirst("  onlyUnlocked: true\n", with: ""), triggers: true, note: "n")
        #expect(CatalogReport.excerpt(of: removal) == """
                  the canonical policy without line 35:
                  35 | -   onlyUnlocked: true

            """)
    }
}

typealias SARIFValidator = SARIFSchema

/// A parsed XML document, only as much as the tests ask of it: a parse error throws.
struct XMLTree {
    var elements: [(name: String, attributes: [String: String])] = []

    init(_ xml: String) throws {
        let parser = XMLParser(data: Data(xml.utf8))
        let delegate = Delegate()
        parser.delegate = delegate
        guard parser.parse() else {
            throw Processes.Failure("not well-formed XML: \(String(describing: parser.parserError))\n\(xml)")
        }
        elements = delegate.elements
    }

    func count(_ name: String) -> Int { elements.count { $0.name == name } }

    func attributes(_ name: String, _ attribute: String) -> [String] {
        elements.filter { $0.name == name }.compactMap { $0.attributes[attribute] }
    }

    final class Delegate: NSObject, XMLParserDelegate {
        var elements: [(name: String, attributes: [String: String])] = []

        func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                    qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]) {
            elements.append((elementName, attributeDict))
        }
    }
}
