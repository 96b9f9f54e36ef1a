import Foundation
import Testing
@testable import PolicyKit
@testable import TestSupport

/// `policyc generate` and `schema` as a user runs them: the built binary, in a scratch folder.
@Suite struct GeneratorCLITests {
    struct Sandbox {
        let root: URL
        let binary: URL

        init() throws {
            binary = try #require(GenSupport.policyc, "policyc is not built")
            root = try GenSupport.temporaryDirectory()
            try GenSupport.write(Canonical.text, to: root.appendingPathComponent("Policies/playback.yaml"))
        }

        func run(_ args: String...) throws -> GenSupport.Run {
            try GenSupport.run(binary.path, args, in: root)
        }

        func read(_ path: String) -> String? {
            (try? Data(contentsOf: root.appendingPathComponent(path))).map { String(decoding: $0, as: UTF8.self) }
        }

        func inode(_ path: String) -> UInt64? {
            let attributes = try? FileManager.default.attributesOfItem(atPath: root.appendingPathComponent(path).path)
            return (attributes?[.systemFileNumber] as? NSNumber)?.uint64Value
        }

        func exists(_ path: String) -> Bool {
            var isDir: ObjCBool = false
            return FileManager.default.fileExists(atPath: root.appendingPathComponent(path).path, isDirectory: &isDir)
        }

