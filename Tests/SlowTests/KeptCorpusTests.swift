import Foundation
import Testing
@testable import PolicyKit
@testable import TestSupport

/// The fuzzer's corpus (`Fuzz/corpus/kept/`) through its own pipeline and invariants
/// (`HostilePipeline`, the full set of products for one input in eight, as the fuzzer makes
/// them): over 500 inputs and a minute of CPU, so here and not in the README's test command,
/// which replays the crashes and hand-written hostile seeds (`HostileReplayTests`).
@Suite struct KeptCorpusTests {
    static let kept = Corpus.kept
    static let shards = 8

    /// In shards, so they run side by side.
    @Test(arguments: 0..<shards)
    func replayTheKeptCorpus(_ shard: Int) throws {
        #expect(Self.kept.count >= 500, "Fuzz/corpus/kept holds \(Self.kept.count) inputs")
        for (i, url) in Self.kept.enumerated() where i % Self.shards == shard {
            let bytes = [UInt8](try Data(contentsOf: url))
            let problems = HostilePipeline.violations(bytes, thorough: false)
            #expect(problems.isEmpty, "\(url.lastPathComponent):\n\(problems.joined(separator: "\n"))")
        }
    }
}
