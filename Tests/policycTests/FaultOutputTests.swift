import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif
@testable import PolicyKit
@testable import TestSupport

/// `policyc generate` under faults: a bad policy among many, SIGKILL at random moments, a folder
/// that cannot be written, a full disk, two runs at once, planted links. Nothing is ever lost:
/// each generated file is the old version or the new one, never torn, never half-updated.
@Suite struct FaultOutputTests {
    /// A folder's regular files and links, by path relative to it (hidden files included).
    typealias Snapshot = [String: [UInt8]]

    struct Sandbox {
        let root: String

        init() throws {
            root = try CLITests.scratch().path
        }

        func remove() { try? FileManager.default.removeItem(atPath: root) }

        func path(_ relative: String) -> String { root + "/" + relative }

        func write(_ text: String, _ relative: String) throws {
            let url = URL(fileURLWithPath: path(relative))
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }

        /// `count` policies `p0`…: clean variants of the canonical policy; `variant` changes values.
        func writePolicies(_ folder: String, count: Int, variant: Int, skip: Set<Int> = []) throws {
            for i in 0..<count where !skip.contains(i) {
                try write(FaultOutputTests.policy(name: "p\(i)", variant: variant), "\(folder)/p\(i).yaml")
            }
        }

        func generate(_ arguments: String..., killAfter: Double? = nil, as user: Bool = false) throws -> Child.Outcome {
            let policyc = try Child.policyc()
            let argv = user
                ? ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", policyc, "generate"] + arguments
                : [policyc, "generate"] + arguments
            return try Child.run(argv, in: root, killAfter: killAfter)
        }

        func snapshot(_ relative: String) -> Snapshot {
            var out: Snapshot = [:]
            let base = path(relative)
            guard let walker = FileManager.default.enumerator(atPath: base) else { return out }
            while let name = walker.nextObject() as? String {
                let full = base + "/" + name
                var info = stat()
                guard lstat(full, &info) == 0 else { continue }
                switch info.st_mode & S_IFMT {
                case S_IFREG:
                    out[name] = (try? Data(contentsOf: URL(fileURLWithPath: full))).map { [UInt8]($0) } ?? []
                case S_IFLNK:
                    out[name] = Array(("link -> " + ((try? FileManager.default.destinationOfSymbolicLink(atPath: full)) ?? "?")).utf8)
                default:
                    continue
                }
            }
            return out
        }

        /// Replaces `relative` with exactly the files of `snapshot`.
        func restore(_ relative: String, _ snapshot: Snapshot) throws {
            try? FileManager.default.removeItem(atPath: path(relative))
            for (name, bytes) in snapshot {
                let url = URL(fileURLWithPath: path(relative + "/" + name))
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(bytes).write(to: url)
            }
        }

        func inodes(_ relative: String) -> [String: UInt64] {
            var out: [String: UInt64] = [:]
            for name in snapshot(relative).keys {
                var info = stat()
                if lstat(path(relative + "/" + name), &info) == 0 { out[name] = UInt64(info.st_ino) }
            }
            return out
        }
    }

    static let canonical: String =
        (try? String(contentsOf: CLITests.packageRoot.appendingPathComponent("Policies/playback.yaml"), encoding: .utf8)) ?? ""

    /// The canonical policy named `name`, with values that differ by `variant` (all clean).
    static func policy(name: String, variant: Int) -> String {
        canonical
            .replacingOccurrences(of: "policy: playback", with: "policy: \(name)")
            .replacingOccurrences(of: "minPerMinute: 10", with: "minPerMinute: \(10 - variant % 10)")
            .replacingOccurrences(of: "Ticket requests made by the iOS and Android players.",
                                  with: "Variant \(variant) of \(name). " + String(repeating: "Long text. ", count: 200 * (variant % 3)))
    }

    static func temporaries(_ snapshot: Snapshot) -> [String] {
        snapshot.keys.filter { $0.contains(".policyc-tmp-") }.sorted()
    }

    // MARK: all or nothing

