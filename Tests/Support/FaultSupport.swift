import Foundation
#if canImport(Glibc)
import Glibc
#endif
@testable import PolicyKit

/// Runs a child process the low-level way, for what `Process` cannot tell: the child's own peak
/// memory (`wait4`'s rusage, not the sum over every child of the test process), a stdin pipe that
/// the child may close early, and a SIGKILL at a chosen moment.
package enum Child {
    package struct Outcome: CustomStringConvertible {
        /// The exit status, or nil when a signal ended the child.
        package var status: Int32?
        package var signal: Int32?
        package var out: [UInt8]
        package var err: [UInt8]
        /// Peak resident memory of this child alone.
        package var maxRSSBytes: Int

        package var outText: String { String(decoding: out, as: UTF8.self) }
        package var errText: String { String(decoding: err, as: UTF8.self) }
        package var maxRSSMiB: Double { Double(maxRSSBytes) / 1_048_576 }

        package var description: String {
            "exit \(status.map(String.init) ?? "-") signal \(signal.map(String.init) ?? "-") rss \(String(format: "%.1f", maxRSSMiB)) MiB\n--- stdout (\(out.count) bytes)\n\(outText.prefix(3000))\n--- stderr\n\(errText.prefix(3000))"
        }
    }

    package enum Input {
        case none
        case file(String)
        /// Written through a pipe; the child may stop reading (EPIPE is expected, not an error).
        case bytes([UInt8])
    }

    package struct Failure: Error, CustomStringConvertible {
        package var description: String
        package init(description: String) { self.description = description }
    }

    /// The built `policyc` (see `GenSupport.policyc`).
    package static func policyc() throws -> String {
        guard let url = GenSupport.policyc else { throw Failure(description: "the policyc binary was not found beside the tests") }
        return url.path
    }

    /// Runs `argv` (argv[0] an absolute path) in `directory`; SIGKILLs it after `killAfter` seconds
    /// when given (it may have finished by then).
    ///
    /// Peak memory comes from GNU time (`/usr/bin/time`, which `wait4`s for its child) when it is
    /// there: Linux charges a child started by `posix_spawn` (vfork) with the parent's peak up to
    /// its `exec`, and the test process holds 50 MB inputs; a child forked by the small `time`
    /// process starts from `time`'s few MB. Without it, this process's own `wait4` figure is used,
    /// which can only be higher.
    package static func run(_ argv: [String], in directory: String? = nil, input: Input = .none,
                    killAfter: Double? = nil, environment: [String: String] = [:]) throws -> Outcome {
        ignoreSIGPIPE
        let scratch = NSTemporaryDirectory() + "policyc-child-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let outPath = scratch + "/out", errPath = scratch + "/err", rssPath = scratch + "/rss"
        let timed = killAfter == nil && FileManager.default.isExecutableFile(atPath: gnuTime)
        let argv = timed ? [gnuTime, "-f", "%M", "-o", rssPath, "--"] + argv : argv

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var pipeFDs: [Int32] = [-1, -1]
        switch input {
        case .none:
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        case .file(let path):
            posix_spawn_file_actions_addopen(&actions, 0, path, O_RDONLY, 0)
        case .bytes:
            guard pipe(&pipeFDs) == 0 else { throw Failure(description: "pipe failed") }
            posix_spawn_file_actions_adddup2(&actions, pipeFDs[0], 0)
            posix_spawn_file_actions_addclose(&actions, pipeFDs[0])
            posix_spawn_file_actions_addclose(&actions, pipeFDs[1])
        }
        posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        if let directory { _ = spawnAddChdir(&actions, directory) }

        var env = ProcessInfo.processInfo.environment
        env["NO_COLOR"] = nil
        for (k, v) in environment { env[k] = v }
        let cArgs = argv.map { strdup($0) } + [nil]
        let cEnv = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            cArgs.forEach { free($0) }
            cEnv.forEach { free($0) }
        }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, argv[0], &actions, nil, cArgs, cEnv)
        guard spawned == 0 else { throw Failure(description: "cannot start \(argv[0]): \(String(cString: strerror(spawned)))") }

        var writer: Thread?
        if case .bytes(let bytes) = input {
            close(pipeFDs[0])
            let fd = pipeFDs[1]
            let done = DispatchSemaphore(value: 0)
            writer = Thread {
                bytes.withUnsafeBytes { raw in
                    var offset = 0
                    while offset < raw.count {
                        let n = write(fd, raw.baseAddress! + offset, raw.count - offset)
                        if n < 0 {
                            if errno == EINTR { continue }
                            break  // EPIPE: the child read what it wanted and closed its end
                        }
                        offset += n
                    }
                }
                close(fd)
                done.signal()
            }
            writer?.start()
            defer { done.wait() }
            return try finish(pid, killAfter: killAfter, outPath: outPath, errPath: errPath, rssPath: timed ? rssPath : nil)
        }
        return try finish(pid, killAfter: killAfter, outPath: outPath, errPath: errPath, rssPath: timed ? rssPath : nil)
    }

    package static let gnuTime = "/usr/bin/time"

    private static func finish(_ pid: pid_t, killAfter: Double?, outPath: String, errPath: String,
                               rssPath: String?) throws -> Outcome {
        if let killAfter {
            if killAfter > 0 { usleep(useconds_t(killAfter * 1_000_000)) }
            kill(pid, SIGKILL)
        }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 {
            guard errno == EINTR else { throw Failure(description: "wait4 failed: \(String(cString: strerror(errno)))") }
        }
        let signal = status & 0x7F
        let out = (try? Data(contentsOf: URL(fileURLWithPath: outPath))).map { [UInt8]($0) } ?? []
        let err = (try? Data(contentsOf: URL(fileURLWithPath: errPath))).map { [UInt8]($0) } ?? []
        var rss = Int(usage.ru_maxrss) * 1024
        var code: Int32? = signal == 0 ? (status >> 8) & 0xFF : nil
        var signalled: Int32? = signal == 0 ? nil : signal
        if let rssPath, let text = try? String(contentsOfFile: rssPath, encoding: .utf8) {
            // GNU time writes "Command terminated by signal N" or "Command exited with non-zero
            // status N" before the figure, and exits with the child's status (128 + N on a signal).
            let lines = text.split(separator: "\n")
            if let kib = lines.last.flatMap({ Int($0.trimmingCharacters(in: .whitespaces)) }) { rss = kib * 1024 }
            if let line = lines.first(where: { $0.hasPrefix("Command terminated by signal ") }),
               let n = Int32(line.split(separator: " ").last ?? "") {
                signalled = n
                code = nil
            }
        }
        return Outcome(status: code, signal: signalled, out: out, err: err, maxRSSBytes: rss)
    }

    /// glibc's (2.29 and later), not exported to Swift without _GNU_SOURCE.
    @_silgen_name("posix_spawn_file_actions_addchdir_np")
    private static func spawnAddChdir(_ actions: UnsafeMutablePointer<posix_spawn_file_actions_t>,
                                      _ path: UnsafePointer<CChar>) -> Int32

    /// A child that exits before reading all of its stdin must not kill the test process (here
    /// and in `CLITests.policyc`).
    package static let ignoreSIGPIPE: Void = { signal(SIGPIPE, SIG_IGN) }()

    /// `lint --format json`'s diagnostics, as dictionaries.
    package static func diagnostics(_ outcome: Outcome) throws -> [[String: Any]] {
        guard let object = try JSONSerialization.jsonObject(with: Data(outcome.out)) as? [String: Any],
              let list = object["diagnostics"] as? [[String: Any]]
        else { throw Failure(description: "not lint JSON:\n\(outcome)") }
        return list
    }
}
