import Foundation
import Testing

@testable import PolicyKit
@testable import TestSupport
/// Runs the built `policyc` as a user would and checks stdout, stderr and the exit status.
@Suite struct CLITests {
    // MARK: running the binary

    struct Outcome: CustomStringConvertible {
        var out: String
        var err: String
        var status: Int32

        var description: String { "exit \(status)\n--- stdout\n\(out)--- stderr\n\(err)" }
    }

    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static let binary: URL? = GenSupport.policyc

    struct Missing: Error, CustomStringConvertible {
        var description: String
    }

    /// Runs the binary with `arguments`; through `wrapper` when given (`setpriv … policyc …`).
    static func policyc(_ arguments: [String], in directory: URL? = nil, stdin: String? = nil,
                        environment: [String: String] = [:], wrapper: [String] = []) throws -> Outcome {
        guard let binary else { throw Missing(description: "the policyc binary was not found beside the tests") }
        let tool = wrapper.first ?? binary.path
        let argv = wrapper.isEmpty ? arguments : Array(wrapper.dropFirst()) + [binary.path] + arguments
        let result = try Processes.run(tool, argv, in: directory, stdin: stdin.map { Data($0.utf8) }, environment: environment)
        return Outcome(out: result.stdout, err: result.stderr, status: result.status)
    }