    @Test func oneBadPolicyAmongManyChangesNoFile() throws {
        let box = try Sandbox()
        defer { box.remove() }
        try box.writePolicies("Policies", count: 12, variant: 0)
        let first = try box.generate()
        #expect(first.status == 0, "\(first)")
        let before = box.snapshot("Generated")
        let inodes = box.inodes("Generated")
        #expect(before.count == 25)

        // Every policy changes, and one of them breaks a rule, or is not UTF-8, or is not there.
        try box.writePolicies("Policies", count: 12, variant: 1)
        let breakers: [(String, Int32)] = [
            (Self.policy(name: "p7", variant: 1).replacingOccurrences(of: "timeout: 8s", with: "timeout: 2s"), 1),
            (Self.policy(name: "p7", variant: 1).replacingOccurrences(of: "description: ", with: "description: \u{FFFD}\u{1}"), 1),
            (Self.policy(name: "p0", variant: 1), 1),  // a second file with p0's name
        ]
        for (text, status) in breakers {
            try box.write(text, "Policies/p7.yaml")
            let run = try box.generate()
            #expect(run.status == status, "\(run)")
            #expect(run.errText.contains("nothing written"), "\(run)")
            #expect(box.snapshot("Generated") == before)
            #expect(box.inodes("Generated") == inodes, "not even rewritten with the same bytes")
        }
        try box.write(Self.policy(name: "p7", variant: 1), "Policies/p7.yaml")
        let missing = try box.generate("Policies", "Policies/none.yaml")
        #expect(missing.status == 2, "\(missing)")
        #expect(box.snapshot("Generated") == before)

        // Invalid UTF-8 bytes.
        try Data([0x70, 0x6F, 0x6C, 0x69, 0x63, 0x79, 0x3A, 0x20, 0xC3, 0x28, 0x0A]).write(to: URL(fileURLWithPath: box.path("Policies/zz.yaml")))
        let binary = try box.generate()
        #expect(binary.status == 1 && box.snapshot("Generated") == before, "\(binary)")
    }

    // MARK: killed at any moment

    /// Each round is one run of the debug binary (~0.1 s), so this is the slowest test here.
    static let killRounds = 120

    @Test func sigkillAtRandomMomentsNeverTearsAFile() throws {
        let box = try Sandbox()
        defer { box.remove() }
        // Old: p0…p2. New: every value changed, p2 gone, p3 added (writes, replaces and removes).
        try box.writePolicies("Old", count: 3, variant: 0)
        try box.writePolicies("New", count: 4, variant: 1, skip: [2])
        #expect(try box.generate("--out", "Generated", "Old").status == 0)
        let old = box.snapshot("Generated")
        try? FileManager.default.removeItem(atPath: box.path("Generated"))
        #expect(try box.generate("--out", "Generated", "New").status == 0)
        let new = box.snapshot("Generated")
        // Time a run as the rounds make it: old files in place, replaced (and flushed) by new ones,
        // which takes longer than writing into an empty folder.
        try box.restore("Generated", old)
        let start = DispatchTime.now()
        #expect(try box.generate("--out", "Generated", "New").status == 0)
        let duration = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
        #expect(old.count == 7 && new.count == 7 && Set(old.keys).intersection(new.keys).count == 5)

        var outcomes = (untouched: 0, between: 0, complete: 0, withTemporaries: 0)
        var generator = SystemRandomNumberGenerator()
        for round in 0..<Self.killRounds {
            try box.restore("Generated", old)
            // Spread over the whole run, start-up included, and a little past it; every other
            // round aims at the second half, where the writing happens.
            let delay = round % 2 == 0
                ? Double.random(in: 0...(duration * 1.3), using: &generator)
                : Double.random(in: (duration * 0.5)...(duration * 1.1), using: &generator)
            let run = try box.generate("--out", "Generated", "New", killAfter: delay)
            let after = box.snapshot("Generated")
            let temporaries = Self.temporaries(after)
            for (name, bytes) in after where !temporaries.contains(name) {
                #expect(bytes == old[name] || bytes == new[name], "round \(round): \(name) is neither old nor new (\(bytes.count) bytes)")
            }
            for name in Set(old.keys).intersection(new.keys) {
                #expect(after[name] != nil, "round \(round): \(name) is missing")
            }
            let kept = after.filter { !temporaries.contains($0.key) }
            if kept == old { outcomes.untouched += 1 } else if kept == new { outcomes.complete += 1 } else { outcomes.between += 1 }
            if !temporaries.isEmpty { outcomes.withTemporaries += 1 }
            #expect(run.signal == SIGKILL || run.status == 0, "round \(round): \(run)")

            if round % 20 == 19 {
                // The next run finishes the job and leaves no temporary file behind.
                let next = try box.generate("--out", "Generated", "New")
                #expect(next.status == 0, "\(next)")
                #expect(box.snapshot("Generated") == new)
            }
        }
        // The kills landed before, during and after the writing (what `between` counts is luck).
        #expect(outcomes.untouched > 0 && outcomes.complete > 0, "\(outcomes)")
        print("SIGKILL rounds: \(outcomes) (a run takes \(String(format: "%.3f", duration)) s)")

        // The next full run cleans up after every one of them.
        try box.restore("Generated", old)
        _ = try box.generate("--out", "Generated", "New", killAfter: duration / 2)
        let final = try box.generate("--out", "Generated", "New")
        #expect(final.status == 0)
        #expect(box.snapshot("Generated") == new)
    }

