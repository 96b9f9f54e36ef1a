import Foundation
import Testing

@testable import PolicyKit
@testable import TestSupport
/// The folder `benchmarkShapeFolder` made, for the exit handler that removes it.
nonisolated(unsafe) private var benchmarkShapeFolderToRemove: String?

/// Any input of up to 1 MiB, whatever its shape, is linted in at most 32 MiB of peak memory
/// (the built binary's own, from `wait4`/GNU time). The shapes are those an attacker or a
/// generator would make (Benchmarks/corpus.py makes the same ones for timing against libyaml).
@Suite struct LargeInputTests {
    /// 32 MiB for an optimized binary: the one that ships, which CI measures here too (`.ci/run`
    /// runs this suite with `POLICYC_BINARY` set to the released binary). A debug build runs the
    /// same code unoptimized, and its larger code and frames add about 4 MiB to every run
    /// (measured: 14.0 against 10.2 MiB for `lint Policies/playback.yaml`; 34.1 against 29.5 on
    /// never-retry-flow-pairs, the worst shape), so it is held to that much more.
    static let memoryBound = (isDebugBuild ? 36 : 32) * 1_048_576
    static let isDebugBuild = GenSupport.policyc?.path.contains("/debug/") ?? true
    static var boundText: String { isDebugBuild ? "36 MiB (a debug build)" : "32 MiB" }
    static let limit = 1_048_576 - 64

    /// `head`, then `item(0)`, `item(1)`, … as many as fit in just under 1 MiB, then `tail`.
    static func fill(_ head: String, _ tail: String = "", _ item: (Int) -> String) -> (text: String, items: Int) {
        var out = head
        var size = head.utf8.count + tail.utf8.count
        var i = 0
        while true {
            let piece = item(i)
            if size + piece.utf8.count > limit { break }
            out += piece
            size += piece.utf8.count
            i += 1
        }
        return (out + tail, i)
    }

    static let canonicalHead = """
        version: 1
        policy: big
        description: A policy of one shape, as large as a policy file may be.
        retry:
          profiles:

        """
    static let canonicalTail = """
          retryOn: [network, 429, 500, 502, 503]
          neverRetry:
            - status: 503
              code: not_ready
          backoff: full-jitter
          retryAfter:
            honor: true
            maxJitter: 1s
          budget:
            ratio: 10%
            minPerMinute: 10
        prefetch:
          ahead: 2
          onlyUnlocked: true
          retryRefused: false
        tickets:
          reuseKey: [viewer, device, episode, intent]
          stopReuseBefore: 5m
          viewerRef: per-viewer-device

        """
    static let oneProfile = "    one:\n      kind: interactive\n      maxRetries: 3\n      base: 500ms\n      cap: 8s\n      timeout: 8s\n      deadline: 15s\n"

    /// name → (text, whether lint passes it).
    static let shapes: [(name: String, text: String, clean: Bool)] = {
        var out: [(String, String, Bool)] = []
        func add(_ name: String, _ made: (text: String, items: Int), clean: Bool = false) {
            out.append(("\(name) (\(made.items))", made.text, clean))
        }
        add("full profiles", fill(canonicalHead, canonicalTail) { i in
            "    profile\(i):\n      kind: \(i % 2 == 0 ? "interactive" : "background")\n      maxRetries: \(i % 4)\n      base: 500ms\n      cap: 8s\n      timeout: \(5 + i % 3)s\n      deadline: 15s\n"
        }, clean: true)
        add("full profiles, flow style", fill(canonicalHead, canonicalTail) { i in
            "    p\(i): {kind: background, maxRetries: 5, base: 1s, cap: 30s, timeout: 15s, deadline: 120s}\n"
        }, clean: true)
        add("empty profiles", fill(canonicalHead, canonicalTail) { "    p\($0):\n" })
        add("empty mapping profiles", fill(canonicalHead, canonicalTail) { "    profile\($0): {}\n" })
        add("one-key profiles", fill(canonicalHead, canonicalTail) { "    profile\($0): {kind: interactive}\n" })
        add("long description", fill("version: 1\npolicy: big\ndescription: |\n", canonicalTail.replacingOccurrences(of: "  retryOn:", with: "retry:\n  profiles:\n" + oneProfile + "  retryOn:")) { i in
            "  Line \(i) of a description that goes on and on, with ünïcödé and 日本語 in it.\n"
        }, clean: true)
        add("long retryOn", fill(canonicalHead + oneProfile + "  retryOn:\n", canonicalTail.replacingOccurrences(of: "  retryOn: [network, 429, 500, 502, 503]\n", with: "")) { i in
            "    - \(i < 4 ? [429, 503, 500, 502][i] : 100 + i % 500)\n"
        })
        add("long neverRetry", fill(canonicalHead + oneProfile + "  neverRetry:\n    - {status: 503, code: not_ready}\n",
                                   canonicalTail.replacingOccurrences(of: "  neverRetry:\n    - status: 503\n      code: not_ready\n", with: "")) { i in
            "    - {status: \(400 + i % 200), code: code\(i)}\n"
        }, clean: true)
        add("unknown keys", fill(canonicalHead + oneProfile + canonicalTail) { "unknownKey\($0): \($0)\n" })
        add("nesting to the limit", fill("version: 1\npolicy: deep\n") { i in
            (["deep\(i):"] + (1..<31).map { String(repeating: "  ", count: $0) + "k\($0):" } + [String(repeating: "  ", count: 31) + "leaf: \(i)"])
                .joined(separator: "\n") + "\n"
        })
        add("flow nesting to the limit", fill("version: 1\npolicy: deep\nlist:\n") { _ in
            "  - " + String(repeating: "[", count: 30) + "1" + String(repeating: "]", count: 30) + "\n"
        })
        add("one long flow list", fill("version: 1\npolicy: flow\nretry:\n  retryOn: [429, 503", "]\n") { ", \(100 + $0 % 500)" })
        add("one long flow mapping", fill("version: 1\npolicy: flow\nprefetch: {ahead: 1", "}\n") { ", k\($0): \($0)" })
        add("one long unterminated flow list", fill("version: 1\npolicy: flow\nretry:\n  retryOn: [429, 503") { ", \(100 + $0 % 500)" })
        add("duplicate keys", fill("version: 1\npolicy: dup\nprefetch:\n  ahead: 1\n") { _ in "  ahead: 2\n" })
        add("duplicate profiles", fill(canonicalHead + oneProfile, canonicalTail) { _ in "    one: {}\n" })
        add("anchors and aliases", fill("version: 1\npolicy: alias\nlist:\n") { "  - &a\($0) x\n  - *a\($0)\n" })
        add("tiny lists", fill("version: 1\npolicy: lists\nlist:\n") { _ in "  - []\n" })
        add("long keys", fill(canonicalHead, canonicalTail) { "    " + String(repeating: "k", count: 200) + "\($0): {}\n" })
        return out
    }()

