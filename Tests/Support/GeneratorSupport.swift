import Foundation
import Testing
@testable import PolicyKit

/// Shared by the generator tests: paths, policies, running tools.
package enum GenSupport {
    /// The package root, found from this file (Tests/Support/GeneratorSupport.swift).
    package static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `../shared/vectors/retry-reference.tsv` beside the package.
    package static let vectors = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/vectors/retry-reference.tsv")

    /// `../shared/seed/smooth-playback-under-load.txt`: the integration guide, with its TypeScript.
    package static let guide = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/seed/smooth-playback-under-load.txt")

    package static let fixtures = packageRoot.appendingPathComponent("Tests/Fixtures/Schema")

    /// The guide's retry code, cut out of the guide as it stands there: from `export type
    /// RetryPolicy` to the `}` that ends `class RetryBudget`.
    package static func guideTypeScript() throws -> String {
        let text = try String(contentsOf: guide, encoding: .utf8)
        let start = try #require(text.range(of: "export type RetryPolicy"), "the guide has no 'export type RetryPolicy'")
        let budget = try #require(text.range(of: "export class RetryBudget", range: start.upperBound..<text.endIndex),
                                  "the guide has no 'export class RetryBudget'")
        let end = try #require(text.range(of: "\n}\n", range: budget.upperBound..<text.endIndex), "class RetryBudget does not end")
        return String(text[start.lowerBound..<end.lowerBound]) + "\n}\n"
    }

    /// Under CI a missing tool is a failure, never a silent skip.
    package static var isCI: Bool { ProcessInfo.processInfo.environment["CI"] == "true" }

    package static func policy(_ yaml: String, path: String) throws -> Policy {
        let checked = Checker.check(Array(yaml.utf8), path: path)
        #expect(checked.errorCount == 0, "\(checked.diagnostics.map(\.headline))")
        return try #require(checked.policy)
    }

    package static var canonical: Policy {
        get throws { try policy(Canonical.text, path: "Policies/playback.yaml") }
    }

    /// A policy whose free text tries every way out of a string or a comment, with other values
    /// than the canonical one (no network, 429/503, 250 ms jitter, 2.5 %, floor 3).
    package static let hostileYAML = #"""
        version: 1
        policy: hostile
        description: "*/ /* \"\"\" $x ${evil()} \\(evil()) \\u000a bare\rCR \u2028 nul\0 \u202Ebidi\u2066 é😀 end */"
        retry:
          profiles:
            slow:
              kind: background
              maxRetries: 2
              base: 500ms
              cap: 5s
              timeout: 10s
              deadline: 60s
          retryOn: [429, 503]
          neverRetry:
            - status: 503
              code: not_ready
            - status: 429
              code: "\"); exit(1); //*/ ${x} $y \\(z) \u2028"
          backoff: full-jitter
          retryAfter:
            honor: true
            maxJitter: 250ms
          budget:
            ratio: 2.5%
            minPerMinute: 3
        prefetch:
          ahead: 1
          onlyUnlocked: true
          retryRefused: false
        tickets:
          reuseKey: [viewer, device, episode, intent]
          stopReuseBefore: 10m
          viewerRef: per-viewer-device

        """#

    /// What the hostile description and second code must read, exactly.
    package static let hostileDescription = "*/ /* \"\"\" $x ${evil()} \\(evil()) \\u000a bare\rCR \u{2028} nul\0 \u{202E}bidi\u{2066} é😀 end */"
    package static let hostileCode = "\"); exit(1); //*/ ${x} $y \\(z) \u{2028}"

    /// The hostile policy, from a file name that tries to leave the header comment too.
    package static var hostile: Policy {
        get throws { try policy(hostileYAML, path: "Policies/evil\n*/ x.yaml") }
    }

    /// A policy whose `neverRetry` codes differ from codes an answer may carry only by Unicode
    /// equivalence or by look (U+0958 and U+0915 U+093C, é as one scalar or two, the Kelvin sign
    /// and K, Cyrillic а and a, Å as A + ring and as U+00C5 or the Angstrom sign), with other
    /// values again: network retried, 429/500/503, 1 ms of jitter, 7.5 %, floor 0. `exotic` also
    /// does not honor Retry-After (an error lint reports, set on the checked policy).
    package static let exoticYAML = #"""
        version: 1
        policy: exotic
        retry:
          profiles:
            wait:
              kind: background
              maxRetries: 7
              base: 250ms
              cap: 6s
              timeout: 5s
              deadline: 60s
          retryOn: [network, 429, 500, 503]
          neverRetry:
            - status: 503
              code: not_ready
            - status: 503
              code: "\u0958"
            - status: 503
              code: "\u00E9"
            - status: 429
              code: "\u212A"
            - status: 500
              code: "\u0430"
            - status: 503
              code: "A\u030A"
          backoff: full-jitter
          retryAfter:
            honor: true
            maxJitter: 1ms
          budget:
            ratio: 7.5%
            minPerMinute: 0
        prefetch:
          ahead: 0
          onlyUnlocked: true
          retryRefused: false
        tickets:
          reuseKey: [intent, episode, device, viewer]
          stopReuseBefore: 1h
          viewerRef: per-viewer-device

        """#

    package static var exotic: Policy {
        get throws {
            var policy = try policy(exoticYAML, path: "Policies/exotic.yaml")
            policy.retryAfterHonor = false
            return policy
        }
    }

    /// Profile names that are the generated code's own locals, parameters and library names:
    /// generated code must still compile (it qualifies what it calls).
    package static let crowdedNames = ["min", "max", "lock", "now", "random", "status", "growth", "swift", "roll", "since",
                               "print", "date", "errorCode", "attempt", "profile", "retryAfterS", "sent", "retries",
                               "math", "system", "never", "it", "double", "int64", "mapOf", "listOf", "setOf",
                               "entry", "performance", "monotonic-now", "undefined", "kind", "toString", "prototype",
                               "value-of", "has-own-property"]

    package static var crowded: Policy {
        get throws {
            let profile = """
                      kind: background
                      maxRetries: 1
                      base: 1s
                      cap: 2s
                      timeout: 5s
                      deadline: 10s

                """
            let profiles = crowdedNames.map { "    \($0):\n" + profile }.joined()
            let text = Canonical.text(policy: "crowded").replacingOccurrences(of: "  profiles:\n", with: "  profiles:\n" + profiles)
            return try policy(text, path: "Policies/crowded.yaml")
        }
    }

    package typealias Run = Processes.Result

    /// Runs `tool` (looked up on PATH unless it is a path); see `Processes.run`.
    package static func run(_ tool: String, _ args: [String], in directory: URL? = nil, environment: [String: String] = [:]) throws -> Run {
        try Processes.run(tool, args, in: directory, environment: environment)
    }

    /// The full path of `tool` on PATH, if it is there.
    package static func which(_ tool: String) -> String? {
        for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
            let path = String(dir) + "/" + tool
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return nil
    }

    package static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("policyc-gen-" + UUID().uuidString)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    package static func write(_ text: String, to url: URL) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    /// The policyc binary under test: POLICYC_BINARY when set (a ThreadSanitizer build in CI, the
    /// release binary), else the one SwiftPM built beside the test bundle.
    package static let policyc: URL? = {
        if let given = ProcessInfo.processInfo.environment["POLICYC_BINARY"], !given.isEmpty {
            return URL(fileURLWithPath: given)
        }
        var candidates: [URL] = []
        if let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            candidates.append(URL(fileURLWithPath: exe).deletingLastPathComponent().appendingPathComponent("policyc"))
        }
        candidates.append(Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("policyc"))
        candidates.append(packageRoot.appendingPathComponent(".build/debug/policyc"))
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }()

    /// Lines that differ between two texts, for failure messages.
    package static func diff(_ expected: String, _ actual: String, limit: Int = 10) -> String {
        let a = expected.split(separator: "\n", omittingEmptySubsequences: false)
        let b = actual.split(separator: "\n", omittingEmptySubsequences: false)
        var out: [String] = []
        for i in 0..<max(a.count, b.count) where out.count < limit * 2 {
            let x = i < a.count ? String(a[i]) : "<none>", y = i < b.count ? String(b[i]) : "<none>"
            if x != y { out += ["line \(i + 1): - \(x)", "line \(i + 1): + \(y)"] }
        }
        return out.joined(separator: "\n")
    }
}
