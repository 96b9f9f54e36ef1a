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


/// Reading inputs: files, directories (every *.yaml / *.yml below, sorted; `PolicyFiles`) and `-`
/// for stdin.
package enum Files {
    package typealias ReadError = PolicyFiles.ReadError
    package typealias Expanded = PolicyFiles.Expanded

    package static let stdinPath = "<stdin>"

    /// The files policies `extends`, read as any input is (at most 1 MiB, and a folder refused).
    package static let parents = ParentReader { path in
        read(path).mapError { ParentReader.Failure($0.message) }
    }

    /// Expands PATH arguments to the policy files they name, in a stable order; fails on the
    /// first PATH that cannot be read. A link in a folder that names no file is a warning on
    /// standard error, as `lint` gives it: a policy must not drop out of a review unsaid.
    package static func expand(_ paths: [String], allowStdin: Bool) -> Result<[String], ReadError> {
        let expanded = expandAll(paths, allowStdin: allowStdin)
        if let first = expanded.errors.first { return .failure(first) }
        for link in expanded.skipped { Output.err("warning: \(link.message)\n") }
        return .success(expanded.paths)
    }

    /// Every PATH expanded that can be, and the problems of the others (`PolicyFiles.expand`).
    package static func expandAll(_ paths: [String], allowStdin: Bool) -> Expanded {
        PolicyFiles.expand(paths, allowStdin: allowStdin, tree: DiskTree())
    }

    package static func isRegularFile(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
    }

    /// Reads at most `limit` + 1 bytes: a larger input is known to be too large without holding it.
    package static func read(_ path: String, limit: Int = Loader.maxBytes) -> Result<[UInt8], ReadError> {
        let fd = path == "-" ? 0 : open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            return .failure(ReadError(path: path, message: "cannot read '\(printable(path))': \(describeErrno())"))
        }
        defer { if fd != 0 { close(fd) } }
        var info = stat()
        if fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR {
            return .failure(ReadError(path: path, message: "cannot read '\(printable(path))': it is a directory"))
        }
        let cap = limit + 1
        // Room for the whole file and one byte more (the read that finds its end); a pipe or an
        // empty file says no size, and the buffer grows as needed. A larger buffer than a small
        // policy needs would cost more than reading it.
        let size = info.st_size > 0 ? Int(info.st_size) + 1 : 4096
        var count = 0, ended = false
        var failed: Int32 = 0
        // Reads into `room` bytes at `at` until they are full, the input ends or a read fails.
        func fill(_ at: UnsafeMutableRawPointer, _ room: Int) -> Int {
            var got = 0
            while got < room {
                let n = systemRead(fd, at + got, room - got)
                if n < 0 {
                    if errno == EINTR { continue }
                    failed = errno
                    break
                }
                if n == 0 {
                    ended = true
                    break
                }
                got += n
            }
            return got
        }
        // Read straight into the array's room: zeroing it first is wasted work.
        var bytes = [UInt8](unsafeUninitializedCapacity: min(cap, size)) { buffer, initialized in
            count = fill(buffer.baseAddress!, buffer.count)
            initialized = count
        }
        // A pipe, or a file that grew since `fstat`: more room, zeroed, as it is needed.
        while failed == 0, !ended, count < cap {
            bytes += [UInt8](repeating: 0, count: min(cap, bytes.count * 2) - bytes.count)
            count += bytes.withUnsafeMutableBytes { fill($0.baseAddress! + count, $0.count - count) }
        }
        if failed != 0 {
            errno = failed
            return .failure(ReadError(path: path, message: "cannot read '\(printable(path))': \(describeErrno())"))
        }
        bytes.removeSubrange(count...)
        return .success(bytes)
    }

    package static func describeErrno() -> String {
        String(cString: strerror(errno))
    }
}

/// The disk as `PolicyFiles` walks it.
package struct DiskTree: FileTree {
    package func status(_ path: String) -> Result<(kind: PathKind, id: FileID), FileProblem> {
        var info = stat()
        guard stat(path, &info) == 0 else { return .failure(Self.problem()) }
        return .success((Self.kind(info), FileID(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))))
    }

    package func linkKind(_ path: String) -> Result<PathKind, FileProblem> {
        var info = stat()
        guard lstat(path, &info) == 0 else { return .failure(Self.problem()) }
        return .success(Self.kind(info))
    }

    package func names(in folder: String) -> Result<[String], FileProblem> {
        guard let handle = opendir(folder) else { return .failure(Self.problem()) }
        defer { closedir(handle) }
        var names: [String] = []
        while true {
            errno = 0
            guard let entry = readdir(handle) else { return errno == 0 ? .success(names) : .failure(Self.problem()) }
            let name = withUnsafePointer(to: entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
            }
            if name != "." && name != ".." { names.append(name) }
        }
    }

    /// What a symbolic link says, as written (at most 1 KiB of it).
    package func linkTarget(_ path: String) -> String {
        var buffer = [CChar](repeating: 0, count: 1024)
        let n = readlink(path, &buffer, buffer.count)
        guard n > 0 else { return "" }
        return String(decoding: buffer.prefix(n).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    package static func kind(_ info: stat) -> PathKind {
        switch info.st_mode & S_IFMT {
        case S_IFREG: return .file
        case S_IFDIR: return .directory
        case S_IFLNK: return .link
        default: return .other
        }
    }

    /// `errno` as the walk tells reasons apart.
    package static func problem() -> FileProblem {
        let reason: FileProblem.Reason
        switch errno {
        case ENOENT: reason = .noEntry
        case ENOTDIR: reason = .notFolder
        case ELOOP: reason = .loop
        default: reason = .other
        }
        return FileProblem(reason, Files.describeErrno())
    }
}

extension Files {
    /// `mkdir -p`: nil when the folder exists or was made, else why not.
    package static func makeDirectories(_ dir: String) -> String? {
        if Files.isDirectory(dir) { return nil }
        var prefix = dir.hasPrefix("/") ? "/" : ""
        for part in dir.split(separator: "/") {
            prefix += (prefix.isEmpty || prefix.hasSuffix("/") ? "" : "/") + part
            if Files.isDirectory(prefix) { continue }
            if mkdir(prefix, 0o755) != 0 && errno != EEXIST { return Files.describeErrno() }
            if !Files.isDirectory(prefix) { return "'\(printable(prefix))' is not a folder" }
        }
        return nil
    }

    package static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }
}
