import Foundation
import Testing
@testable import PolicyKit
@testable import PolicySimulation
@testable import TestSupport

/// Generated code is compiled and run, not only compared: the canonical policy against every
/// reference vector (and, in TypeScript, the guide's own code against the same vectors), policies
/// with other values, and hostile text that must stay inert; then tens of thousands of generated
/// cases that the Swift, Kotlin and TypeScript code and the guide's code must answer alike.
/// Every compiler runs with warnings as errors.
@Suite(.serialized) struct GeneratorCompileTests {
    static let kotlinAvailable = GenSupport.which("kotlinc") != nil && GenSupport.which("java") != nil
    static let typeScriptAvailable = GenSupport.which("tsc") != nil && GenSupport.which("node") != nil

    /// What `tsc` must accept the generated modules with: the strict flags of the issue and more.
    static let tscStrict = ["--strict", "--noUnusedLocals", "--noUnusedParameters", "--noImplicitReturns",
                            "--noFallthroughCasesInSwitch"]

    /// The policies every driver works on: the canonical one (as `Generated/` has it), and three
    /// with other values, hostile text and crowded names.
    /// Each backoff strategy is written by one of them: the hostile policy backs off exponentially,
    /// the exotic one with equal jitter, the crowded one constantly (as a waiver would allow).
    static func policies() throws -> [Policy] {
        var hostile = try GenSupport.hostile, exotic = try GenSupport.exotic, crowded = try GenSupport.crowded
        hostile.backoff = .exponential
        exotic.backoff = .equalJitter
        crowded.backoff = .constant
        crowded.prefetchRetryRefused = true  // as a waiver of prefetch-refused-retry would allow
        return [try GenSupport.canonical, hostile, exotic, crowded]
    }

    /// The generated files of `policies()` whose names end in `ext`, written to `dir`.
    static func generate(_ ext: String, into dir: URL) throws -> [URL] {
        let options = Generator.Options(targets: Generator.Target.allCases)
        var urls: [URL] = []
        for file in Generator.files(for: try policies(), options: options) where file.path.hasSuffix(ext) {
            let url = dir.appendingPathComponent(String(file.path.split(separator: "/").last!))
            try GenSupport.write(file.contents, to: url)
            urls.append(url)
        }
        return urls
    }

    /// A compiled driver: the compiler's run, and how to start the driver.
    struct Build: Sendable {
        var compile: GenSupport.Run
        /// The compiler's complaints: its output, less the JVM's start-up notice.
        var diagnostics: [String]
        var command: [String]

        func run(_ arguments: [String]) throws -> GenSupport.Run {
            try GenSupport.run(command[0], Array(command.dropFirst()) + arguments)
        }
    }

    /// Where the drivers are built: one folder for the test run, removed when the process ends.
    static let buildRoot: String = {
        let dir = try! GenSupport.temporaryDirectory()
        atexit { try? FileManager.default.removeItem(atPath: GeneratorCompileTests.buildRoot) }
        return dir.path
    }()