        func names(_ dir: String) -> [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent(dir).path)) ?? []).sorted()
        }
    }

    static let generated = ["Generated/Kotlin/PlaybackPolicy.kt", "Generated/Swift/PlaybackPolicy.swift", "Generated/policy.schema.json"]

    /// A hand-written file where a generated one goes survives: exit 1 naming it, nothing written;
    /// `--force` replaces it. policyc's own files (the schema too) are replaced as before.
    @Test func aFilePolicycDidNotWriteIsNotReplaced() throws {
        let box = try Sandbox()
        defer { try? FileManager.default.removeItem(at: box.root) }
        let mine = "// My own PlaybackPolicy, written by hand.\nenum PlaybackPolicy {}\n"
        try GenSupport.write(mine, to: box.root.appendingPathComponent("Generated/Swift/PlaybackPolicy.swift"))
        try GenSupport.write(SchemaGenerator.text.replacingOccurrences(of: "\"$defs\"", with: "\"$older\""),
                             to: box.root.appendingPathComponent("Generated/policy.schema.json"))
        let refused = try box.run("generate")
        #expect(refused.status == 1 && refused.stderr.contains("Generated/Swift/PlaybackPolicy.swift' was not written by policyc")
                && refused.stderr.contains("--force"), "\(refused.stderr)")
        #expect(box.read("Generated/Swift/PlaybackPolicy.swift") == mine && !box.exists("Generated/Kotlin/PlaybackPolicy.kt"))
        let check = try box.run("generate", "--check")
        #expect(check.status == 1 && box.read("Generated/Swift/PlaybackPolicy.swift") == mine)
        let forced = try box.run("generate", "--force")
        #expect(forced.status == 0, "\(forced.stderr)")
        #expect(box.read("Generated/Swift/PlaybackPolicy.swift")?.hasPrefix(Generator.headerPrefix) == true)
        #expect(box.read("Generated/policy.schema.json") == SchemaGenerator.text)
        // Without --force, policyc's own files are replaced when they change.
        try GenSupport.write(SchemaGenerator.text.replacingOccurrences(of: "\"$defs\"", with: "\"$older\""),
                             to: box.root.appendingPathComponent("Generated/policy.schema.json"))
        let again = try box.run("generate")
        #expect(again.status == 0 && box.read("Generated/policy.schema.json") == SchemaGenerator.text, "\(again.stderr)")
    }

    /// A profile named `default` is a Swift keyword: refused where Swift is generated, fine in a
    /// project that generates only TypeScript (the project file's `targets`).
    @Test func keywordsAreRefusedOnlyForTheTargetsGenerated() throws {
        let box = try Sandbox()
        defer { try? FileManager.default.removeItem(at: box.root) }
        try GenSupport.write(Canonical.text.replacingOccurrences(of: "    background:", with: "    default:"),
                             to: box.root.appendingPathComponent("Policies/playback.yaml"))
        try GenSupport.write("version: 1\nguide: 2026-11\ntargets: [typescript]\n", to: box.root.appendingPathComponent("policyc.yaml"))
        let typeScript = try box.run("generate")
        #expect(typeScript.status == 0, "\(typeScript.stdout)\(typeScript.stderr)")
        #expect(box.read("Generated/TypeScript/PlaybackPolicy.ts")?.contains("export const DEFAULT: Readonly<RetryPolicy>") == true)
        try GenSupport.write("version: 1\nguide: 2026-11\ntargets: [swift, typescript]\n", to: box.root.appendingPathComponent("policyc.yaml"))
        let swift = try box.run("generate")
        #expect(swift.status != 0 && (swift.stdout + swift.stderr).contains("reserved word in Swift"), "\(swift.stdout)\(swift.stderr)")
        #expect(!box.exists("Generated/Swift/PlaybackPolicy.swift"))
    }

    /// A comment-only and whitespace-only edit of a policy moves every key's line but changes no
    /// generated byte: `generate --check` stays at 0 and nothing is rewritten.
    @Test func commentOnlyEditsLeaveGenerateCheckAtZero() throws {
        let box = try Sandbox()
        defer { try? FileManager.default.removeItem(at: box.root) }
        let first = try box.run("generate", "--targets", "swift,kotlin,typescript,schema")
        #expect(first.status == 0, "\(first.stderr)")
        let edited = "# owner: player-team\n# reviewed weekly\n\n" + Canonical.text
            .replacingOccurrences(of: "retry:\n", with: "# how hard to try\nretry:\n\n")
            .replacingOccurrences(of: "  budget:\n", with: "\n  # the budget\n  budget:   \n")
        try GenSupport.write(edited, to: box.root.appendingPathComponent("Policies/playback.yaml"))
        let check = try box.run("generate", "--check", "--targets", "swift,kotlin,typescript,schema")
        #expect(check.status == 0 && check.stdout.isEmpty, "\(check.stdout.prefix(3000))\(check.stderr)")
    }

    @Test func writesOnceThenLeavesUnchangedFilesAlone() throws {
        let box = try Sandbox()
        defer { try? FileManager.default.removeItem(at: box.root) }
        let first = try box.run("generate")
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.isEmpty && first.stderr.contains("wrote 3 files"))
        let expected = Generator.files(for: [try GenSupport.canonical])
        for file in expected { #expect(box.read("Generated/" + file.path) == file.contents, "\(file.path)") }
        let inodes = Self.generated.map(box.inode)

        let second = try box.run("generate")
        #expect(second.status == 0 && second.stderr.contains("up to date"), "\(second.stderr)")
        #expect(Self.generated.map(box.inode) == inodes, "unchanged files are not rewritten")
        let check = try box.run("generate", "--check")
        #expect(check.status == 0 && check.stdout.isEmpty, "\(check.stdout)\(check.stderr)")

        // One changed policy value: only its two files are replaced.
        try GenSupport.write(Canonical.text.replacingOccurrences(of: "minPerMinute: 10", with: "minPerMinute: 7"),
                             to: box.root.appendingPathComponent("Policies/playback.yaml"))
        let stale = try box.run("generate", "--check")
        #expect(stale.status == 1)
        #expect(stale.stdout.contains("would change Generated/Kotlin/PlaybackPolicy.kt"))
        #expect(stale.stdout.contains("-    public static let budgetMinPerMinute: Int = 10"))
        #expect(stale.stdout.contains("+    public static let budgetMinPerMinute: Int = 7"))
        #expect(Self.generated.map(box.inode) == inodes, "--check writes nothing")
        let third = try box.run("generate")
        #expect(third.status == 0 && third.stderr.contains("wrote 2 files"), "\(third.stderr)")
        let after = Self.generated.map(box.inode)
        #expect(after[2] == inodes[2] && after[0] != inodes[0] && after[1] != inodes[1])
        #expect(box.names("Generated/Swift") == ["PlaybackPolicy.swift"], "no temporary file is left")
    }

    @Test func removesOnlyGeneratedFilesOfPoliciesThatAreGone() throws {
        let box = try Sandbox()
        defer { try? FileManager.default.removeItem(at: box.root) }
        try GenSupport.write(Canonical.text(policy: "ios-player"), to: box.root.appendingPathComponent("Policies/ios.yaml"))
        #expect(try box.run("generate").status == 0)
        #expect(box.exists("Generated/Swift/IosPlayerPolicy.swift") && box.exists("Generated/Kotlin/IosPlayerPolicy.kt"))
        try GenSupport.write("// hand-written\n", to: box.root.appendingPathComponent("Generated/Swift/Extensions.swift"))
        try FileManager.default.removeItem(at: box.root.appendingPathComponent("Policies/ios.yaml"))

        let check = try box.run("generate", "--check")
        #expect(check.status == 1 && check.stdout.contains("would remove Generated/Swift/IosPlayerPolicy.swift"), "\(check.stdout)")
        #expect(box.exists("Generated/Swift/IosPlayerPolicy.swift"))
        let run = try box.run("generate")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(box.names("Generated/Swift") == ["Extensions.swift", "PlaybackPolicy.swift"])
        #expect(box.names("Generated/Kotlin") == ["PlaybackPolicy.kt"])
    }

    /// A run over one file or an empty folder is not the whole project: the policies it leaves out
    /// are not gone, and their generated files stay.
    @Test func aPartOfTheProjectRemovesNothing() throws {
        let box = try Sandbox()
        defer { try? FileManager.default.removeItem(at: box.root) }
        try GenSupport.write(Canonical.text(policy: "tv-player"), to: box.root.appendingPathComponent("Policies/tv-player.yaml"))
        #expect(try box.run("generate").status == 0)
        let all = ["Generated/Kotlin/PlaybackPolicy.kt", "Generated/Kotlin/TvPlayerPolicy.kt",
                   "Generated/Swift/PlaybackPolicy.swift", "Generated/Swift/TvPlayerPolicy.swift"]

        let one = try box.run("generate", "Policies/tv-player.yaml")
        #expect(one.status == 0 && !one.stderr.contains("removed"), "\(one.stderr)")
        let oneCheck = try box.run("generate", "--check", "Policies/tv-player.yaml")
        #expect(oneCheck.status == 0 && oneCheck.stdout.isEmpty, "\(oneCheck.stdout)")
        #expect(all.allSatisfy(box.exists))

        try FileManager.default.createDirectory(at: box.root.appendingPathComponent("Empty"), withIntermediateDirectories: true)
        let empty = try box.run("generate", "Empty")
        #expect(empty.status == 0, "\(empty.stderr)")
        #expect(empty.stderr.contains("warning: no *.yaml or *.yml file under 'Empty'\n") && !empty.stderr.contains("removed"),
                "\(empty.stderr)")
        #expect(all.allSatisfy(box.exists))

        // The whole project, named by its folder: a policy that is gone loses its files, counted.
        try FileManager.default.removeItem(at: box.root.appendingPathComponent("Policies/tv-player.yaml"))
        let whole = try box.run("generate", "Policies")
        #expect(whole.status == 0, "\(whole.stderr)")
        #expect(whole.stderr == "removed Generated/Kotlin/TvPlayerPolicy.kt\nremoved Generated/Swift/TvPlayerPolicy.swift\n"
                + "wrote 0 files, removed 2, 3 up to date\n", "\(whole.stderr)")
    }

    /// TypeScript's index.ts names every policy of the project: a run over one file leaves it as it is.
    @Test func aPartOfTheProjectKeepsTheWholeIndex() throws {
        let box = try Sandbox()
        defer { try? FileManager.default.removeItem(at: box.root) }
        try GenSupport.write(Canonical.text(policy: "tv-player"), to: box.root.appendingPathComponent("Policies/tv-player.yaml"))
        #expect(try box.run("generate", "--targets", "typescript").status == 0)
        let index = try #require(box.read("Generated/TypeScript/index.ts"))
        #expect(index.contains("export * as PlaybackPolicy from") && index.contains("export * as TvPlayerPolicy from"), "\(index)")
        let one = try box.run("generate", "--targets", "typescript", "Policies/tv-player.yaml")
        #expect(one.status == 0, "\(one.stderr)")
        #expect(box.read("Generated/TypeScript/index.ts") == index)
        let check = try box.run("generate", "--check", "--targets", "typescript", "Policies/tv-player.yaml")
        #expect(check.status == 0 && check.stdout.isEmpty, "\(check.stdout)")
    }

    /// `--check` shows a shortest diff with three lines of context: the first line deleted is one
    /// line added back, not the whole file replaced; a huge file in the way is shown in part.
    @Test func checkShowsAMinimalDiff() throws {
        let box = try Sandbox()
        defer { try? FileManager.default.removeItem(at: box.root) }
        #expect(try box.run("generate").status == 0)
        let swift = try #require(box.read("Generated/Swift/PlaybackPolicy.swift"))
        let lines = swift.split(separator: "\n", omittingEmptySubsequences: false)
        try GenSupport.write(lines.dropFirst().joined(separator: "\n"), to: box.root.appendingPathComponent("Generated/Swift/PlaybackPolicy.swift"))
        let first = try box.run("generate", "--check")
        #expect(first.status == 1)
        #expect(first.stdout == """
            would change Generated/Swift/PlaybackPolicy.swift
            --- Generated/Swift/PlaybackPolicy.swift
            +++ Generated/Swift/PlaybackPolicy.swift (generated)
            @@ -1,3 +1,4 @@
            +\(lines[0])
             \(lines[1])
             \(lines[2])
             \(lines[3])

            """, "\(first.stdout)")

        // Two changes far apart: two hunks, each with its context.
        var edited = lines
        edited[20] += " // mine"
        edited.remove(at: 60)
        try GenSupport.write(edited.joined(separator: "\n"), to: box.root.appendingPathComponent("Generated/Swift/PlaybackPolicy.swift"))
        let two = try box.run("generate", "--check")
        #expect(two.stdout.components(separatedBy: "\n@@ ").count == 3, "\(two.stdout)")
        #expect(two.stdout.contains("@@ -18,7 +18,7 @@\n") && two.stdout.contains("\n-\(edited[20])\n+\(lines[20])\n"), "\(two.stdout)")
        #expect(two.stdout.contains("@@ -58,6 +58,7 @@\n") && two.stdout.contains("\n+\(lines[60])\n"), "\(two.stdout)")
        #expect(two.stdout.split(separator: "\n").count == 3 + 2 + 8 + 7)

        // 30,000 lines in the way: shown replaced, a few lines of each side.
        let huge = (0..<30_000).map { "line \($0)\n" }.joined()
        try GenSupport.write(huge, to: box.root.appendingPathComponent("Generated/Swift/PlaybackPolicy.swift"))
        let big = try box.run("generate", "--check")
        #expect(big.status == 1)
        #expect(big.stdout.contains("@@ -1,30000 +1,\(lines.count - 1) @@\n-line 0\n") && big.stdout.contains("- … 29980 more lines\n"),
                "\(big.stdout.prefix(2000))")
        #expect(big.stdout.split(separator: "\n").count < 60)
    }

    /// `TypeScript/index.ts` follows the policies: made, changed and counted by `--check` as every
    /// generated file.
    @Test func typeScriptIndexFollowsThePolicies() throws {
        let box = try Sandbox()
        defer { try? FileManager.default.removeItem(at: box.root) }
        try GenSupport.write(Canonical.text(policy: "tv-player"), to: box.root.appendingPathComponent("Policies/tv.yaml"))
        let first = try box.run("generate", "--targets", "typescript")
        #expect(first.status == 0 && first.stderr.contains("wrote 3 files"), "\(first.stderr)")
        #expect(box.names("Generated/TypeScript") == ["PlaybackPolicy.ts", "TvPlayerPolicy.ts", "index.ts"])
        #expect(box.read("Generated/TypeScript/index.ts")?.hasSuffix("""
            // Policies/playback.yaml
            export * as PlaybackPolicy from "./PlaybackPolicy.js";
            // Policies/tv.yaml
            export * as TvPlayerPolicy from "./TvPlayerPolicy.js";

            """) == true)
        #expect(try box.run("generate", "--check", "--targets", "typescript").status == 0)

        try FileManager.default.removeItem(at: box.root.appendingPathComponent("Policies/tv.yaml"))
        let check = try box.run("generate", "--check", "--targets", "typescript")
        #expect(check.status == 1 && check.stderr.contains("2 generated files out of date"), "\(check.stderr)")
        #expect(check.stdout.contains("would change Generated/TypeScript/index.ts\n"), "\(check.stdout)")
        #expect(check.stdout.contains("-export * as TvPlayerPolicy from \"./TvPlayerPolicy.js\";\n"), "\(check.stdout)")
        #expect(check.stdout.contains("would remove Generated/TypeScript/TvPlayerPolicy.ts"))
        let run = try box.run("generate", "--targets", "typescript")
        #expect(run.status == 0 && run.stderr.contains("updated Generated/TypeScript/index.ts"), "\(run.stderr)")
        #expect(box.names("Generated/TypeScript") == ["PlaybackPolicy.ts", "index.ts"])
        #expect(box.read("Generated/TypeScript/index.ts")?.contains("TvPlayerPolicy") == false)
    }

    @Test func anyLintErrorWritesNothing() throws {
        let box = try Sandbox()
        defer { try? FileManager.default.removeItem(at: box.root) }
        try GenSupport.write(Canonical.text.replacingOccurrences(of: "timeout: 8s", with: "timeout: 2s"),
                             to: box.root.appendingPathComponent("Policies/bad.yaml"))
        let run = try box.run("generate")
        #expect(run.status == 1)
        #expect(run.stderr.contains("Policies/bad.yaml:12:16: error:") && run.stderr.contains("[timeout-min]"), "\(run.stderr)")
        #expect(!box.exists("Generated"))
        let missing = try box.run("generate", "Policies/none.yaml")
        #expect(missing.status == 2 && !box.exists("Generated"))
    }

    @Test func refusesSymbolicLinksAndNeverWritesThroughThem() throws {
        let box = try Sandbox()
        defer { try? FileManager.default.removeItem(at: box.root) }
        let fm = FileManager.default
        try fm.createDirectory(at: box.root.appendingPathComponent("real"), withIntermediateDirectories: true)
        try fm.createSymbolicLink(atPath: box.root.appendingPathComponent("link").path, withDestinationPath: "real")
        let linked = try box.run("generate", "--out", "link")
        #expect(linked.status == 2 && linked.stderr.contains("symbolic link"), "\(linked.stderr)")
        #expect(box.names("real").isEmpty)

        try fm.createDirectory(at: box.root.appendingPathComponent("Generated"), withIntermediateDirectories: true)
        try fm.createSymbolicLink(atPath: box.root.appendingPathComponent("Generated/Swift").path, withDestinationPath: "../real")
        let sub = try box.run("generate")
        #expect(sub.status == 2 && sub.stderr.contains("symbolic link"), "\(sub.stderr)")
        #expect(box.names("real").isEmpty && !box.exists("Generated/policy.schema.json"))
        try fm.removeItem(at: box.root.appendingPathComponent("Generated/Swift"))

        // A link where a file goes is replaced by the file; its target is untouched.
        try GenSupport.write("precious\n", to: box.root.appendingPathComponent("real/target.kt"))
        try fm.createDirectory(at: box.root.appendingPathComponent("Generated/Kotlin"), withIntermediateDirectories: true)
        try fm.createSymbolicLink(atPath: box.root.appendingPathComponent("Generated/Kotlin/PlaybackPolicy.kt").path,
                                  withDestinationPath: "../../real/target.kt")
        let run = try box.run("generate")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(box.read("real/target.kt") == "precious\n")
        let type = try fm.attributesOfItem(atPath: box.root.appendingPathComponent("Generated/Kotlin/PlaybackPolicy.kt").path)[.type]
        #expect(type as? FileAttributeType == .typeRegular)
    }

    @Test func removesTemporaryFilesOfKilledRuns() throws {
        let box = try Sandbox()
        defer { try? FileManager.default.removeItem(at: box.root) }
        #expect(try box.run("generate").status == 0)
        try GenSupport.write("half", to: box.root.appendingPathComponent("Generated/Swift/.PlaybackPolicy.swift.policyc-tmp-99999-0"))
        try GenSupport.write("half", to: box.root.appendingPathComponent("Generated/.policy.schema.json.policyc-tmp-99999-2"))
        try GenSupport.write("keep", to: box.root.appendingPathComponent("Generated/.gitattributes"))
        #expect(try box.run("generate").status == 0)
        #expect(box.names("Generated/Swift") == ["PlaybackPolicy.swift"])
        #expect(box.names("Generated") == [".gitattributes", "Kotlin", "Swift", "policy.schema.json"])
    }

    @Test func aFolderThatCannotBeWrittenLeavesOldFilesIntact() throws {
        let box = try Sandbox()
        defer { try? FileManager.default.removeItem(at: box.root) }
        #expect(try box.run("generate").status == 0)
        let before = Self.generated.map(box.read)
        try GenSupport.write(Canonical.text.replacingOccurrences(of: "ahead: 2", with: "ahead: 1"),
                             to: box.root.appendingPathComponent("Policies/playback.yaml"))
        // A folder where a generated file goes stops the run before anything is written.
        try FileManager.default.removeItem(at: box.root.appendingPathComponent("Generated/Swift/PlaybackPolicy.swift"))
        try FileManager.default.createDirectory(at: box.root.appendingPathComponent("Generated/Swift/PlaybackPolicy.swift"),
                                                withIntermediateDirectories: true)
        let blocked = try box.run("generate")
        #expect(blocked.status == 2 && blocked.stderr.contains("not a regular file"), "\(blocked.stderr)")
        #expect(box.read(Self.generated[0]) == before[0])
        try FileManager.default.removeItem(at: box.root.appendingPathComponent("Generated/Swift/PlaybackPolicy.swift"))

        // Permissions only bind a user that is not root.
        guard getuid() != 0 else { return }
        let swiftDir = box.root.appendingPathComponent("Generated/Kotlin")
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: swiftDir.path)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: swiftDir.path) }
        let readOnly = try box.run("generate")
        #expect(readOnly.status == 2)
        #expect(box.read(Self.generated[0]) == before[0] && !box.exists(Self.generated[1]))
    }

    @Test func kotlinPackageIsAnOptionCheckedAsAName() throws {
        let box = try Sandbox()
        defer { try? FileManager.default.removeItem(at: box.root) }
        let bad = try box.run("generate", "--kotlin-package", "com.example.object")
        #expect(bad.status == 2 && bad.stderr.hasPrefix("error: ") && bad.stderr.contains("See 'policyc generate --help'"))
        #expect(!box.exists("Generated"))
        let good = try box.run("generate", "--kotlin-package", "com.example.player", "--out", "out/gen")
        #expect(good.status == 0, "\(good.stderr)")
        #expect(box.read("out/gen/Kotlin/PlaybackPolicy.kt")?.contains("\npackage com.example.player\n") == true)
        let help = try box.run("generate", "--help")
        #expect(help.status == 0 && help.stdout.contains("--kotlin-package"))
    }

    /// Same bytes whatever the order of the inputs on the command line, the locale or the clock.
    @Test func outputIsDeterministic() throws {
        let box = try Sandbox()
        defer { try? FileManager.default.removeItem(at: box.root) }
        try GenSupport.write(Canonical.text(policy: "a-first"), to: box.root.appendingPathComponent("Policies/z.yaml"))
        #expect(try GenSupport.run(box.binary.path, ["generate", "--out", "one", "Policies/z.yaml", "Policies/playback.yaml"],
                                   in: box.root, environment: ["LC_ALL": "C", "TZ": "UTC"]).status == 0)
        #expect(try GenSupport.run(box.binary.path, ["generate", "--out", "two", "Policies/playback.yaml", "./Policies/z.yaml"],
                                   in: box.root, environment: ["LC_ALL": "tr_TR.UTF-8", "TZ": "Asia/Tokyo"]).status == 0)
        #expect(try GenSupport.run(box.binary.path, ["generate", "--out", "three", box.root.appendingPathComponent("Policies").path],
                                   in: box.root).status == 0)
        for file in ["Swift/AFirstPolicy.swift", "Kotlin/AFirstPolicy.kt", "Swift/PlaybackPolicy.swift", "policy.schema.json"]
        where box.exists("one/" + file) {
            #expect(box.read("one/" + file) == box.read("two/" + file) && box.read("one/" + file) == box.read("three/" + file), "\(file)")
        }
        #expect(box.names("one/Swift") == ["AFirstPolicy.swift", "PlaybackPolicy.swift"])
    }
}
