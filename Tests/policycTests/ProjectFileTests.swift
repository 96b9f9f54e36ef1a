import Foundation
import Testing

@testable import PolicyKit
@testable import TestSupport
/// `policyc.yaml`: the options a project records once, read by every command; and `generate
/// --targets`, which the project file can set too.
@Suite struct ProjectFileTests {
    static func project(_ config: String?, policies: [String: String] = ["Policies/playback.yaml": CLITests.canonical]) throws -> URL {
        let dir = try CLITests.scratch()
        for (path, text) in policies { try CLITests.write(text, to: path, in: dir) }
        if let config { try CLITests.write(config, to: "policyc.yaml", in: dir) }
        return dir
    }

    static func files(_ dir: URL, under folder: String) -> [String] {
        (FileManager.default.enumerator(atPath: dir.appendingPathComponent(folder).path)?.allObjects as? [String] ?? [])
            .filter { $0.contains(".") }.sorted()
    }

    static func read(_ dir: URL, _ path: String) throws -> String {
        try String(contentsOf: dir.appendingPathComponent(path), encoding: .utf8)
    }

    // MARK: pre-commit hooks follow the project file

    /// The hooks fire on any YAML file and name no folder: `lint --project-only` decides which of
    /// the files passed are policies (here under `app/policies`, as the project file says).
    @Test func hooksFireOnAnyYAMLAndPolicycDecidesWhichArePolicies() throws {
        let manifest = try String(contentsOf: CLITests.packageRoot.appendingPathComponent(".pre-commit-hooks.yaml"), encoding: .utf8)
        let patterns = manifest.split(separator: "\n").filter { $0.hasPrefix("  files: ") }.map { String($0.dropFirst(9)) }
        #expect(!patterns.contains { $0.contains("Policies") }, "a hook hardcodes a folder")
        #expect(patterns.count == 6)
        for pattern in patterns {
            let regex = try Regex(pattern)
            for path in ["app/policies/playback.yaml", "policyc.yaml", "policyc.yml", "x.yml"] {
                #expect(path.firstMatch(of: regex) != nil, "\(pattern) misses \(path)")
            }
        }
        #expect(manifest.components(separatedBy: "entry: policyc lint --project-only\n").count == 3)
        #expect(manifest.components(separatedBy: "entry: policyc generate --check\n").count == 3)
        #expect(manifest.components(separatedBy: "entry: policyc fmt --project-only\n").count == 3)

        let bad = CLITests.canonical.replacingOccurrences(of: "maxRetries: 3 ", with: "maxRetries: 6 ")
        let dir = try Self.project("version: 1\nguide: 2026-11\npolicies: [app/policies]\n",
                                   policies: ["app/policies/playback.yaml": CLITests.canonical,
                                              ".github/workflows/ci.yml": "on: push\njobs: {}\n",
                                              "docker-compose.yaml": "services: {}\n"])
        defer { try? FileManager.default.removeItem(at: dir) }
        let others = [".github/workflows/ci.yml", "docker-compose.yaml"]
        let quiet = try CLITests.policyc(["lint", "--project-only"] + others, in: dir)
        #expect(quiet.status == 0 && quiet.out.isEmpty && quiet.err == "0 errors, 0 warnings in 0 files\n", "\(quiet)")

        try CLITests.write(bad, to: "app/policies/playback.yaml", in: dir)
        let caught = try CLITests.policyc(["lint", "--project-only", "app/policies/playback.yaml"] + others, in: dir)
        #expect(caught.status == 1, "\(caught)")
        #expect(caught.out.contains("app/policies/playback.yaml:9:19: error:") && !caught.out.contains("ci.yml")
                && !caught.out.contains("docker-compose"), "\(caught)")
        // The project file changed: every policy of the project.
        let all = try CLITests.policyc(["lint", "--project-only", "policyc.yaml"], in: dir)
        #expect(all.status == 1 && all.out.contains("app/policies/playback.yaml:9:19: error:"), "\(all)")
        // Without the option, a file named is checked whatever it is.
        #expect(try CLITests.policyc(["lint", "docker-compose.yaml"], in: dir).status == 1)
    }

    // MARK: fixes of the project file

    /// `lint --unsafe-fixes` fixes the project file's did-you-mean mistakes as a policy's (its
    /// comments kept), before the run that they would stop; `--diff` shows them and writes nothing.
    @Test func lintFixesTheProjectFile() throws {
        let text = "version: 1\nkotlinPakage: com.x   # mine\ntargets: [swfit, kotlin]\n"
        let dir = try Self.project(text)
        defer { try? FileManager.default.removeItem(at: dir) }
        let plain = try CLITests.policyc(["lint"], in: dir)
        #expect(plain.status == 2 && plain.err.contains("  fix: rename 'kotlinPakage' to 'kotlinPackage' (unsafe: lint --unsafe-fixes)\n"),
                "\(plain)")
        let diff = try CLITests.policyc(["lint", "--diff", "--unsafe-fixes"], in: dir)
        #expect(diff.status == 1, "\(diff)")
        #expect(diff.out.contains("-kotlinPakage: com.x   # mine\n-targets: [swfit, kotlin]\n+kotlinPackage: com.x   # mine\n+targets: [swift, kotlin]\n"), "\(diff)")
        #expect(diff.err.hasPrefix("policyc.yaml:2:1: would fix: rename 'kotlinPakage' to 'kotlinPackage' (unsafe) [unknown-key]\n"
                                   + "policyc.yaml:3:11: would fix: write swift (unsafe) [type-mismatch]\n"), "\(diff)")
        #expect(try Self.read(dir, "policyc.yaml") == text)
        let fixed = try CLITests.policyc(["lint", "--unsafe-fixes"], in: dir)
        #expect(fixed.status == 0, "\(fixed)")
        #expect(try Self.read(dir, "policyc.yaml") == "version: 1\nkotlinPackage: com.x   # mine\ntargets: [swift, kotlin]\n")
        #expect(fixed.err.hasSuffix("fixed 2 findings in 1 file; 0 errors, 0 warnings in 1 file\n"), "\(fixed)")
    }

    // MARK: issue 16 item 2: the --check hint repeats what matters

    @Test func theCheckHintRepeatsTheOptionsGivenAndRunningItFixesTheTree() throws {
        let dir = try Self.project(nil)
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(try CLITests.policyc(["generate", "--kotlin-package", "com.example.p"], in: dir).status == 0)
        // A stale tree: the policy changed since.
        try CLITests.write(CLITests.canonical.replacingOccurrences(of: "minPerMinute: 10", with: "minPerMinute: 9"),
                           to: "Policies/playback.yaml", in: dir)
        let check = try CLITests.policyc(["generate", "--kotlin-package", "com.example.p", "--check"], in: dir)
        #expect(check.status == 1, "\(check)")
        let hint = try #require(check.err.split(separator: "\n").last { $0.contains("to update") })
        #expect(hint == "2 generated files out of date; run 'policyc generate --kotlin-package com.example.p' to update")
        // Doing exactly what it says makes the check pass.
        let command = try #require(hint.split(separator: "'").dropFirst().first)
        let words = command.split(separator: " ").map(String.init)
        #expect(words.prefix(2) == ["policyc", "generate"])
        #expect(try CLITests.policyc(Array(words.dropFirst()), in: dir).status == 0)
        let again = try CLITests.policyc(["generate", "--kotlin-package", "com.example.p", "--check"], in: dir)
        #expect(again.status == 0, "\(again)")

        // Paths, --out and --targets matter as well; odd characters come quoted for the shell.
        try CLITests.write(CLITests.canonical.replacingOccurrences(of: "minPerMinute: 10", with: "minPerMinute: 8"),
                           to: "Policies/playback.yaml", in: dir)
        let more = try CLITests.policyc(["generate", "--check", "--out", "my out", "--targets=swift", "Policies/playback.yaml"], in: dir)
        #expect(more.status == 1)
        #expect(more.err.hasSuffix("run 'policyc generate --out \"my out\" --targets swift Policies/playback.yaml' to update\n"),
                "\(more)")
    }

    @Test func withAProjectFilePlainGenerateIsTheFixAndTheCheck() throws {
        let dir = try Self.project("version: 1\nout: gen\nkotlinPackage: com.example.p\n")
        defer { try? FileManager.default.removeItem(at: dir) }
        let first = try CLITests.policyc(["generate"], in: dir)
        #expect(first.status == 0, "\(first)")
        #expect(Self.files(dir, under: "gen") == ["Kotlin/PlaybackPolicy.kt", "Swift/PlaybackPolicy.swift", "policy.schema.json"])
        #expect(try Self.read(dir, "gen/Kotlin/PlaybackPolicy.kt").contains("\npackage com.example.p\n"))
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("Generated").path))
        try CLITests.write(CLITests.canonical.replacingOccurrences(of: "minPerMinute: 10", with: "minPerMinute: 9"),
                           to: "Policies/playback.yaml", in: dir)
        let check = try CLITests.policyc(["generate", "--check"], in: dir)
        #expect(check.status == 1)
        #expect(check.err.hasSuffix("out of date; run 'policyc generate' to update\n"), "\(check)")
        #expect(try CLITests.policyc(["generate"], in: dir).status == 0)
        #expect(try CLITests.policyc(["generate", "--check"], in: dir).status == 0)
        // An option on the command line wins over the file.
        let other = try CLITests.policyc(["generate", "--out", "other", "--kotlin-package", "org.x"], in: dir)
        #expect(other.status == 0, "\(other)")
        #expect(try Self.read(dir, "other/Kotlin/PlaybackPolicy.kt").contains("\npackage org.x\n"))
    }

    @Test func aGeneratedFileChangedInOneByteIsOutOfDate() throws {
        // Up to date means the same bytes, not the same size: one byte changed in place, and one
        // byte added at the end, are each found and put back, and only that file is written.
        let dir = try CLITests.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        try CLITests.write(CLITests.canonical, to: "Policies/playback.yaml", in: dir)
        #expect(try CLITests.policyc(["generate"], in: dir).status == 0)
        let swift = dir.appendingPathComponent("Generated/Swift/PlaybackPolicy.swift")
        let original = try Data(contentsOf: swift)
        var flipped = original
        let at = try #require(flipped.lastIndex(of: UInt8(ascii: "3")))
        flipped[at] = UInt8(ascii: "4")
        for changed in [flipped, original + Data("\n".utf8)] {
            try changed.write(to: swift)
            let check = try CLITests.policyc(["generate", "--check"], in: dir)
            #expect(check.status == 1 && check.out.hasPrefix("would change Generated/Swift/PlaybackPolicy.swift\n"), "\(check)")
            let again = try CLITests.policyc(["generate"], in: dir)
            #expect(again.status == 0 && again.err.hasSuffix("wrote 1 file, 2 up to date\n"), "\(again)")
            #expect(try Data(contentsOf: swift) == original)
        }
        #expect(try CLITests.policyc(["generate", "--check"], in: dir).status == 0)
    }

    // MARK: every command reads it

    @Test func policiesOfTheProjectFileAreTheDefaultPathsOfEveryCommand() throws {
        let dir = try Self.project("version: 1\nguide: 2026-11\npolicies: [config/a, config/b.yaml]\n", policies: [
            "config/a/one.yaml": CLITests.canonical.replacingOccurrences(of: "policy: playback", with: "policy: one"),
            "config/b.yaml": CLITests.canonical.replacingOccurrences(of: "policy: playback", with: "policy: two"),
            "config/ignored.yaml": "not: a policy\n",
        ])
        defer { try? FileManager.default.removeItem(at: dir) }
        let lint = try CLITests.policyc(["lint"], in: dir)
        #expect(lint.status == 0 && lint.err == "0 errors, 0 warnings in 2 files\n", "\(lint)")
        let explain = try CLITests.policyc(["explain", "--format", "json"], in: dir)
        #expect(explain.status == 0, "\(explain)")
        #expect(explain.out.contains("\"one\"") && explain.out.contains("\"two\""))
        let generate = try CLITests.policyc(["generate"], in: dir)
        #expect(generate.status == 0, "\(generate)")
        #expect(Self.files(dir, under: "Generated") == ["Kotlin/OnePolicy.kt", "Kotlin/TwoPolicy.kt",
                                                         "Swift/OnePolicy.swift", "Swift/TwoPolicy.swift", "policy.schema.json"])
        // init writes beside the first; a PATH given still wins.
        let initialised = try CLITests.policyc(["init", "--policy", "three"], in: dir)
        #expect(initialised.status == 0, "\(initialised)")
        #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("config/a/three.yaml").path))
        #expect(try CLITests.policyc(["lint", "config/ignored.yaml"], in: dir).status == 1)

        // A listed path that is not there says where it was listed.
        try CLITests.write("version: 1\npolicies: [config/a, nowhere]\n", to: "policyc.yaml", in: dir)
        let missing = try CLITests.policyc(["lint"], in: dir)
        #expect(missing.status == 2)
        #expect(missing.err.contains("error: cannot read 'nowhere': No such file or directory (listed under 'policies' at policyc.yaml:2:22)"),
                "\(missing)")
    }

    @Test func diffBaseReadsThePoliciesOfTheProjectFile() throws {
        let dir = try Self.project("version: 1\npolicies: [config]\n", policies: ["config/playback.yaml": CLITests.canonical])
        defer { try? FileManager.default.removeItem(at: dir) }
        func git(_ args: String...) throws {
            let r = try CLITests.run(URL(fileURLWithPath: "/usr/bin/env"), ["git", "-c", "user.name=t", "-c", "user.email=t@e"] + args,
                                     in: dir, environment: [:])
            try #require(r.status == 0, "git \(args)")
        }
        try git("init", "-q")
        try git("add", "-A")
        try git("commit", "-qm", "base")
        try CLITests.write(CLITests.canonical.replacingOccurrences(of: "maxRetries: 3 ", with: "maxRetries: 2 "),
                           to: "config/playback.yaml", in: dir)
        let diff = try CLITests.policyc(["diff", "--base", "HEAD", "--format", "json"], in: dir)
        #expect(diff.status == 0, "\(diff)")
        #expect(diff.out.contains("config/playback.yaml") && diff.out.contains("maxRetries"), "\(diff)")
    }

    @Test func initPointsEditorsAtTheSchemaWhereGenerateWritesIt() throws {
        let dir = try Self.project("version: 1\npolicies: [app/policies]\nout: build/gen\n", policies: [:])
        defer { try? FileManager.default.removeItem(at: dir) }
        let initialised = try CLITests.policyc(["init"], in: dir)
        #expect(initialised.status == 0, "\(initialised)")
        let text = try Self.read(dir, "app/policies/playback.yaml")
        #expect(text.hasPrefix(CLITests.canonical.prefix(200)))
        #expect(text.hasSuffix("\n  viewerRef: per-viewer-device\n"
                               + "# yaml-language-server: $schema=../../build/gen/policy.schema.json\n"
                               + "# $schema: ../../build/gen/policy.schema.json\n"))
        // The schema is then where the lines say.
        #expect(try CLITests.policyc(["generate"], in: dir).status == 0)
        #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("app/policies/../../build/gen/policy.schema.json").path))
    }

    /// Targets without schema: no line points at a schema that generate never writes.
    @Test func initWritesNoSchemaLineWhenTheSchemaIsNotGenerated() throws {
        let dir = try Self.project("version: 1\ntargets: [kotlin]\n", policies: [:])
        defer { try? FileManager.default.removeItem(at: dir) }
        let initialised = try CLITests.policyc(["init"], in: dir)
        #expect(initialised.status == 0, "\(initialised)")
        let text = try Self.read(dir, "Policies/playback.yaml")
        #expect(!text.contains("$schema") && text.hasSuffix("\n  viewerRef: per-viewer-device\n"), "\(text)")
        #expect(initialised.err.contains("No $schema lines: policyc.yaml's targets leave out schema")
                && initialised.err.contains("policyc schema > policy.schema.json"), "\(initialised)")
    }

    @Test func aProjectFileElsewhereIsNamedWithConfigAndItsPathsAreItsOwn() throws {
        let dir = try Self.project(nil, policies: ["sub/Policies/playback.yaml": CLITests.canonical])
        defer { try? FileManager.default.removeItem(at: dir) }
        try CLITests.write("version: 1\nout: out\ntargets: [kotlin]\n", to: "sub/settings.yaml", in: dir)
        let generate = try CLITests.policyc(["generate", "--config", "sub/settings.yaml"], in: dir)
        #expect(generate.status == 0, "\(generate)")
        #expect(Self.files(dir, under: "sub/out") == ["Kotlin/PlaybackPolicy.kt"])
        #expect(try Self.read(dir, "sub/out/Kotlin/PlaybackPolicy.kt").hasPrefix("// Generated by policyc from sub/Policies/playback.yaml."))
        let missing = try CLITests.policyc(["lint", "--config", "nope.yaml"], in: dir)
        #expect(missing.status == 2)
        #expect(missing.err == "error: cannot read 'nope.yaml': No such file or directory\n")
    }

    // MARK: errors in it

    @Test func errorsInTheProjectFileAreDiagnosticsAndStopEveryCommand() throws {
        let config = "version: 1\nout: gen\ntargets: [swift, kotln]\nkotlinPakage: com.example\n"
        let dir = try Self.project(config)
        defer { try? FileManager.default.removeItem(at: dir) }
        let expected = """
            policyc.yaml:3:18: error: an item of 'targets' is 'kotln', which is not one of swift, kotlin, typescript or schema [type-mismatch]
            targets: [swift, kotln]
                             ^~~~~
              help: did you mean 'kotlin'?
              fix: write kotlin (unsafe: lint --unsafe-fixes)
            policyc.yaml:4:1: error: unknown key 'kotlinPakage' in the project file [unknown-key]
            kotlinPakage: com.example
            ^~~~~~~~~~~~
              help: did you mean 'kotlinPackage'?
              fix: rename 'kotlinPakage' to 'kotlinPackage' (unsafe: lint --unsafe-fixes)
            policyc.yaml: 2 errors in the project file; nothing else was done

            """
        for arguments in [["lint"], ["lint", "--format", "json"], ["generate"], ["explain"], ["init"],
                          ["diff", "Policies", "Policies"], ["lint", "Policies/playback.yaml"]] {
            let outcome = try CLITests.policyc(arguments, in: dir)
            #expect(outcome.status == 2, "\(arguments): \(outcome)")
            #expect(outcome.out == "", "\(arguments)")
            #expect(outcome.err == expected, "\(arguments): \(outcome)")
        }
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("gen").path))
        #expect(Self.files(dir, under: "Policies") == ["playback.yaml"])
        // schema does not read it; rules does, for the limits in effect.
        #expect(try CLITests.policyc(["schema"], in: dir).status == 0)
        #expect(try CLITests.policyc(["rules", "--format", "json"], in: dir).status == 2)

        for (text, message) in [
            ("version: 2\n", "policyc.yaml:1:10: error: the project file is version 2; this policyc reads version 1 [unsupported-version]"),
            ("out: x\n", "policyc.yaml:1:1: error: the project file lacks the required key 'version'"),
            ("", "policyc.yaml:1:1: error: the project file is empty; it needs at least 'version: 1' [missing-key]"),
            ("version: 1\nkotlinPackage: com.fun\n", "policyc.yaml:2:16: error: 'kotlinPackage' is 'com.fun', which is not a Kotlin package name"),
            ("version: 1\ntargets: []\n", "policyc.yaml:2:10: error: 'targets' is empty"),
            ("version: 1\npolicies: Policies\n", "policyc.yaml:2:11: error: 'policies' must be a list"),
            ("version: 1\nout: a\nout: b\n", "policyc.yaml:3:1: error: "),
            ("- a\n", "policyc.yaml:1:1: error: the project file must be a mapping"),
        ] {
            try CLITests.write(text, to: "policyc.yaml", in: dir)
            let outcome = try CLITests.policyc(["lint"], in: dir)
            #expect(outcome.status == 2, "\(text): \(outcome)")
            #expect(outcome.err.hasPrefix(message), "\(text): \(outcome)")
        }
    }

    @Test func aWalkNeverTakesTheProjectFileForAPolicy() throws {
        let dir = try Self.project("version: 1\n")
        defer { try? FileManager.default.removeItem(at: dir) }
        try CLITests.write("version: 1\n", to: "Policies/nested/policyc.yml", in: dir)
        let lint = try CLITests.policyc(["lint", "."], in: dir)
        #expect(lint.status == 0, "\(lint)")
        // The project file names no edition: lint says which applies, once.
        #expect(lint.err == "note: policyc.yaml names no guide edition; the newest, 2026-11, applies "
            + "(write 'guide: 2026-11' to keep to it)\n0 errors, 0 warnings in 1 file\n", "\(lint)")
        // Both spellings at once is one too many.
        try CLITests.write("version: 1\n", to: "policyc.yml", in: dir)
        let both = try CLITests.policyc(["lint"], in: dir)
        #expect(both.status == 2)
        #expect(both.err == "error: both policyc.yaml and policyc.yml are here; keep one project file\n")
    }

    // MARK: generate --targets

    @Test func targetsChooseWhatIsWrittenAndStaleFilesGoOnlyInTheirFolders() throws {
        let two = CLITests.canonical.replacingOccurrences(of: "policy: playback", with: "policy: two")
        let dir = try Self.project(nil, policies: ["Policies/playback.yaml": CLITests.canonical, "Policies/two.yaml": two])
        defer { try? FileManager.default.removeItem(at: dir) }
        let swiftOnly = try CLITests.policyc(["generate", "--targets", "swift"], in: dir)
        #expect(swiftOnly.status == 0, "\(swiftOnly)")
        #expect(Self.files(dir, under: "Generated") == ["Swift/PlaybackPolicy.swift", "Swift/TwoPolicy.swift"])
        #expect(try CLITests.policyc(["generate", "--targets", "kotlin,schema"], in: dir).status == 0)
        #expect(try CLITests.policyc(["generate", "--check"], in: dir).status == 0)

        // `two` is gone: only the targets generated lose its files.
        try FileManager.default.removeItem(at: dir.appendingPathComponent("Policies/two.yaml"))
        let check = try CLITests.policyc(["generate", "--check", "--targets", "kotlin"], in: dir)
        #expect(check.status == 1)
        #expect(check.out == "would remove Generated/Kotlin/TwoPolicy.kt (its policy is gone)\n", "\(check)")
        let kotlin = try CLITests.policyc(["generate", "--targets", "kotlin"], in: dir)
        #expect(kotlin.status == 0, "\(kotlin)")
        #expect(kotlin.err.contains("removed Generated/Kotlin/TwoPolicy.kt") && !kotlin.err.contains("Swift"), "\(kotlin)")
        #expect(Self.files(dir, under: "Generated") == ["Kotlin/PlaybackPolicy.kt", "Swift/PlaybackPolicy.swift",
                                                         "Swift/TwoPolicy.swift", "policy.schema.json"])
        #expect(try CLITests.policyc(["generate", "--check", "--targets", "schema"], in: dir).status == 0)
        #expect(try CLITests.policyc(["generate", "--check"], in: dir).status == 1)

        // The project file's targets feed the same.
        try CLITests.write("version: 1\ntargets: [schema, swift]\n", to: "policyc.yaml", in: dir)
        let configured = try CLITests.policyc(["generate"], in: dir)
        #expect(configured.status == 0, "\(configured)")
        #expect(configured.err == "removed Generated/Swift/TwoPolicy.swift\nwrote 0 files, removed 1, 2 up to date\n")
    }

    /// `out` as a folder a language: each language's files straight in its folder, Kotlin under
    /// its package's folders when asked, a renamed package's file removed, a hand-written file
    /// beside them kept, and a language generated without a folder refused before anything is written.
    @Test func aFolderALanguageAndKotlinInItsPackageFolders() throws {
        let dir = try Self.project("""
            version: 1
            out: {swift: ios/Policy, kotlin: android/src/main/kotlin, schema: "."}
            kotlinPackage: com.example.player
            kotlinPackageFolders: true

            """)
        defer { try? FileManager.default.removeItem(at: dir) }
        try CLITests.write("// mine\n", to: "ios/Policy/Mine.swift", in: dir)
        let run = try CLITests.policyc(["generate"], in: dir)
        #expect(run.status == 0, "\(run)")
        #expect(Self.files(dir, under: "ios") == ["Policy/Mine.swift", "Policy/PlaybackPolicy.swift"])
        #expect(Self.files(dir, under: "android") == ["src/main/kotlin/com/example/player/PlaybackPolicy.kt"])
        #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("policy.schema.json").path))
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("Generated").path))
        #expect(try Self.read(dir, "android/src/main/kotlin/com/example/player/PlaybackPolicy.kt").contains("package com.example.player"))
        #expect(try CLITests.policyc(["generate", "--check"], in: dir).status == 0)

        try CLITests.write("version: 1\nout: {swift: ios/Policy, kotlin: android/src/main/kotlin, schema: \".\"}\nkotlinPackage: com.example.tv\nkotlinPackageFolders: true\n",
                           to: "policyc.yaml", in: dir)
        let check = try CLITests.policyc(["generate", "--check"], in: dir)
        #expect(check.status == 1)
        #expect(check.out.contains("would create android/src/main/kotlin/com/example/tv/PlaybackPolicy.kt"), "\(check)")
        #expect(check.out.contains("would remove android/src/main/kotlin/com/example/player/PlaybackPolicy.kt"), "\(check)")
        #expect(try CLITests.policyc(["generate"], in: dir).status == 0)
        #expect(Self.files(dir, under: "android") == ["src/main/kotlin/com/example/tv/PlaybackPolicy.kt"])
        #expect(Self.files(dir, under: "ios") == ["Policy/Mine.swift", "Policy/PlaybackPolicy.swift"])

        // Kotlin is generated (the default targets) but has no folder: nothing is written.
        try CLITests.write("version: 1\nout: {swift: ios/Other}\n", to: "policyc.yaml", in: dir)
        let missing = try CLITests.policyc(["generate"], in: dir)
        #expect(missing.status == 2)
        #expect(missing.err.contains("policyc.yaml:2:14: 'out' names no folder for kotlin"), "\(missing)")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("ios/Other").path))
        #expect(try CLITests.policyc(["generate", "--targets", "swift"], in: dir).status == 0)
        #expect(Self.files(dir, under: "ios/Other") == ["PlaybackPolicy.swift"])
    }

    /// A profile named `default` is a Swift and Kotlin keyword, not a TypeScript one: refused
    /// only where Swift or Kotlin is generated, whether the project file or `--targets` says so.
    @Test func keywordsAreThoseOfTheTargetsGenerated() throws {
        let named = CLITests.canonical.replacingOccurrences(of: "    interactive:\n", with: "    default:\n")
        let dir = try Self.project(nil, policies: ["Policies/playback.yaml": named])
        defer { try? FileManager.default.removeItem(at: dir) }
        let all = try CLITests.policyc(["generate"], in: dir)
        #expect(all.status == 1 && all.err.contains("[bad-name]"), "\(all)")
        let typescript = try CLITests.policyc(["generate", "--targets", "typescript"], in: dir)
        #expect(typescript.status == 0, "\(typescript)")
        #expect(Self.files(dir, under: "Generated") == ["TypeScript/PlaybackPolicy.ts", "TypeScript/index.ts"])
    }

    @Test func staleFilesBelowATargetsFolderGoAndTheFoldersTheyLeaveEmpty() throws {
        let dir = try Self.project(nil)
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(try CLITests.policyc(["generate"], in: dir).status == 0)
        // As an older package layout would have left it: a generated file in a package folder.
        let old = try Self.read(dir, "Generated/Kotlin/PlaybackPolicy.kt")
        try CLITests.write(old, to: "Generated/Kotlin/com/old/GonePolicy.kt", in: dir)
        try CLITests.write("// mine\n", to: "Generated/Kotlin/com/keep/Mine.kt", in: dir)
        let check = try CLITests.policyc(["generate", "--check"], in: dir)
        #expect(check.out == "would remove Generated/Kotlin/com/old/GonePolicy.kt (its policy is gone)\n", "\(check)")
        let run = try CLITests.policyc(["generate"], in: dir)
        #expect(run.status == 0 && run.err.hasPrefix("removed Generated/Kotlin/com/old/GonePolicy.kt\n"), "\(run)")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("Generated/Kotlin/com/old").path))
        #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("Generated/Kotlin/com/keep/Mine.kt").path))
    }

    @Test(arguments: [
        ("swfit", "error: unknown target 'swfit' in '--targets'; did you mean 'swift'? (targets: "),
        ("swift,kotlin,swift", "error: target 'swift' is given twice in '--targets'"),
        ("", "error: '--targets' needs a comma-separated list of targets"),
        ("swift,", "error: '--targets' needs a comma-separated list of targets"),
    ])
    func badTargetsAreUsageErrors(list: String, message: String) throws {
        let dir = try Self.project(nil)
        defer { try? FileManager.default.removeItem(at: dir) }
        let outcome = try CLITests.policyc(["generate", "--targets", list], in: dir)
        #expect(outcome.status == 2, "\(outcome)")
        #expect(outcome.err.hasPrefix(message), "\(outcome)")
        #expect(outcome.err.hasSuffix("See 'policyc generate --help'.\n"))
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("Generated").path))
    }

    // MARK: the JSON Schema of the project file

    @Test func theProjectFileHasASchema() throws {
        let outcome = try CLITests.policyc(["schema", "--project"])
        #expect(outcome.status == 0)
        let schema = try CLITests.json(outcome.out)
        #expect(schema["$id"] as? String == "urn:policyc:schema:project:1")
        #expect(schema["additionalProperties"] as? Bool == false)
        let properties = try #require(schema["properties"] as? [String: Any])
        #expect(Set(properties.keys) == ["version", "policies", "out", "targets", "kotlinPackage", "kotlinPackageFolders", "guide", "waiverMaxDays", "limits", "baseline", "review", "verify", "rulesUrl"])
        #expect(schema["required"] as? [String] == ["version"])
        // `out`: one folder, or a folder a language.
        let out = try #require(properties["out"] as? [String: Any])
        let forms = try #require(out["anyOf"] as? [[String: Any]])
        #expect((forms.first?["type"] as? [String])?.contains("string") == true)
        #expect(Set((forms.last?["properties"] as? [String: Any] ?? [:]).keys) == ["swift", "kotlin", "typescript", "schema"])
    }
}