    @Test(arguments: shapes.indices)
    func aMebibyteOfAnyShapeLintsInLittleMemory(_ index: Int) throws {
        let shape = Self.shapes[index]
        #expect(shape.text.utf8.count <= 1_048_576 && shape.text.utf8.count > 1_000_000, "\(shape.name)")
        let dir = try GenSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data(shape.text.utf8).write(to: dir.appendingPathComponent("big.yaml"))
        let outcome = try Child.run([try Child.policyc(), "lint", "--format", "json", "big.yaml"], in: dir.path)
        #expect(outcome.signal == nil, "\(shape.name): \(outcome)")
        #expect(outcome.status == (shape.clean ? 0 : 1), "\(shape.name): \(outcome)")
        let found = try Child.diagnostics(outcome)
        #expect(shape.clean == found.isEmpty, "\(shape.name): \(found.prefix(3))")
        #expect(found.count <= 1001, "\(shape.name)")
        #expect(outcome.maxRSSBytes <= Self.memoryBound,
                "\(shape.name): peak memory \(String(format: "%.1f", outcome.maxRSSMiB)) MiB, over \(Self.boundText)")
        print("large input: \(shape.name): \(String(format: "%.1f", outcome.maxRSSMiB)) MiB, \(found.count) findings")
    }

    // MARK: the benchmark's own shapes

    /// The names of Benchmarks/corpus.py's SHAPES (and its long description), read from the
    /// script: the bound is asserted on exactly the set the benchmark times against libyaml.
    static let benchmarkShapes: [String] = {
        let script = GenSupport.packageRoot.appendingPathComponent("Benchmarks/corpus.py")
        let text = (try? String(contentsOf: script, encoding: .utf8)) ?? ""
        let names = text.split(separator: "\n").compactMap { line -> String? in
            // `    "profiles-full": shape_profiles_full,`
            guard line.hasPrefix("    \""), line.contains("\": shape_") else { return nil }
            return String(line.dropFirst(5).prefix { $0 != "\"" })
        }
        return names + ["description"]
    }()

    /// The shapes written once by `corpus.py --shapes` into a temporary folder, for every test.
    static let benchmarkShapeFolder: Result<URL, Child.Failure> = {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("policyc-shapes-\(getpid())")
        let made = try? GenSupport.run("python3", [GenSupport.packageRoot.appendingPathComponent("Benchmarks/corpus.py").path, "--shapes", out.path])
        // Some 40 MB: gone when the tests end.
        benchmarkShapeFolderToRemove = out.path
        atexit { if let path = benchmarkShapeFolderToRemove { try? FileManager.default.removeItem(atPath: path) } }
        guard made?.status == 0 else {
            return .failure(Child.Failure(description: "python3 Benchmarks/corpus.py --shapes failed: \(made.map { "\($0)" } ?? "python3 did not start")"))
        }
        return .success(out.appendingPathComponent("shapes"))
    }()

    @Test func theBenchmarkHasItsShapes() {
        // Read from corpus.py by a pattern: an empty or short list would make the test below vacuous.
        #expect(Self.benchmarkShapes.count >= 38, "\(Self.benchmarkShapes)")
        #expect(Self.benchmarkShapes.contains("name-collisions") && Self.benchmarkShapes.contains("profiles-empty"))
    }

    @Test(arguments: benchmarkShapes)
    func everyBenchmarkShapeLintsInLittleMemory(_ name: String) throws {
        let folder = try Self.benchmarkShapeFolder.get()
        let file = folder.appendingPathComponent("\(name).yaml")
        let size = try #require(try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int)
        #expect(size > 1_000_000 && size <= 1_048_576, "\(name): \(size) bytes")
        let outcome = try Child.run([try Child.policyc(), "lint", "--format", "json", file.path], in: folder.path)
        #expect(outcome.signal == nil, "\(name): \(outcome)")
        #expect(outcome.status == 0 || outcome.status == 1, "\(name): \(outcome)")
        #expect(try Child.diagnostics(outcome).count <= 1001, "\(name)")
        #expect(outcome.maxRSSBytes <= Self.memoryBound,
                "\(name): peak memory \(String(format: "%.1f", outcome.maxRSSMiB)) MiB, over \(Self.boundText)")
        print("benchmark shape: \(name): \(String(format: "%.1f", outcome.maxRSSMiB)) MiB")
    }
}
