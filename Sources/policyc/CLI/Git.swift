#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import PolicyKit


/// Reading policy files as they were at a git revision, by running `git` (posix_spawn, no shell,
/// no Foundation). Paths are relative to the current directory on both sides.
enum Git {
    struct Failure: Error {
        var message: String
    }

    typealias Entry = GitListing.Entry

    /// Every policy file under `paths` at `ref`, as `Files.expand` would find them in a working
    /// tree (`GitListing`).
    static func list(ref: String, paths: [String]) -> Result<[Entry], Failure> {
        run(["ls-tree", "-r", "-l", "-z", ref, "--"] + paths).map { GitListing.policies(in: $0, under: paths) }
    }

    /// Kept for the callers in Diff.swift: the rules are `PolicyPaths`'.
    static func isWanted(_ path: String, under roots: [String]) -> Bool { PolicyPaths.isWanted(path, under: roots) }
    static func normalize(_ path: String) -> String { PolicyPaths.normalize(path) }

    /// A blob's bytes, at most `limit` + 1 of them (more only tells that it is too large).
    static func blob(_ object: String, limit: Int = Loader.maxBytes) -> Result<[UInt8], Failure> {
        run(["cat-file", "blob", object], limit: limit + 1)
    }

    /// The commit `ref` names (its full id), so that a typo is a clear error rather than "no files".
    static func verify(ref: String) -> Result<String, Failure> {
        run(["rev-parse", "--verify", "--quiet", "--end-of-options", ref + "^{commit}"])
            .map { String(decoding: $0, as: UTF8.self).filter { !$0.isWhitespace } }
            .mapError { f in
                // Quiet rev-parse says nothing about a bad ref, but does say "not a git repository".
                f.message.hasPrefix("git rev-parse") ? Failure(message: "'\(printable(ref))' is not a commit in this git repository") : f
            }
    }

    /// The best common ancestor of two commits, as `git diff A...B` compares from.
    static func mergeBase(_ a: String, _ b: String) -> Result<String, Failure> {
        run(["merge-base", "--end-of-options", a, b]).map { String(decoding: $0, as: UTF8.self).filter { !$0.isWhitespace } }
    }

    /// The bytes of the file at `path` (relative to the current directory) at `commit`; nil when
    /// the commit has no regular file there.
    static func file(at commit: String, path: String) -> Result<[UInt8]?, Failure> {
        run(["ls-tree", "-z", commit, "--", path]).flatMap { listing in
            let fields = listing.split(separator: 0).first.map { $0.split(separator: 0x09).first ?? [] }?.split(separator: 0x20) ?? []
            guard fields.count == 3, fields[1].elementsEqual("blob".utf8) else { return .success(nil) }
            return blob(String(decoding: fields[2], as: UTF8.self)).map { $0 }
        }
    }

    /// The files policies `extends`, read as they are at `commit`.
    static func parents(at commit: String) -> ParentReader {
        ParentReader { path in
            switch file(at: commit, path: path) {
            case .success(let bytes?): return .success(bytes)
            case .success(nil): return .failure(ParentReader.Failure("cannot read '\(printable(path))': no such file at \(printable(commit))"))
            case .failure(let f): return .failure(ParentReader.Failure(f.message))
            }
        }
    }

    /// Runs `git ARGS` with stdin from /dev/null; stdout is the result, stderr the message of a
    /// failure. With `limit`, stops reading stdout after that many bytes (and ignores the status,
    /// since git may then die of a closed pipe).
    static func run(_ args: [String], limit: Int? = nil) -> Result<[UInt8], Failure> {
        var outPipe: [Int32] = [-1, -1], errPipe: [Int32] = [-1, -1]
        guard pipe(&outPipe) == 0 else { return .failure(Failure(message: "cannot run git: \(Files.describeErrno())")) }
        guard pipe(&errPipe) == 0 else {
            close(outPipe[0]); close(outPipe[1])
            return .failure(Failure(message: "cannot run git: \(Files.describeErrno())"))
        }
        // Close-on-exec, so git gets only the ends that the file actions give it.
        for fd in outPipe + errPipe { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        #if canImport(Darwin)
        var actions: posix_spawn_file_actions_t? = nil
        #else
        var actions = posix_spawn_file_actions_t()
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2)

        let argv = ["git"] + args
        var cArgs: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
        defer { for p in cArgs { free(p) } }
        var pid: pid_t = 0
        let spawned = posix_spawnp(&pid, "git", &actions, nil, &cArgs, environ)
        close(outPipe[1])
        close(errPipe[1])
        guard spawned == 0 else {
            close(outPipe[0]); close(errPipe[0])
            // The usual cause on a machine with only the policyc binary: say what is missing.
            if spawned == ENOENT { return .failure(Failure(message: "git was not found on PATH; diff --base needs git")) }
            return .failure(Failure(message: "cannot run git: \(String(cString: strerror(spawned)))"))
        }

        var out: [UInt8] = [], err: [UInt8] = []
        var truncated = false
        var fds = [pollfd(fd: outPipe[0], events: Int16(POLLIN), revents: 0),
                   pollfd(fd: errPipe[0], events: Int16(POLLIN), revents: 0)]
        var buffer = [UInt8](repeating: 0, count: 65536)
        while fds.contains(where: { $0.fd >= 0 }) {
            if poll(&fds, nfds_t(fds.count), -1) < 0 {
                if errno == EINTR { continue }
                break
            }
            for i in fds.indices where fds[i].fd >= 0 && fds[i].revents != 0 {
                let n = buffer.withUnsafeMutableBytes { systemRead(fds[i].fd, $0.baseAddress!, $0.count) }
                if n < 0 && errno == EINTR { continue }
                if n <= 0 {
                    close(fds[i].fd)
                    fds[i].fd = -1
                    continue
                }
                if i == 0 {
                    out += buffer[0..<n]
                    if let limit, out.count >= limit {
                        out.removeSubrange(limit...)
                        truncated = true
                        close(fds[i].fd)
                        fds[i].fd = -1
                    }
                } else if err.count < 65536 {
                    err += buffer[0..<n]
                }
            }
        }
        for fd in fds where fd.fd >= 0 { close(fd.fd) }

        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let exitedCleanly = (status & 0x7F) == 0 && ((status >> 8) & 0xFF) == 0
        if exitedCleanly || truncated { return .success(out) }
        var message = String(decoding: err, as: UTF8.self)
        while message.last?.isNewline == true { message.removeLast() }
        if message.isEmpty { message = "git \(args.first ?? "") failed" }
        return .failure(Failure(message: printable(message)))
    }
}

extension Files {
    static func exists(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0
    }
}