    // MARK: cannot write

    @Test func aReadOnlyOutputFolderIsExit2WithOldFilesIntact() throws {
        let box = try Sandbox()
        defer { box.remove() }
        try box.writePolicies("Policies", count: 3, variant: 0)
        #expect(try box.generate().status == 0)
        let before = box.snapshot("Generated")
        try box.writePolicies("Policies", count: 4, variant: 1)
        // Root ignores permission bits: run as nobody, who may read everything but write nothing.
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") else { return }
        let run = try box.generate(as: true)
        #expect(run.status == 2, "\(run)")
        #expect(run.errText.contains("Permission denied"), "\(run)")
        #expect(box.snapshot("Generated") == before)

        // A read-only mount (EROFS), where even root cannot write.
        let script = """
            mount --bind Generated Generated && mount -o remount,bind,ro Generated Generated || exit 99
            "$0" generate; echo $? > status
            """
        let mounted = try Child.run(["/usr/bin/unshare", "-m", "/bin/sh", "-c", script, try Child.policyc()], in: box.root)
        guard mounted.status != 99 else { return }  // no mount namespaces here: permissions above suffice
        let status = try String(contentsOfFile: box.path("status"), encoding: .utf8)
        #expect(status == "2\n", "\(mounted)")
        #expect(box.snapshot("Generated") == before)
    }

    @Test func aFullDiskIsExit2WithOldFilesIntactAndNoTemporaryLeft() throws {
        let box = try Sandbox()
        defer { box.remove() }
        try box.writePolicies("Policies", count: 3, variant: 0)
        #expect(try box.generate().status == 0)
        let before = box.snapshot("Generated")
        try FileManager.default.moveItem(atPath: box.path("Generated"), toPath: box.path("old"))
        try FileManager.default.createDirectory(atPath: box.path("Generated"), withIntermediateDirectories: false)
        // Longer descriptions: the new files need more room than the old.
        try box.writePolicies("Policies", count: 3, variant: 2)
        // A small tmpfs of our own, filled up, in a mount namespace of our own.
        let script = """
            mount -t tmpfs -o size=512k tmpfs Generated || exit 99
            cp -a old/. Generated/ && dd if=/dev/zero of=Generated/filler bs=4k 2>/dev/null
            "$0" generate 2> Generated.err; echo $? > status
            rm -f Generated/filler && mkdir after && cp -a Generated/. after/
            """
        let run = try Child.run(["/usr/bin/unshare", "-m", "/bin/sh", "-c", script, try Child.policyc()], in: box.root)
        guard run.status != 99 else { return }  // mounting is not permitted here
        let status = try String(contentsOfFile: box.path("status"), encoding: .utf8)
        let err = (try? String(contentsOfFile: box.path("Generated.err"), encoding: .utf8)) ?? ""
        #expect(status == "2\n", "\(run)\n\(err)")
        #expect(err.contains("No space left on device"), "\(err)")
        let after = box.snapshot("after")
        #expect(after == before, "\(Set(after.keys).symmetricDifference(before.keys))")
        #expect(Self.temporaries(after).isEmpty)
    }

    // MARK: two at once

