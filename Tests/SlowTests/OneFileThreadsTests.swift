import Foundation
import Testing

@testable import PolicyKit
@testable import TestSupport
/// A single file is checked on one thread, however large: a second thread (to parse, to decode
/// ahead, for one rule, to free trees) did not pay on the work users do. Only several files are
/// checked at once (`POLICYC_THREADS`, see `ThreadsTests`).
@Suite(.serialized) struct OneFileThreadsTests {
    @Test func oneLargeFileIsLintedOnOneThread() throws {
        let dir = try GenSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        // Some 600 KB: profiles with findings, so that every stage has work.
        var text = "version: 1\npolicy: big\nretry:\n  profiles:\n"
        for i in 0..<6_000 {
            text += i % 5 == 0 ? "    Bad_\(i): {kind: sometimes}\n"
                : "    p\(i): {kind: interactive, maxRetries: 3, base: 500ms, cap: 8s, timeout: 8s, deadline: 15s}\n"
        }
        try Data(text.utf8).write(to: dir.appendingPathComponent("big.yaml"))
        let run = try ThreadsTests.peakThreads(["lint", "big.yaml"], threads: nil, in: dir)
        #expect(run.status == 1)
        #expect(run.samples >= 50, "the child was watched too rarely to tell")
        #expect(run.peak == 1, "\(run.peak) threads for one file")
    }
}