    /// A fresh folder for one test, removed by the caller's `defer`.
    static func scratch() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("policyc-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    static func write(_ text: String, to name: String, in dir: URL) throws {
        let url = dir.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    static let canonical: String = {
        (try? String(contentsOf: packageRoot.appendingPathComponent("Policies/playback.yaml"), encoding: .utf8)) ?? ""
    }()

    /// The canonical policy with two limits broken and one key misspelt: three errors (the misspelt
    /// key is one finding, not also a missing one).
    static var broken: String {
        canonical
            .replacingOccurrences(of: "maxRetries: 3 ", with: "maxRetries: 4 ")
            .replacingOccurrences(of: "timeout: 8s ", with: "timeout: 2s ")
            .replacingOccurrences(of: "  budget:\n", with: "  budgte:\n")
    }

    static func json(_ text: String) throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: Data(text.utf8))
        return try #require(object as? [String: Any])
    }

    // MARK: lint, every format, clean and broken

    @Test func canonicalPolicyIsClean() throws {
        #expect(!Self.canonical.isEmpty)
        let dir = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Self.write(Self.canonical, to: "Policies/playback.yaml", in: dir)

        let text = try Self.policyc(["lint"], in: dir)
        #expect(text.status == 0, "\(text)")
        #expect(text.out == "")
        #expect(text.err == "0 errors, 0 warnings in 1 file\n")

        let json = try Self.policyc(["lint", "--format", "json", "Policies/playback.yaml"], in: dir)
        #expect(json.status == 0)
        let object = try Self.json(json.out)
        #expect((object["diagnostics"] as? [Any])?.isEmpty == true)
        #expect(object["summary"] as? [String: Int] == ["files": 1, "errors": 0, "warnings": 0])
        #expect(json.err == "0 errors, 0 warnings in 1 file\n")

        let github = try Self.policyc(["lint", "--format=github"], in: dir)
        #expect(github.status == 0 && github.out == "")

        let junit = try Self.policyc(["lint", "--format", "junit"], in: dir)
        #expect(junit.status == 0)
        #expect(junit.out.contains("<testsuite name=\"Policies/playback.yaml\" tests=\"1\" failures=\"0\""))
        #expect(junit.out.contains("<testcase name=\"lint\""))

        let sarif = try Self.policyc(["lint", "--format", "sarif"], in: dir)
        #expect(sarif.status == 0)
        let run = try #require((try Self.json(sarif.out)["runs"] as? [[String: Any]])?.first)
        #expect((run["results"] as? [Any])?.isEmpty == true)
    }

    @Test func brokenPolicyInEveryFormat() throws {
        let dir = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Self.write(Self.broken, to: "bad.yaml", in: dir)

        let text = try Self.policyc(["lint", "bad.yaml"], in: dir)
        #expect(text.status == 1, "\(text)")
        #expect(text.out.contains("""
            bad.yaml:9:19: error: interactive profile 'interactive' allows 4 retries; at most 3 are allowed [interactive-retries-max]
                  maxRetries: 4         # retries after the first attempt
                              ^
              guide: "At most 3 retries per interactive request" (Checklist)

            """))
        #expect(text.out.contains("bad.yaml:29:3: error: unknown key 'budgte' in 'retry' [unknown-key]\n  budgte:\n  ^~~~~~\n  help: did you mean 'budget'?\n"))
        #expect(text.err == "3 errors, 0 warnings in 1 file\n")
        #expect(!text.out.contains("\u{1B}"), "no colour when stdout is not a terminal")

        let json = try Self.policyc(["lint", "--format", "json", "bad.yaml"], in: dir)
        #expect(json.status == 1)
        let diagnostics = try #require(try Self.json(json.out)["diagnostics"] as? [[String: Any]])
        #expect(diagnostics.map { $0["rule"] as? String } == ["interactive-retries-max", "timeout-min", "unknown-key"])
        #expect(diagnostics.map { $0["line"] as? Int } == [9, 12, 29])
        #expect(json.err == "3 errors, 0 warnings in 1 file\n")

        let github = try Self.policyc(["lint", "--format", "github", "bad.yaml"], in: dir)
        #expect(github.status == 1)
        let lines = github.out.split(separator: "\n")
        #expect(lines.count == 3)
        #expect(lines.allSatisfy { $0.hasPrefix("::error file=bad.yaml,line=") })
        #expect(lines[0].hasPrefix("::error file=bad.yaml,line=9,col=19,endLine=9,endColumn=19,title=interactive-retries-max::interactive profile 'interactive' allows 4 retries"))

        let junit = try Self.policyc(["lint", "--format", "junit", "bad.yaml"], in: dir)
        #expect(junit.status == 1)
        #expect(junit.out.components(separatedBy: "<failure ").count - 1 == 3)

        let sarif = try Self.policyc(["lint", "--format", "sarif", "bad.yaml"], in: dir)
        #expect(sarif.status == 1)
        let run = try #require((try Self.json(sarif.out)["runs"] as? [[String: Any]])?.first)
        #expect((run["results"] as? [[String: Any]])?.compactMap { $0["ruleId"] as? String }
                == ["interactive-retries-max", "timeout-min", "unknown-key"])
    }

    @Test(.enabled(if: SARIF.shouldRun, "python3 with jsonschema is missing: SARIF schema validation skipped (required when CI=true)"))
    func sarifFromTheBinaryValidates() throws {
        let dir = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Self.write(Self.broken, to: "a dir/bad one.yaml", in: dir)
        try Self.write("version: 1\nversion: 1\n", to: "dup.yaml", in: dir)
        try Self.write(Self.canonical, to: "ok.yaml", in: dir)
        let outcome = try Self.policyc(["lint", "--format", "sarif", ".", "-"], in: dir, stdin: "a: [b\n")
        #expect(outcome.status == 1)
        try SARIF.validate(outcome.out)
    }

    // MARK: strict, stdin, folders, unreadable input

    /// Whether this build's catalog has the `interactive-deadline` warning (it is written in
    /// parallel with the CLI; until then `--strict` is covered by the reporter tests only).
    static let hasInteractiveDeadline: Bool = {
        guard let out = try? policyc(["rules", "--format", "json"]).out,
              let rules = (try? json(out))?["rules"] as? [[String: Any]] else { return false }
        return rules.contains { $0["id"] as? String == "interactive-deadline" && $0["severity"] as? String == "warning" }
    }()

    @Test(.enabled(if: hasInteractiveDeadline || GenSupport.isCI, "no interactive-deadline rule in this build: --strict through the binary is not tested (required when CI=true)"))
    func strictMakesWarningsFail() throws {
        let dir = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Self.write(Self.canonical.replacingOccurrences(of: "deadline: 15s", with: "deadline: 20s"), to: "slow.yaml", in: dir)

        let lenient = try Self.policyc(["lint", "slow.yaml"], in: dir)
        #expect(lenient.status == 0, "\(lenient)")
        #expect(lenient.out.hasPrefix("slow.yaml:13:17: warning: "))
        #expect(lenient.err == "0 errors, 1 warning in 1 file\n")
        let strict = try Self.policyc(["lint", "--strict", "slow.yaml"], in: dir)
        #expect(strict.status == 1)
        #expect(strict.out == lenient.out)
        let junit = try Self.policyc(["lint", "--strict", "--format", "junit", "slow.yaml"], in: dir)
        #expect(junit.status == 1 && junit.out.contains("<failure "))
    }

    @Test func standardInput() throws {
        let bad = try Self.policyc(["lint", "-"], stdin: Self.broken)
        #expect(bad.status == 1, "\(bad)")
        #expect(bad.out.hasPrefix("<stdin>:9:19: error: "))
        let good = try Self.policyc(["lint", "--format", "json", "-"], stdin: Self.canonical)
        #expect(good.status == 0)
        #expect(try Self.json(good.out)["summary"] as? [String: Int] == ["files": 1, "errors": 0, "warnings": 0])
    }

    @Test func aFolderOfManyFilesGivesTheSameOutputAsOneByOne() throws {
        let dir = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        var names: [String] = []
        for i in 0..<24 {
            let name = "many/p\(i < 10 ? "0" : "")\(i).\(i % 5 == 0 ? "yml" : "yaml")"
            var text = Self.canonical.replacingOccurrences(of: "policy: playback", with: "policy: p\(i)")
            if i % 3 == 0 { text = text.replacingOccurrences(of: "maxRetries: 3 ", with: "maxRetries: \(i + 4) ") }
            if i % 4 == 0 { text = text.replacingOccurrences(of: "timeout: 15s", with: "timeout: 1s") }
            try Self.write(text, to: name, in: dir)
            names.append(name)
        }
        try Self.write("not a policy", to: "many/notes.txt", in: dir)
        try Self.write(Self.broken, to: "many/.hidden/x.yaml", in: dir)

        for format in ["text", "github", "json"] {
            let all = try Self.policyc(["lint", "--format", format, "many"], in: dir)
            #expect(all.status == 1)
            var oneByOne = ""
            var diagnostics: [Any] = []
            for name in names.sorted() {
                let one = try Self.policyc(["lint", "--format", format, name], in: dir)
                if format == "json" {
                    diagnostics += try Self.json(one.out)["diagnostics"] as? [Any] ?? []
                } else {
                    oneByOne += one.out
                }
            }
            if format == "json" {
                let object = try Self.json(all.out)
                #expect(NSArray(array: object["diagnostics"] as? [Any] ?? []) == NSArray(array: diagnostics))
                #expect(object["summary"] as? [String: Int] == ["files": 24, "errors": 14, "warnings": 0])
            } else {
                #expect(all.out == oneByOne)
            }
        }
        // The same files named one by one, in another order, give the same report.
        let named = try Self.policyc(["lint"] + names.reversed(), in: dir)
        let folder = try Self.policyc(["lint", "many/"], in: dir)
        #expect(named.out == folder.out)
        #expect(folder.err == "14 errors, 0 warnings in 24 files\n")
    }

    @Test func unreadableInputExits2AndTheRestIsStillReported() throws {
        let dir = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Self.write(Self.broken, to: "bad.yaml", in: dir)
        // Another policy name: two files may not share one (name-collision).
        try Self.write(Self.canonical.replacingOccurrences(of: "policy: playback", with: "policy: ok"), to: "ok.yaml", in: dir)
        try FileManager.default.createSymbolicLink(atPath: dir.appendingPathComponent("dangling.yaml").path,
                                                   withDestinationPath: "nowhere.yaml")

        let outcome = try Self.policyc(["lint", "missing.yaml", "bad.yaml", "dangling.yaml", "ok.yaml"], in: dir)
        #expect(outcome.status == 2, "\(outcome)")
        #expect(outcome.out.contains("bad.yaml:9:19: error: "))
        #expect(outcome.err.contains("error: cannot read 'missing.yaml': No such file or directory\n"))
        #expect(outcome.err.contains("error: cannot read 'dangling.yaml'"))
        #expect(outcome.err.hasSuffix("3 errors, 0 warnings in 2 files; 2 paths could not be read\n"))

        let json = try Self.policyc(["lint", "--format", "json", "ok.yaml", "missing.yaml"], in: dir)
        #expect(json.status == 2)
        #expect(try Self.json(json.out)["summary"] as? [String: Int] == ["files": 1, "errors": 0, "warnings": 0])

        // Unreadable beats clean, and also beats lint errors.
        #expect(try Self.policyc(["lint", "ok.yaml", "missing.yaml"], in: dir).status == 2)
        #expect(try Self.policyc(["lint", "bad.yaml", "missing.yaml"], in: dir).status == 2)
    }

    @Test func aFileNamedTwiceIsCheckedOnceAndTwoFilesMayNotShareAName() throws {
        let dir = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Self.write(Self.canonical, to: "Policies/ok.yaml", in: dir)
        let twice = try Self.policyc(["lint", "Policies", "Policies/ok.yaml", "./Policies//ok.yaml"], in: dir)
        #expect(twice.status == 0, "\(twice)")
        #expect(twice.err == "0 errors, 0 warnings in 1 file\n")

        try Self.write(Self.canonical, to: "Policies/copy.yaml", in: dir)
        let shared = try Self.policyc(["lint"], in: dir)
        #expect(shared.status == 1)
        #expect(shared.out == """
            Policies/ok.yaml:2:9: error: policy 'playback' is also defined in Policies/copy.yaml; each policy name belongs to one file [name-collision]
            policy: playback
                    ^~~~~~~~
              help: rename one of the two policies
              note: Policies/copy.yaml:2:9: 'playback' is defined here

            """)
    }

    @Test func aFolderWithoutPoliciesIsAWarning() throws {
        let dir = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("empty"), withIntermediateDirectories: true)
        let outcome = try Self.policyc(["lint", "--format", "json", "empty"], in: dir)
        #expect(outcome.status == 0)
        let object = try Self.json(outcome.out)
        #expect(object["summary"] as? [String: Int] == ["files": 0, "errors": 0, "warnings": 1])
        let notices = try #require(object["notices"] as? [[String: String]])
        #expect(notices == [["kind": "no-policy-files", "path": "empty", "severity": "warning",
                             "message": "no *.yaml or *.yml file under 'empty'"]])
        #expect(outcome.err == "warning: no *.yaml or *.yml file under 'empty'\n  help: 'policyc init empty' writes a first policy there\n0 errors, 1 warning in 0 files\n")
    }

    @Test func withoutPathOrPoliciesFolder() throws {
        let dir = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let outcome = try Self.policyc(["lint"], in: dir)
        #expect(outcome.status == 2)
        #expect(outcome.err.contains("error: no PATH given and there is no 'Policies/' folder here"))
        // What to do about it, for a project just started.
        #expect(outcome.err.contains(", or write a first policy with 'policyc init Policies'\n"), "\(outcome)")
    }

    /// `--targets` names a target as people shorten it: a did-you-mean, as for a typo.
    @Test(arguments: [("ts", "typescript"), ("TS", "typescript"), ("kt", "kotlin"), ("json", "schema"), ("swfit", "swift"), ("type", "typescript")])
    func targetsDidYouMean(given: String, meant: String) throws {
        let outcome = try Self.policyc(["generate", "--check", "--targets", "swift,\(given)"])
        #expect(outcome.status == 2)
        #expect(outcome.err.hasPrefix("error: unknown target '\(given)' in '--targets'; did you mean '\(meant)'?"), "\(outcome)")
    }

    // MARK: colour

    @Test func colourOnlyOnATerminalAndNeverWithNO_COLOR() throws {
        let dir = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Self.write(Self.broken, to: "bad.yaml", in: dir)
        let piped = try Self.policyc(["lint", "bad.yaml"], in: dir)
        #expect(!piped.out.contains("\u{1B}"))

        // script(1) gives the binary a terminal.
        guard let binary = Self.binary, FileManager.default.isExecutableFile(atPath: "/usr/bin/script") else {
            print("note: script(1) is missing: colour on a terminal is not tested")
            return
        }
        let command = "'\(binary.path)' lint bad.yaml"
        let tty = try Self.policyc(["-qec", command, "/dev/null"], in: dir, environment: ["TERM": "xterm"], via: "/usr/bin/script")
        #expect(tty.out.contains("\u{1B}[1;31merror:"), "\(tty)")
        let noColor = try Self.policyc(["-qec", command, "/dev/null"], in: dir, environment: ["TERM": "xterm", "NO_COLOR": "1"],
                                       via: "/usr/bin/script")
        #expect(noColor.out.contains("bad.yaml:9:19: error: "), "\(noColor)")
        #expect(!noColor.out.contains("\u{1B}"))
    }

    // MARK: github escaping through the binary

    @Test func githubEscapesPathsAndHostileText() throws {
        let dir = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let hostile = Self.canonical.replacingOccurrences(
            of: "  backoff: full-jitter\n",
            with: "  backoff: full-jitter\n  \"x\\r\\n::error::owned %0A\\u2028::warning::y\": 1\n")
        let name = "a,b:c%d.yaml"
        try Self.write(hostile, to: name, in: dir)
        let outcome = try Self.policyc(["lint", "--format", "github", name], in: dir)
        #expect(outcome.status == 1, "\(outcome)")
        let json = try Self.policyc(["lint", "--format", "json", name], in: dir)
        let count = (try Self.json(json.out)["diagnostics"] as? [Any])?.count ?? -1
        let lines = outcome.out.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == count + 1 && lines.last == "")
        #expect(count == 1)
        for line in lines.dropLast() {
            #expect(line.hasPrefix("::error file=") || line.hasPrefix("::warning file="))
            #expect(!line.contains("\r") && !line.unicodeScalars.contains("\u{2028}"))
        }
        #expect(outcome.out.contains("::error file=a%2Cb%3Ac%25d.yaml,line=26,col=3,"))
        #expect(outcome.out.contains("%250A"))
    }

    // MARK: init

    @Test func initWritesACleanPolicyAndNeverOverwrites() throws {
        let dir = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let first = try Self.policyc(["init"], in: dir)
        #expect(first.status == 0, "\(first)")
        let path = dir.appendingPathComponent("Policies/playback.yaml")
        let written = try String(contentsOf: path, encoding: .utf8)
        // Policies/playback.yaml of this repository is what `init` writes: the canonical policy and
        // the editors' schema lines (yaml-language-server's, then JetBrains').
        #expect(written == Self.canonical)
        #expect(written.hasSuffix("\n# yaml-language-server: $schema=../Generated/policy.schema.json\n# $schema: ../Generated/policy.schema.json\n"))
        let lint = try Self.policyc(["lint"], in: dir)
        #expect(lint.status == 0 && lint.out.isEmpty, "\(lint)")

        // Never overwrite: exit 1 and the file is as it was.
        try Data("mine\n".utf8).write(to: path)
        let again = try Self.policyc(["init"], in: dir)
        #expect(again.status == 1)
        #expect(again.err.contains("exists already"))
        #expect(try String(contentsOf: path, encoding: .utf8) == "mine\n")

        // Another name and folder, made with its parents; the schema path follows the folder.
        let other = try Self.policyc(["init", "--policy", "ios-player", "config/policies"], in: dir)
        #expect(other.status == 0, "\(other)")
        let otherText = try String(contentsOf: dir.appendingPathComponent("config/policies/ios-player.yaml"), encoding: .utf8)
        #expect(otherText.contains("\npolicy: ios-player\n"))
        #expect(otherText.hasSuffix("\n# yaml-language-server: $schema=../../Generated/policy.schema.json\n# $schema: ../../Generated/policy.schema.json\n"))
        let otherLint = try Self.policyc(["lint", "config"], in: dir)
        #expect(otherLint.status == 0, "\(otherLint)")
    }

    /// `init --project` writes ./policyc.yaml naming the policy's folder, which every command then
    /// reads; with a project file there already, nothing is written at all.
    @Test func initWritesTheProjectFileWhenAsked() throws {
        let dir = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let first = try Self.policyc(["init", "--project", "--policy", "tv", "config/policies"], in: dir)
        #expect(first.status == 0, "\(first)")
        let project = try String(contentsOf: dir.appendingPathComponent("policyc.yaml"), encoding: .utf8)
        #expect(project.contains("\npolicies: [config/policies]"), "\(project)")
        let lint = try Self.policyc(["lint"], in: dir)
        #expect(lint.status == 0 && lint.err.contains("in 1 file") && !lint.err.contains("note:"), "\(lint)")
        let generate = try Self.policyc(["generate"], in: dir)
        #expect(generate.status == 0, "\(generate)")
        #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("Generated/policy.schema.json").path))

        let again = try Self.policyc(["init", "--project", "--policy", "ios"], in: dir)
        #expect(again.status == 1 && again.err.contains("'policyc.yaml' exists already"), "\(again)")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("config/policies/ios.yaml").path))
        #expect(try String(contentsOf: dir.appendingPathComponent("policyc.yaml"), encoding: .utf8) == project)
        let both = try Self.policyc(["init", "--project", "--config", "other.yaml"], in: dir)
        #expect(both.status == 2, "\(both)")
    }

    @Test func initRefusesABadName() throws {
        let dir = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        for bad in ["Playback", "play_back", "", "x-", String(repeating: "a", count: 65)] {
            let outcome = try Self.policyc(["init", "--policy", bad], in: dir)
            #expect(outcome.status == 2, "\(outcome)")
            #expect(outcome.err.hasPrefix("error: '\(bad)' is not a valid policy name: "))
            #expect(outcome.err.contains("See 'policyc init --help'."))
        }
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("Policies").path))
    }

    // MARK: rules

    @Test func rulesInEveryFormat() throws {
        let json = try Self.policyc(["rules", "--format", "json"])
        #expect(json.status == 0)
        let rules = try #require(try Self.json(json.out)["rules"] as? [[String: Any]])
        #expect(!rules.isEmpty)
        let markdown = try Self.policyc(["rules", "--format", "markdown"])
        #expect(markdown.status == 0)
        // The catalog's table, then the limits' after a blank line.
        let rows = markdown.out.split(separator: "\n", omittingEmptySubsequences: false).prefix { !$0.isEmpty }
        #expect(rows.first == "| rule | severity | fires when | guide | fix |")
        #expect(rows.count == rules.count + 2)
        let text = try Self.policyc(["rules"])
        #expect(text.status == 0)
        for rule in rules {
            let id = try #require(rule["id"] as? String)
            #expect(text.out.contains("\n\(id) (") || text.out.hasPrefix("\(id) ("))
            #expect(markdown.out.contains("| `\(id)` |"))
        }
        #expect(text.out.contains("interactive-retries-max (error)\n  fires when an interactive profile's maxRetries is over 3\n"))
    }

    // MARK: help and usage errors

    @Test func help() throws {
        let top = try Self.policyc(["--help"])
        #expect(top.status == 0)
        #expect(top.out.hasPrefix("OVERVIEW: "))
        for command in ["lint", "generate", "schema", "diff", "explain", "rules", "init"] {
            #expect(top.out.contains("\n  \(command) "))
        }
        let helpLint = try Self.policyc(["help", "lint"])
        let lintHelp = try Self.policyc(["lint", "--help"])
        #expect(helpLint.status == 0 && lintHelp.status == 0)
        #expect(helpLint.out == lintHelp.out)
        for section in ["OVERVIEW: ", "\nUSAGE: policyc lint ", "\nARGUMENTS:\n", "\nOPTIONS:\n", "--format FORMAT", "--strict"] {
            #expect(lintHelp.out.contains(section), "\(section)")
        }
        #expect(try Self.policyc(["init", "-h"]).out.contains("--policy NAME"))
        #expect(try Self.policyc(["rules", "--help"]).out.contains("(values: text, markdown, json)"))
    }

    @Test(arguments: [
        (["frobnicate"], "error: unknown command 'frobnicate'", "See 'policyc --help'."),
        (["lnit"], "error: unknown command 'lnit'; did you mean 'lint'?", "See 'policyc --help'."),
        (["lint", "--strcit"], "error: unknown option '--strcit'; did you mean '--strict'?", "See 'policyc lint --help'."),
        (["lint", "--format", "xml"], "error: unknown format 'xml' for '--format'; expected one of text, json, github, sarif, junit", "See 'policyc lint --help'."),
        (["lint", "--format"], "error: option '--format' needs a value", "See 'policyc lint --help'."),
        (["lint", "--strict=yes"], "error: option '--strict' takes no value", "See 'policyc lint --help'."),
        (["rules", "--format", "html"], "error: unknown format 'html'", "See 'policyc rules --help'."),
        (["rules", "Policies"], "error: unknown rule 'Policies'", "See 'policyc rules --help'."),
        (["rules", "timout-min"], "error: unknown rule 'timout-min'; did you mean 'timeout-min'?", "See 'policyc rules --help'."),
        (["rules", "--docs", "Docs/rules", "timeout-min"], "error: unexpected argument 'timeout-min'", "See 'policyc rules --help'."),
        (["rules", "--check"], "error: '--check' goes with '--docs DIR'", "See 'policyc rules --help'."),
        (["help", "nothing"], "error: unknown command 'nothing'", "See 'policyc --help'."),
    ])
    func usageErrors(arguments: [String], message: String, seeAlso: String) throws {
        let outcome = try Self.policyc(arguments)
        #expect(outcome.status == 2, "\(outcome)")
        #expect(outcome.out == "")
        #expect(outcome.err.hasPrefix(message), "\(outcome)")
        #expect(outcome.err.contains("\nUsage: policyc "))
        #expect(outcome.err.hasSuffix(seeAlso + "\n"))
    }

    @Test func noArgumentsShowsTheOverviewAsAUsageError() throws {
        let outcome = try Self.policyc([])
        #expect(outcome.status == 2)
        #expect(outcome.out == "")
        #expect(outcome.err.hasPrefix("OVERVIEW: "))
    }
}

extension CLITests {
    /// Runs another program (script(1), python3) and captures its stdout only.
    static func policyc(_ arguments: [String], in directory: URL?, environment: [String: String], via program: String) throws -> Outcome {
        try run(URL(fileURLWithPath: program), arguments, in: directory, environment: environment)
    }

    static func run(_ executable: URL, _ arguments: [String], in directory: URL?, environment: [String: String]) throws -> Outcome {
        let result = try Processes.run(executable.path, arguments, in: directory, environment: environment)
        return Outcome(out: result.stdout, err: "", status: result.status)
    }
}

typealias SARIF = SARIFSchema