    @Test func twoRunsAtOnceLeaveACorrectResult() throws {
        let box = try Sandbox()
        defer { box.remove() }
        try box.writePolicies("Old", count: 6, variant: 0)
        try box.writePolicies("New", count: 6, variant: 1)
        #expect(try box.generate("--out", "Expected", "New").status == 0)
        #expect(try box.generate("--out", "Generated", "Old").status == 0)
        let old = box.snapshot("Generated")
        let new = box.snapshot("Expected")
        for round in 0..<8 {
            try box.restore("Generated", old)
            let results = Results()
            DispatchQueue.concurrentPerform(iterations: 2) { i in
                results.set(i, try? box.generate("--out", "Generated", "New"))
            }
            for r in results.all { #expect(r?.status == 0, "round \(round): \(String(describing: r))") }
            #expect(box.snapshot("Generated") == new, "round \(round)")
        }
    }

    /// Outcomes of runs made on two threads.
    final class Results: @unchecked Sendable {
        private let lock = NSLock()
        private var items: [Child.Outcome?] = [nil, nil]

        func set(_ i: Int, _ outcome: Child.Outcome?) {
            lock.lock()
            items[i] = outcome
            lock.unlock()
        }

        var all: [Child.Outcome?] {
            lock.lock()
            defer { lock.unlock() }
            return items
        }
    }

    // MARK: links

    @Test func linksInsideTheOutputFolderAreNeverFollowed() throws {
        let box = try Sandbox()
        defer { box.remove() }
        try box.writePolicies("Policies", count: 2, variant: 0)
        #expect(try box.generate().status == 0)
        try box.writePolicies("Policies", count: 2, variant: 1)
        try box.write("precious\n", "outside/secret.txt")
        try FileManager.default.createDirectory(atPath: box.path("outside/dir"), withIntermediateDirectories: true)
        let fm = FileManager.default
        let swift = box.path("Generated/Swift/P0Policy.swift")
        let kotlin = box.path("Generated/Kotlin/P1Policy.kt")
        let schema = box.path("Generated/policy.schema.json")
        // A link where a changing file goes, one where an unchanged file goes, a hard link, a link
        // to a folder, and links named like a killed run's temporary files.
        try fm.removeItem(atPath: swift)
        try fm.createSymbolicLink(atPath: swift, withDestinationPath: box.path("outside/secret.txt"))
        try fm.removeItem(atPath: kotlin)
        try fm.linkItem(atPath: box.path("outside/secret.txt"), toPath: kotlin)
        try fm.removeItem(atPath: schema)
        try fm.createSymbolicLink(atPath: schema, withDestinationPath: "../outside/dir")
        // Named for processes that are not running (a live one's would be left to it).
        let dead = (90_000..<99_999).filter { kill(pid_t($0), 0) != 0 && errno == ESRCH }.prefix(2).map(String.init)
        try #require(dead.count == 2)
        try fm.createSymbolicLink(atPath: box.path("Generated/Swift/.P1Policy.swift.policyc-tmp-\(dead[0])-0"),
                                  withDestinationPath: box.path("outside/secret.txt"))
        try fm.createSymbolicLink(atPath: box.path("Generated/Kotlin/.P0Policy.kt.policyc-tmp-\(dead[1])-1"),
                                  withDestinationPath: box.path("outside/missing.txt"))

        // The hard link's file is not policyc's: refused, and untouched; --force replaces it.
        let refused = try box.generate()
        #expect(refused.status == 1, "\(refused)")
        let run = try box.generate("--force")
        #expect(run.status == 0, "\(run)")
        #expect(try String(contentsOfFile: box.path("outside/secret.txt"), encoding: .utf8) == "precious\n")
        #expect(!fm.fileExists(atPath: box.path("outside/missing.txt")))
        #expect(try fm.contentsOfDirectory(atPath: box.path("outside/dir")).isEmpty)
        for path in [swift, kotlin, schema] {
            var info = stat()
            #expect(lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG && info.st_nlink == 1, "\(path)")
        }
        let names = box.snapshot("Generated").keys.sorted()
        #expect(names == ["Kotlin/P0Policy.kt", "Kotlin/P1Policy.kt", "Swift/P0Policy.swift", "Swift/P1Policy.swift", "policy.schema.json"])
    }
}
