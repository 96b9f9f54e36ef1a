import Foundation
import Testing

@testable import PolicyKit
@testable import TestSupport
/// `POLICYC_THREADS=1` runs every part of `lint` and `generate` on one thread: the child's
/// threads (`/proc/PID/task`) are watched while it works, and never number more than one. The
/// same watch sees more than one without the variable, so it can see what it looks for.
/// It starts the child with `Process` itself (not `Processes.run`): it watches the child while it
/// runs. Slow (it samples in a busy loop, hundreds of runs): SlowTests.
@Suite(.serialized) struct ThreadsTests {
    /// 600 small policies: enough work for the parallel paths (chunks of 8 and 16) to start.
    static func corpus() throws -> URL {
        let dir = try GenSupport.temporaryDirectory()
        let policies = dir.appendingPathComponent("Policies")
        try FileManager.default.createDirectory(at: policies, withIntermediateDirectories: true)
        let canonical = try String(contentsOf: GenSupport.packageRoot.appendingPathComponent("Policies/playback.yaml"), encoding: .utf8)
        for i in 0..<600 {
            let text = canonical.replacingOccurrences(of: "policy: playback", with: "policy: p\(i)")
            try Data(text.utf8).write(to: policies.appendingPathComponent("p\(i).yaml"))
        }
        return dir
    }

    /// The most threads seen in the child at once, sampled as often as the machine lets us.
    static func peakThreads(_ arguments: [String], threads: String?, in dir: URL) throws -> (peak: Int, samples: Int, status: Int32) {
        var peak = 0, samples = 0, status: Int32 = -1
        // Repeated until the watch saw the child at work a good many times (a busy machine may
        // let a short run end between two samples).
        for _ in 0..<20 where samples < 200 {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: try Child.policyc())
            process.arguments = arguments
            process.currentDirectoryURL = dir
            var env = ProcessInfo.processInfo.environment
            env["POLICYC_THREADS"] = threads
            process.environment = env
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            let tasks = "/proc/\(process.processIdentifier)/task"
            while process.isRunning {
                if let entries = try? FileManager.default.contentsOfDirectory(atPath: tasks), !entries.isEmpty {
                    peak = max(peak, entries.count)
                    samples += 1
                }
            }
            process.waitUntilExit()
            status = process.terminationStatus
        }
        return (peak, samples, status)
    }

    @Test(arguments: [["lint"], ["lint", "--format", "json"], ["generate", "--out", "Out"]])
    func oneThreadMeansOneThread(_ arguments: [String]) throws {
        let dir = try Self.corpus()
        defer { try? FileManager.default.removeItem(at: dir) }
        let one = try Self.peakThreads(arguments, threads: "1", in: dir)
        #expect(one.status == 0)
        #expect(one.samples >= 50, "the child was watched too rarely to tell")
        #expect(one.peak == 1, "\(arguments): \(one.peak) threads with POLICYC_THREADS=1")
        if arguments.first == "generate" { try? FileManager.default.removeItem(at: dir.appendingPathComponent("Out")) }
        // The watch sees other threads when there are some (with two cores or more).
        if ProcessInfo.processInfo.activeProcessorCount > 1 {
            let many = try Self.peakThreads(arguments, threads: nil, in: dir)
            #expect(many.status == 0)
            #expect(many.peak > 1, "\(arguments): the watch never saw a second thread without POLICYC_THREADS")
        }
    }
}
