#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import PolicySource

/// Another program run and read: `git` for `diff --base`, `gzip -dc` for `verify`'s .gz recordings.
package enum Subprocess {
    package struct Failure: Error {
        package var message: String
        /// The program is not on PATH.
        package var notFound = false
    }

    /// Runs `program ARGS` (looked up on PATH, no shell) with stdin from /dev/null; stdout is the result, stderr the message of a
    /// failure. With `limit`, stops reading stdout after that many bytes (and ignores the status,
    /// since git may then die of a closed pipe).
    package static func run(_ program: String, _ args: [String], limit: Int? = nil) -> Result<[UInt8], Failure> {
        var outPipe: [Int32] = [-1, -1], errPipe: [Int32] = [-1, -1]
        guard pipe(&outPipe) == 0 else { return .failure(Failure(message: "cannot run \(program): \(Files.describeErrno())")) }
        guard pipe(&errPipe) == 0 else {
            close(outPipe[0]); close(outPipe[1])
            return .failure(Failure(message: "cannot run \(program): \(Files.describeErrno())"))
        }
        // Close-on-exec, so the program gets only the ends that the file actions give it.
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

        let argv = [program] + args
        var cArgs: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
        defer { for p in cArgs { free(p) } }
        var pid: pid_t = 0
        let spawned = posix_spawnp(&pid, program, &actions, nil, &cArgs, environ)
        close(outPipe[1])
        close(errPipe[1])
        guard spawned == 0 else {
            close(outPipe[0]); close(errPipe[0])
            // The usual cause on a machine with only the policyc binary: say what is missing.
            if spawned == ENOENT { return .failure(Failure(message: "\(program) was not found on PATH", notFound: true)) }
            return .failure(Failure(message: "cannot run \(program): \(String(cString: strerror(spawned)))"))
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
        if message.isEmpty { message = "\(program) \(args.first ?? "") failed" }
        return .failure(Failure(message: printable(message)))
    }
}