    static func buildFolder(_ name: String) throws -> URL {
        let dir = URL(fileURLWithPath: buildRoot).appendingPathComponent(name)
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    /// The Swift driver in one language mode: `5`, `6`, or `6-mainactor` (Swift 6 with default
    /// MainActor isolation, as new Xcode app targets compile).
    static func buildSwift(mode: String) throws -> Build {
        let dir = try buildFolder("swift-" + mode)
        let files = try generate(".swift", into: dir)
        let main = dir.appendingPathComponent("main.swift")
        try? FileManager.default.removeItem(at: main)
        try FileManager.default.copyItem(at: GenSupport.packageRoot.appendingPathComponent("Tests/Drivers/Swift/main.swift"), to: main)
        let exe = dir.appendingPathComponent("driver")
        let flags = mode == "6-mainactor" ? ["-swift-version", "6", "-default-isolation", "MainActor"] : ["-swift-version", mode]
        let compile = try GenSupport.run("swiftc", flags + ["-warnings-as-errors"] + (files + [main]).map(\.path) + ["-o", exe.path])
        return Build(compile: compile, diagnostics: (compile.stdout + compile.stderr).split(separator: "\n").map(String.init),
                     command: [exe.path])
    }

    /// Built once: the cross-language test runs it too.
    static let swift6 = Result { try buildSwift(mode: "6") }

    static let kotlin = Result { () throws -> Build in
        let dir = try buildFolder("kotlin")
        let files = try generate(".kt", into: dir)
        let jar = dir.appendingPathComponent("driver.jar")
        let driver = GenSupport.packageRoot.appendingPathComponent("Tests/Drivers/Kotlin/Main.kt")
        let compile = try GenSupport.run("kotlinc", ["-Werror", "-include-runtime", "-d", jar.path] + (files + [driver]).map(\.path))
        let diagnostics = (compile.stdout + compile.stderr).split(separator: "\n").map(String.init)
            .filter { !$0.contains("OpenJDK 64-Bit Server VM warning") }
        return Build(compile: compile, diagnostics: diagnostics, command: ["java", "-jar", jar.path])
    }

    /// The TypeScript driver with the generated modules and the guide's code, as CommonJS.
    static let typeScript = Result { () throws -> Build in
        let dir = try buildFolder("typescript")
        let files = try generate(".ts", into: dir)
        let guide = dir.appendingPathComponent("guide.ts")
        try GenSupport.write(try GenSupport.guideTypeScript(), to: guide)
        let driver = dir.appendingPathComponent("driver.ts")
        try? FileManager.default.removeItem(at: driver)
        try FileManager.default.copyItem(at: GenSupport.packageRoot.appendingPathComponent("Tests/Drivers/TypeScript/driver.ts"), to: driver)
        let out = dir.appendingPathComponent("out")
        let compile = try GenSupport.run("tsc", tscStrict + ["--module", "commonjs", "--target", "es2020", "--lib", "es2020",
                                                             "--outDir", out.path] + (files + [guide, driver]).map(\.path))
        return Build(compile: compile, diagnostics: (compile.stdout + compile.stderr).split(separator: "\n").map(String.init),
                     command: ["node", out.appendingPathComponent("driver.js").path])
    }

    static func expectClean(_ build: Build, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(build.compile.status == 0 && build.diagnostics.isEmpty, "\(what):\n\(build.diagnostics.prefix(40).joined(separator: "\n"))",
                sourceLocation: sourceLocation)
    }

    static var vectorCount: Int {
        get throws {
            try String(contentsOf: GenSupport.vectors, encoding: .utf8).split(separator: "\n").filter { !$0.hasPrefix("#") }.count
        }
    }

    /// The driver's report: every vector and every other check passed, and the strings are exact.
    /// `extraChecks` is how many checks each driver makes besides the vectors.
    static func checkReport(_ run: GenSupport.Run, extraChecks: Int, units: (String) -> String) throws {
        #expect(run.status == 0, "\(run.stdout.prefix(3000))\n\(run.stderr)")
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(!lines.contains { $0.hasPrefix("FAIL") }, "\(lines.filter { $0.hasPrefix("FAIL") }.prefix(10))")
        #expect(lines.contains("checked \(try vectorCount + extraChecks), failed 0"), "\(run.stdout.suffix(2000))")
        #expect(lines.contains("description: " + units(GenSupport.hostileDescription)))
        #expect(lines.contains("codes: " + units("not_ready") + " | " + units(GenSupport.hostileCode)))
    }

    static func scalars(_ s: String) -> String { s.unicodeScalars.map { String($0.value, radix: 16) }.joined(separator: " ") }
    static func utf16(_ s: String) -> String { s.utf16.map { String($0, radix: 16) }.joined(separator: " ") }

    /// Swift 5 and 6, and 6 with default MainActor isolation: the driver calls everything from a
    /// detached task, so a main-actor-isolated API would not compile.
    @Test(arguments: ["5", "6", "6-mainactor"])
    func swiftCompilesWithoutWarningsAndMatchesTheReference(mode: String) throws {
        let build = mode == "6" ? try Self.swift6.get() : try Self.buildSwift(mode: mode)
        Self.expectClean(build, "swiftc (\(mode))")
        guard build.compile.status == 0 else { return }
        try Self.checkReport(try build.run([GenSupport.vectors.path]), extraChecks: 36, units: Self.scalars)
    }

    @Test(.enabled(if: kotlinAvailable || GenSupport.isCI, "kotlinc and java are not installed (required when CI=true)"))
    func kotlinCompilesWithoutWarningsAndMatchesTheReference() throws {
        try #require(GenSupport.which("kotlinc") != nil, "kotlinc is not installed (apt-get install kotlin)")
        let build = try Self.kotlin.get()
        Self.expectClean(build, "kotlinc -Werror")
        guard build.compile.status == 0 else { return }
        try Self.checkReport(try build.run([GenSupport.vectors.path]), extraChecks: 41, units: Self.utf16)
    }

    /// The generated modules and the guide's code, compiled with `tsc --strict` and run with node:
    /// both answer every vector as expected.
    @Test(.enabled(if: typeScriptAvailable || GenSupport.isCI, "tsc and node are not installed (required when CI=true)"))
    func typeScriptCompilesStrictlyAndMatchesTheGuideAndTheReference() throws {
        try #require(Self.typeScriptAvailable, "tsc or node is not installed (apt-get install node-typescript)")
        let build = try Self.typeScript.get()
        Self.expectClean(build, "tsc --strict")
        guard build.compile.status == 0 else { return }
        try Self.checkReport(try build.run([GenSupport.vectors.path]), extraChecks: 37, units: Self.utf16)
    }

    /// The modules on their own: as CommonJS and as ES modules, for old and new targets, with and
    /// without the DOM library, and under tsc's strictest checks; nothing to report.
    @Test(.enabled(if: typeScriptAvailable || GenSupport.isCI, "tsc and node are not installed (required when CI=true)"),
          arguments: [
              ["--module", "commonjs"],                                               // ES3, the default library (DOM)
              ["--module", "es2020"],
              ["--module", "commonjs", "--target", "es5", "--lib", "es5"],          // no DOM, nothing past ES5
              ["--module", "es2020", "--target", "es2020", "--lib", "es2020"],
              ["--module", "es2020", "--target", "es2022", "--lib", "es2022,dom", "--exactOptionalPropertyTypes",
               "--noUncheckedIndexedAccess", "--noPropertyAccessFromIndexSignature", "--noImplicitOverride",
               "--isolatedModules", "--declaration", "--useUnknownInCatchVariables"],
          ])
    func typeScriptModulesCompileEverywhere(flags: [String]) throws {
        try #require(Self.typeScriptAvailable, "tsc or node is not installed (apt-get install node-typescript)")
        let dir = try GenSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let files = try Self.generate(".ts", into: dir)
        #expect(files.count == 5)
        let out = dir.appendingPathComponent("out")
        let compile = try GenSupport.run("tsc", Self.tscStrict + flags + ["--outDir", out.path] + files.map(\.path))
        #expect(compile.status == 0 && (compile.stdout + compile.stderr).isEmpty, "tsc \(flags):\n\(compile.stdout)\(compile.stderr)")
        guard compile.status == 0, flags[1] == "es2020" else { return }
        // As an ES module, node imports it and gets the policy's values.
        try GenSupport.write(#"{"type": "module"}"#, to: out.appendingPathComponent("package.json"))
        try GenSupport.write("""
            import { INTERACTIVE, isRetryable, backoffMs, RetryBudget } from "./PlaybackPolicy.js";
            import { PlaybackPolicy, HostilePolicy } from "./index.js";
            const budget = new RetryBudget(() => 0);
            console.log([INTERACTIVE.capMs, isRetryable(503, "not_ready"), backoffMs(1, null, INTERACTIVE, () => 0.5), budget.tryRetry()].join(" "));
            console.log([PlaybackPolicy.POLICY_NAME, PlaybackPolicy.INTERACTIVE === INTERACTIVE, HostilePolicy.isRetryable(429)].join(" "));

            """, to: out.appendingPathComponent("check.mjs"))
        let run = try GenSupport.run("node", [out.appendingPathComponent("check.mjs").path])
        #expect(run.status == 0 && run.stdout == "8000 false 500 true\nplayback true true\n", "\(run.stdout)\(run.stderr)")
    }

    /// The generated `callWithRetries` of each language and the reference executor (written from
    /// SPEC 7.1, see CallTranscripts) make the same attempts with the same timeouts, wait the same
    /// waits (bit for bit, with the same draws of `random`) and end for the same reason, on 10 000
    /// scripted calls: every status, error codes, Retry-After in delta-seconds, in each HTTP-date
    /// form and as garbage, slow attempts, clocks that move as they are read, a spent budget, and
    /// cancellation during an attempt and during a wait.
    @Test(arguments: ["Swift", "TypeScript", "Kotlin"])
    func callWithRetriesFollowsTheReference(language: String) throws {
        let available = language == "Swift" || (language == "Kotlin" ? Self.kotlinAvailable : Self.typeScriptAvailable)
        guard available || GenSupport.isCI else { return }
        try #require(available, "\(language): the compiler is not installed")
        let transcripts = CallTranscripts.make(count: 10_000, seed: 47)
        let expected = transcripts.map(CallTranscripts.reference)
        let dir = try GenSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("calls.tsv")
        try GenSupport.write(transcripts.map(\.line).joined(separator: "\n") + "\n", to: file)
        let build = language == "Swift" ? try Self.swift6.get() : language == "Kotlin" ? try Self.kotlin.get() : try Self.typeScript.get()
        try #require(build.compile.status == 0, "\(language) did not compile:\n\(build.diagnostics.prefix(30).joined(separator: "\n"))")
        let run = try build.run(["--calls", file.path])
        try #require(run.status == 0, "\(language): \(run.stderr.prefix(2000))")
        let got = run.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
        #expect(got.count == expected.count, "\(language): \(got.count) answers")
        let differing = zip(got, expected).enumerated().filter { $0.element.0 != $0.element.1 }
        #expect(differing.isEmpty, """
            \(language): \(differing.count) of \(expected.count) calls differ from the reference, e.g.
            \(differing.prefix(4).map { "\(transcripts[$0.offset].line)\n  got      \($0.element.0)\n  expected \($0.element.1)" }
                .joined(separator: "\n"))
            """)
        // The scripts reach every end, and every way to a wait.
        let reasons = Set(expected.map { $0.split(separator: "\t").first.map(String.init) ?? "" })
        #expect(reasons == ["succeeded", "notRetryable", "retriesUsed", "deadline", "budget", "cancelled"], "\(reasons)")
        #expect(expected.filter { $0.split(separator: "\t", omittingEmptySubsequences: false)[2].contains(",") }.count > 1000,
                "calls with several waits")
    }

    /// `parseRetryAfter` of each language reads 5 000 Retry-After texts as the test that wrote them
    /// means them: delta-seconds, dates in each HTTP-date form from 1950 to 2100 read at times up to
    /// 40 years away (the seconds to them, 0 once past), and garbage (none); bit for bit.
    @Test(arguments: ["Swift", "TypeScript", "Kotlin"])
    func parseRetryAfterReadsWhatTheTextMeans(language: String) throws {
        let available = language == "Swift" || (language == "Kotlin" ? Self.kotlinAvailable : Self.typeScriptAvailable)
        guard available || GenSupport.isCI else { return }
        try #require(available, "\(language): the compiler is not installed")
        let cases = CallTranscripts.retryAfterCases(count: 5000, seed: 9110)
        let dir = try GenSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("retry-after.tsv")
        try GenSupport.write(cases.map(\.line).joined(separator: "\n") + "\n", to: file)
        let build = language == "Swift" ? try Self.swift6.get() : language == "Kotlin" ? try Self.kotlin.get() : try Self.typeScript.get()
        try #require(build.compile.status == 0, "\(language) did not compile")
        let run = try build.run(["--retry-after", file.path])
        try #require(run.status == 0, "\(language): \(run.stderr.prefix(2000))")
        let got = run.stdout.split(separator: "\n").map(String.init)
        #expect(got.count == cases.count)
        let differing = zip(got, cases).filter { $0.0 != $0.1.expected }
        #expect(differing.isEmpty, "\(language): \(differing.count) differ, e.g. \(differing.prefix(5).map { "\($0.1.line): got \($0.0), expected \($0.1.expected)" })")
        #expect(cases.filter { $0.expected == "none" }.count > 500 && cases.filter { $0.expected == CallTranscripts.hex(0) }.count > 500)
    }

    /// Batch cases for `itemsToRetry`: the policy, the items of one answer (`intent,status,code,retryAfterS`
    /// split by `;`, `-` for none) and the answer every language must give: the indices to ask again
    /// and the wait in milliseconds. Playback and crowded differ only in `retryRefused`; hostile does
    /// not retry network errors; exotic does not honor Retry-After.
    static let batchCases: [(policy: String, items: String, indices: String, waitMs: Double?)] = [
        ("playback", "prefetch,429,-,5;play,200,-,-", "", nil),                           // a refused prefetch is not retried
        ("crowded", "prefetch,429,-,5;play,200,-,-", "0", 5000),                          // unless retryRefused
        ("crowded", "play,429,-,3;prefetch,429,-,4", "0,1", 4000),
        ("playback", "play,429,-,3;prefetch,429,-,4", "0", 3000),                         // a 429 on play is retried
        ("playback", "play,503,not_ready,30;prefetch,404,not_ready,-;play,503,busy,2", "2", 2000),  // not_ready never
        ("crowded", "play,500,not_ready,30;prefetch,-,not_ready,-", "", nil),              // whatever its status
        ("playback", "play,-,-,-;prefetch,-,-,-;play,404,-,-", "0,1", nil),                // network errors
        ("hostile", "play,-,-,-;prefetch,-,-,-;play,503,-,1", "2", 1000),                 // not for hostile
        ("playback", "play,503,busy,2;prefetch,503,-,7.5;play,500,-,3;prefetch,200,-,60;play,502,-,-0.5", "0,1,2,4", 7500),
        ("exotic", "play,503,busy,4;play,429,-,9;prefetch,500,-,-", "0,1,2", nil),        // Retry-After not honored
        ("playback", "", "", nil),
    ]

    /// `itemsToRetry` of each language asks again for the failed items that can succeed later and
    /// waits the largest `retry_after` of those, as `batchCases` say.
    @Test(arguments: ["Swift", "TypeScript", "Kotlin"])
    func itemsToRetryAsksAgainOnlyForWhatCanSucceed(language: String) throws {
        let available = language == "Swift" || (language == "Kotlin" ? Self.kotlinAvailable : Self.typeScriptAvailable)
        guard available || GenSupport.isCI else { return }
        try #require(available, "\(language): the compiler is not installed")
        let dir = try GenSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("batches.tsv")
        try GenSupport.write(Self.batchCases.map { "\($0.policy)\t\($0.items)\n" }.joined(), to: file)
        let build = language == "Swift" ? try Self.swift6.get() : language == "Kotlin" ? try Self.kotlin.get() : try Self.typeScript.get()
        try #require(build.compile.status == 0, "\(language) did not compile:\n\(build.diagnostics.prefix(30).joined(separator: "\n"))")
        let run = try build.run(["--batches", file.path])
        try #require(run.status == 0, "\(language): \(run.stderr.prefix(2000))")
        let got = run.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
        let expected = Self.batchCases.map { $0.indices + "\t" + ($0.waitMs.map(CallTranscripts.hex) ?? "none") }
        #expect(got == expected, "\(language):\n\(zip(Self.batchCases, zip(got, expected)).filter { $1.0 != $1.1 }.map { "\($0.policy) \($0.items): got \($1.0), expected \($1.1)" }.joined(separator: "\n"))")
    }

    /// The guide's code is cut out whole: it starts with the type, ends with the class, and is
    /// what the vectors run against in TypeScript.
    @Test func guideCodeIsCutOutWhole() throws {
        let code = try GenSupport.guideTypeScript()
        #expect(code.hasPrefix("export type RetryPolicy = {"))
        #expect(code.hasSuffix("    return true;\n  }\n}\n"))
        for name in ["export const INTERACTIVE: RetryPolicy", "export const BACKGROUND: RetryPolicy", "export function isRetryable(",
                     "export function backoffMs(", "export class RetryBudget", "Date.now()"] {
            #expect(code.contains(name), "\(name)")
        }
    }

    /// Inputs for every language's functions, the same for each (seeded): random attempts (huge
    /// ones too), Retry-After and random() values given by their bits, profiles, statuses with
    /// codes that differ from the policies' by case, Unicode equivalence or look, and budget
    /// sequences whose clock jumps back and forth. Codes are percent-encoded UTF-8.
    static func cases(seed: UInt64 = 2025) -> (text: String, count: Int) {
        var rng = Rng(state: seed)
        func unit() -> Double {
            // 53 random bits: every double in [0, 1) that a random() can give.
            let bits = (rng.next() << 22) ^ rng.next()
            return Double(bits & ((1 << 53) - 1)) / 9_007_199_254_740_992
        }
        func hex(_ d: Double) -> String {
            let h = String(d.bitPattern, radix: 16)
            return String(repeating: "0", count: 16 - h.count) + h
        }
        func encoded(_ s: String) -> String {
            var out = ""
            for b in s.utf8 {
                if (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x5F {
                    out.unicodeScalars.append(Unicode.Scalar(b))
                } else {
                    out += "%" + (b < 0x10 ? "0" : "") + String(b, radix: 16, uppercase: true)
                }
            }
            return out
        }
        let attempts = [0, 1, 2, 3, 4, 5, 6, 10, 30, 52, 53, 54, 63, 64, 65, 100, 1000, 1022, 1023, 1024, 1025, 1073, 1074, 1075,
                        1076, 2000, 65_536, 2_147_483_647]
        let retryAfters: [Double] = [0, -0.0, -1, -1e300, .leastNonzeroMagnitude, 1e-300, 0.001, 0.5, 1, 1.5, 2.5, 30, 120, 3600, 1e15, 1e300,
                                     .greatestFiniteMagnitude, .infinity, -.infinity, .nan]
        let randoms: [Double] = [0, .leastNonzeroMagnitude, 0x1p-53, 0.25, 0.5, 0.999, 0x1.fffffffffffffp-1]
        let bases = [1, 250, 500, 1000, 1001, 4095, 30_000, 9_007_199_254_740_991]
        let codes = ["not_ready", "NOT_READY", "not_ready ", " not_ready", "", "busy", "overloaded", "rate_limited",
                     GenSupport.hostileCode, "\u{958}", "\u{915}\u{93C}", "\u{E9}", "e\u{301}", "\u{212A}", "K", "k",
                     "\u{430}", "a", "A\u{30A}", "\u{C5}", "\u{212B}", "not\u{200B}_ready", "not_ready\u{0}", "😀", "%"]
        let statuses = [0, 100, 200, 304, 404, 408, 429, 499, 500, 501, 502, 503, 504, 599, -1, 2_147_483_647]
        let steps: [Int64] = [0, 0, 1, 10, 100, 1000, 20_000, 59_999, 60_000, 60_001, 60_002, 120_000, 3_600_000, -1000, -60_001]
        var lines: [String] = []
        for _ in 0..<20_000 {
            let base = rng.below(3) == 0 ? rng.pick(bases) : 1 + rng.below(20_000)
            let cap = rng.below(8) == 0 ? 1 + rng.below(100_000) : base + rng.below(200_000)
            let attempt = rng.below(2) == 0 ? rng.pick(attempts) : rng.below(70)
            let retryAfter = rng.below(3) == 0 ? "-" : hex(rng.below(2) == 0 ? rng.pick(retryAfters) : unit() * 200 - 20)
            let random = rng.below(4) == 0 ? rng.pick(randoms) : unit()
            lines.append("backoff\t\(base)\t\(cap)\t\(attempt)\t\(retryAfter)\t\(hex(random))")
        }
        for _ in 0..<4000 {
            let status = rng.below(8) == 0 ? "-" : String(rng.below(2) == 0 ? rng.pick(statuses) : rng.below(1000))
            let code = rng.below(5) == 0 ? "-" : encoded(rng.pick(codes))
            lines.append("retryable\t\(status)\t\(code)")
        }
        for _ in 0..<1500 {
            let t0: Int64 = rng.pick([0, 5, 1_700_000_000_000, Int64(rng.next())])
            var t = t0
            var ops: [String] = []
            let writes = rng.below(4)  // how often requests come, against retries
            for _ in 0..<(1 + rng.below(250)) {
                t = max(0, t + rng.pick(steps))
                ops.append("\(t)" + (rng.below(4) <= writes ? "r" : "t"))
            }
            lines.append("budget\t\(t0)\t\(ops.joined(separator: ","))")
        }
        return ("# generated cases: see GeneratorCompileTests.cases\n" + lines.joined(separator: "\n") + "\n", lines.count)
    }

    /// The same inputs through the generated Swift, Kotlin and TypeScript and the guide's code:
    /// every answer, bit for bit, is the same in the three languages, and the canonical policy's
    /// are the guide's.
    @Test(.enabled(if: (kotlinAvailable && typeScriptAvailable) || GenSupport.isCI,
                   "kotlinc, java, tsc and node are needed (required when CI=true)"))
    func threeLanguagesAndTheGuideAnswerEveryCaseAlike() throws {
        try #require(Self.kotlinAvailable && Self.typeScriptAvailable, "kotlinc, java, tsc or node is not installed")
        let (text, count) = Self.cases()
        let dir = try GenSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let casesFile = dir.appendingPathComponent("cases.tsv")
        try GenSupport.write(text, to: casesFile)
        let cases = text.split(separator: "\n").dropFirst().map(String.init)

        var answers: [String: [String: [String]]] = [:]  // language → face → answers
        for (language, build) in [("Swift", try Self.swift6.get()), ("Kotlin", try Self.kotlin.get()), ("TypeScript", try Self.typeScript.get())] {
            try #require(build.compile.status == 0, "\(language) did not compile")
            let run = try build.run(["--answers", casesFile.path])
            try #require(run.status == 0, "\(language): \(run.stderr.prefix(2000))")
            var byFace: [String: [String]] = [:]
            for line in run.stdout.split(separator: "\n") {
                let f = line.split(separator: "\t", omittingEmptySubsequences: false)
                try #require(f.count == 3, "\(language): \(line)")
                byFace[String(f[0]), default: []].append(String(f[2]))
            }
            answers[language] = byFace
        }
        let faces = ["playback", "hostile", "exotic"]
        for language in ["Swift", "Kotlin", "TypeScript"] {
            #expect(Set(answers[language]!.keys) == Set(language == "TypeScript" ? faces + ["guide"] : faces), "\(language)")
            for face in answers[language]!.keys { #expect(answers[language]![face]!.count == count, "\(language) \(face)") }
        }
        func compare(_ a: [String], _ b: [String], _ what: String) {
            let differing = zip(a, b).enumerated().filter { $0.element.0 != $0.element.1 }
            #expect(a.count == b.count && differing.isEmpty, """
                \(what): \(differing.count) of \(a.count) answers differ, e.g.
                \(differing.prefix(5).map { "\(cases[$0.offset].prefix(200)) → \($0.element.0) vs \($0.element.1)" }.joined(separator: "\n"))
                """)
        }
        for face in faces {
            let swift = answers["Swift"]![face] ?? []
            compare(swift, answers["Kotlin"]![face] ?? [], "Swift and Kotlin, \(face)")
            compare(swift, answers["TypeScript"]![face] ?? [], "Swift and TypeScript, \(face)")
        }
        compare(answers["TypeScript"]!["guide"] ?? [], answers["TypeScript"]!["playback"] ?? [], "the guide's code and the generated TypeScript")

        // Every policy's waits are the simulator's, bit for bit and draw for draw: each strategy as
        // `simulate` defines it (playback full jitter, hostile exponential, exotic equal jitter).
        let byName = Dictionary(uniqueKeysWithValues: try Self.policies().map { ($0.name, $0) })
        for face in faces {
            let policy = try #require(byName[face])
            var expected: [String] = [], generated: [String] = []
            for (i, line) in cases.enumerated() where line.hasPrefix("backoff\t") {
                let f = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
                let profile = Policy.Profile(name: "p", kind: .background, maxRetries: 0, baseMs: Int(f[1])!, capMs: Int(f[2])!,
                                             timeoutMs: 0, deadlineMs: 0, line: 0)
                let retryAfterS = f[4] == "-" ? 0 : Double(bitPattern: UInt64(f[4], radix: 16)!)
                let unit = Double(bitPattern: UInt64(f[5], radix: 16)!)
                let wait = ClientRules(policy: policy, profile: profile).backoffMs(attempt: Int(f[3])!, retryAfterMs: retryAfterS * 1000, unit: unit)
                let draws = (policy.retryAfterHonor && retryAfterS > 0) || policy.backoff == .fullJitter || policy.backoff == .equalJitter
                let bits = String(wait.bitPattern, radix: 16)
                expected.append(String(repeating: "0", count: 16 - bits.count) + bits + (draws ? "/1" : "/0"))
                generated.append(answers["Swift"]![face]![i])
            }
            #expect(expected.count == 20_000)
            compare(generated, expected, "the generated Swift and the simulator's clients, \(face) (\(policy.backoff.rawValue))")
        }

        // The cases reach every way through the functions, and the policies answer differently.
        let playback = answers["Swift"]!["playback"]!, exotic = answers["Swift"]!["exotic"]!, hostile = answers["Swift"]!["hostile"]!
        #expect(Set(playback).count > 15_000, "answers that are mostly distinct")
        #expect(playback.contains("true") && playback.contains("false") && playback.contains { $0.hasPrefix("=") && $0.contains("0") })
        #expect(playback.contains("7ff0000000000000/1") && playback.contains("0000000000000000/1"), "infinite and zero waits")
        #expect(zip(playback, exotic).filter { $0 != $1 }.count > 5000 && zip(playback, hostile).filter { $0 != $1 }.count > 5000)
    }
}
