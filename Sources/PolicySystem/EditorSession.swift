#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import PolicySource
import PolicyCheck
import PolicyWorkspace
import PolicyEditor

/// `policyc lsp`: the language server (`LanguageServer`, pure) on standard input and output,
/// with the disk read as the workspace folders change.
package enum EditorSession {
    /// Serves until `exit`; the exit status.
    package static func serve() -> Int32 {
        // A client that goes away closes the pipe: writing then fails, it must not kill us.
        signal(SIGPIPE, SIG_IGN)
        var reader = MessageReader(fd: 0)
        var writer = MessageWriter(fd: 1)
        var server = LanguageServer()
        // POLICYC_TODAY, as the other commands read it; a value that is not a date is left aside.
        if case .success(let today) = Project.today(given: nil) { server.judgeWaivers(on: today) }
        server.readParents(with: Files.parents)
        var disk = DiskScanner()
        var deferredSince: Double?

        while true {
            // The disk first when asked (a file opened or saved, new workspace folders), so that the
            // findings sent next know the other files.
            if server.diskScanWanted && !server.isShutDown && !reader.hasBuffered {
                disk.scan(into: &server)
            }
            // Findings go out once no message waits: a burst of changes is checked once, but
            // never held back for long.
            if server.hasPendingDiagnostics {
                let now = Clock.seconds()
                let busy = reader.hasBuffered || reader.waitForInput(milliseconds: 0)
                if !busy || now - (deferredSince ?? now) > 0.2 {
                    // The folders' policy sets first, when asked: they decide which YAML is a
                    // policy, and other YAML must not show findings even for a moment.
                    if server.diskScanWanted && !server.isShutDown { disk.scan(into: &server) }
                    for message in server.publishDiagnostics() { writer.send(message) }
                    deferredSince = nil
                } else if deferredSince == nil {
                    deferredSince = now
                }
            }
            if !reader.hasBuffered && !server.hasPendingDiagnostics {
                // Idle: look at the disk again now and then (a checkout, a file written by a tool).
                if !server.isShutDown && disk.isDue(for: server) {
                    disk.scan(into: &server)
                    continue
                }
                guard reader.waitForInput(milliseconds: Int32(DiskScanner.interval * 1000)) else { continue }
            }
            switch reader.next() {
            case .end:
                return server.isShutDown ? 0 : 1
            case .badHeader(let problem):
                writer.send(LanguageServer.error(id: .null, .parseError, "unreadable message: \(problem)"))
            case .tooLarge(let length):
                writer.send(LanguageServer.error(id: .null, .invalidRequest,
                    "a message of \(length) bytes is over the limit of \(MessageReader.maxBody) bytes; it was skipped"))
            case .message(let body):
                switch JSONParser.parse(body) {
                case .failure(let failure):
                    writer.send(LanguageServer.error(id: .null, .parseError, "the message is not JSON: \(failure)"))
                case .success(let message):
                    // A request sees (and comes after) the findings of every change before it,
                    // the disk read again first when a change asked for it (a saved project file).
                    if message["id"] != nil && message["method"] != nil {
                        if server.diskScanWanted && !server.isShutDown { disk.scan(into: &server) }
                        for finding in server.publishDiagnostics() { writer.send(finding) }
                        deferredSince = nil
                    }
                    for reply in server.receive(message) { writer.send(reply) }
                }
                if let code = server.exitCode { return code }
            }
            if writer.broken { return server.isShutDown ? 0 : 1 }
        }
    }
}

package enum Clock {
    /// Seconds on the monotonic clock.
    package static func seconds() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }
}

/// Reads, for each workspace folder, its project file and so its policy set (`PolicySet`: what
/// `policyc lint` run there checks), then the policy files of the sets for the rules across files,
/// and again only those whose size, time or inode changed. Bounded: a workspace folder may be a
/// home directory, so the walk stops after `maxEntries` directory entries or `maxFiles` policies.
package struct DiskScanner {
    package struct Stamp: Equatable {
        var size: Int
        var seconds: Int
        var nanoseconds: Int
        var inode: UInt64

        init(_ info: stat) {
            size = Int(info.st_size)
            seconds = Int(info.st_mtim.tv_sec)
            nanoseconds = Int(info.st_mtim.tv_nsec)
            inode = UInt64(info.st_ino)
        }
    }

    package static let interval = 3.0
    package static let maxEntries = 100_000
    package static let maxFiles = 5_000

    package var known: [String: Stamp] = [:]
    package var last: Double?

    /// How long the last scan took: a large workspace is looked at less often, so that idle
    /// scans never take more than a few percent of a core.
    package var lastDuration = 0.0

    package func isDue(for server: LanguageServer) -> Bool {
        guard !server.folders.isEmpty else { return false }
        return last.map { Clock.seconds() - $0 >= max(Self.interval, 30 * lastDuration) } ?? true
    }

    package mutating func scan(into server: inout LanguageServer) {
        let started = Clock.seconds()
        defer { lastDuration = Clock.seconds() - started }
        last = started
        var walked = PolicyFiles.Walked(entries: Self.maxEntries, files: Self.maxFiles)
        var sets: [String: PolicySet] = [:]
        var missing: Set<String> = []
        for folder in server.folders {
            let set = Self.policySet(of: folder)
            sets[folder] = set
            for root in set.roots {
                // A folder is walked, a file taken whatever its name (as `lint` takes a file it is
                // given), and one that is not there is missing.
                switch DiskTree().status(root.path) {
                case .failure: missing.insert(root.path)
                case .success((.directory, _)): PolicyFiles.walk(root.path, tree: DiskTree(), into: &walked)
                case .success((.file, _)) where walked.found.count < Self.maxFiles: walked.found.append(root.path)
                case .success: break
                }
            }
        }
        var found: [String: Stamp] = [:]
        for path in walked.found {
            var info = stat()
            if stat(path, &info) == 0 { found[path] = Stamp(info) }
        }
        var changed: [(path: String, bytes: [UInt8])] = []
        for (path, stamp) in found where known[path] != stamp || !server.knowsDiskFile(path) {
            if case .success(let bytes) = Files.read(path) {
                changed.append((path, bytes))
            }
        }
        let removed = known.keys.filter { found[$0] == nil }
        known = found
        server.diskFilesRead(sets: sets, missing: missing, changed: changed, removed: removed)
    }

    /// The folder's set, from its project file when it has one (`policyc.yaml` before
    /// `policyc.yml`, where `policyc` would refuse to choose) and whether `Policies/` is there.
    package static func policySet(of folder: String) -> PolicySet {
        func inFolder(_ name: String) -> String { PolicyPaths.join(folder, name) }
        var projectFile: (name: String, bytes: [UInt8])?
        for name in ProjectConfig.fileNames where Files.isRegularFile(inFolder(name)) {
            if case .success(let bytes) = Files.read(inFolder(name)) {
                projectFile = (name, bytes)
                break
            }
        }
        return PolicySet.of(folder: folder, projectFile: projectFile,
                            hasPoliciesFolder: Files.isDirectory(inFolder(PolicySet.defaultFolder)))
    }
}
