#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import PolicyKit


/// Reading inputs: files, directories (every *.yaml / *.yml below, sorted) and `-` for stdin.
enum Files {
    struct ReadError: Error {
        var path: String
        var message: String
    }

    static let stdinPath = "<stdin>"

    /// Which file a path names, whatever the spelling (an array of the two cost an allocation a file).
    struct FileID: Hashable {
        var device: UInt64
        var inode: UInt64
    }

    /// Expands PATH arguments to the policy files they name, in a stable order; fails on the
    /// first PATH that cannot be read. A link in a folder that names no file is a warning on
    /// standard error, as `lint` gives it: a policy must not drop out of a review unsaid.
    static func expand(_ paths: [String], allowStdin: Bool) -> Result<[String], ReadError> {
        let expanded = expandAll(paths, allowStdin: allowStdin)
        if let first = expanded.errors.first { return .failure(first) }
        for link in expanded.skipped { Output.err("warning: \(link.message)\n") }
        return .success(expanded.paths)
    }

    /// Expands every PATH it can and reports the others, so that one bad PATH does not hide the
    /// findings of the rest. A file named twice (`Policies Policies/playback.yaml`) is read once.
    /// What PATH arguments expand to: the files, the PATHs that could not be read (exit 2), the
    /// folders without a policy file and the links in folders that name no file (warnings both).
    typealias Expanded = (paths: [String], errors: [ReadError], empty: [String], skipped: [ReadError])

    static func expandAll(_ paths: [String], allowStdin: Bool) -> Expanded {
        var out: [String] = []
        var errors: [ReadError] = []
        var empty: [String] = []
        var skipped: [ReadError] = []
        // By device and inode: `ok.yaml`, `./ok.yaml` and a link to it are one file.
        var seen: Set<FileID> = []
        var seenStdin = false
        func add(_ path: String) {
            var info = stat()
            guard stat(path, &info) == 0 else { return out.append(path) }  // reading it will say why
            if seen.insert(FileID(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))).inserted { out.append(path) }
        }
        for raw in paths {
            if raw == "-" {
                guard allowStdin else {
                    errors.append(ReadError(path: "-", message: "standard input ('-') is accepted by 'lint' only"))
                    continue
                }
                if !seenStdin { out.append("-") }
                seenStdin = true
                continue
            }
            let path = raw.count > 1 && raw.hasSuffix("/") ? String(raw.dropLast()) : raw
            var info = stat()
            guard stat(path, &info) == 0 else {
                errors.append(ReadError(path: raw, message: "cannot read '\(printable(raw))': \(describeErrno())"))
                continue
            }
            if (info.st_mode & S_IFMT) == S_IFDIR {
                var found: [String] = []
                let before = (errors.count, skipped.count)
                walk(path, into: &found, errors: &errors, skipped: &skipped)
                // A folder some of which could not be read is not known to be empty.
                if found.isEmpty, errors.count == before.0, skipped.count == before.1 { empty.append(raw) }
                found.sort(by: utf8Precedes)
                found.forEach(add)
            } else {
                add(path)
            }
        }
        return (out, errors, empty, skipped)
    }

    static func isPolicyFile(_ name: String) -> Bool {
        name.hasSuffix(".yaml") || name.hasSuffix(".yml")
    }

    /// Whether a folder walk takes the file `name` for a policy: a project file never is one
    /// (named outright, any file is read as a policy).
    static func isWalkedPolicyFile(_ name: String) -> Bool {
        isPolicyFile(name) && !ProjectConfig.fileNames.contains(name)
    }

    /// Depth-first; hidden folders (.git, .build) and symbolic links to folders are not entered.
    /// A folder that cannot be listed, or an entry that cannot be looked at, is an error like an
    /// unreadable file: a walk that skipped it would report a clean run, and `generate` would
    /// take the policies under it for gone and remove their generated files.
    /// A link named like a policy that leads nowhere (its target is missing, or links loop) is
    /// a warning in `skipped`: a policy that silently dropped out of the run would look clean.
    static func walk(_ dir: String, into found: inout [String], errors: inout [ReadError], skipped: inout [ReadError]) {
        guard let handle = opendir(dir) else {
            errors.append(ReadError(path: dir, message: "cannot read '\(printable(dir))': \(describeErrno())"))
            return
        }
        defer { closedir(handle) }
        while true {
            errno = 0
            guard let entry = readdir(handle) else {
                if errno != 0 {
                    errors.append(ReadError(path: dir, message: "cannot read '\(printable(dir))': \(describeErrno())"))
                }
                return
            }
            let name = withUnsafePointer(to: entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
            }
            if name == "." || name == ".." || name.hasPrefix(".") { continue }
            let path = dir == "." ? name : dir + "/" + name
            var info = stat()
            guard lstat(path, &info) == 0 else {
                // Gone since the folder was listed: nothing to read. Anything else hides a file.
                if errno != ENOENT {
                    errors.append(ReadError(path: path, message: "cannot read '\(printable(path))': \(describeErrno())"))
                }
                continue
            }
            let type = info.st_mode & S_IFMT
            if type == S_IFDIR {
                walk(path, into: &found, errors: &errors, skipped: &skipped)
            } else if isWalkedPolicyFile(name), type == S_IFREG || (type == S_IFLNK && isRegularFile(path)) {
                found.append(path)
            } else if isWalkedPolicyFile(name), type == S_IFLNK {
                var target = stat()
                guard stat(path, &target) != 0 else { continue }  // a link to a folder or a device: not a policy
                let why: String
                switch errno {
                case ENOENT, ENOTDIR: why = "its target '\(printable(linkTarget(path)))' does not exist"
                case ELOOP: why = "it loops"
                default:
                    errors.append(ReadError(path: path, message: "cannot read '\(printable(path))': \(describeErrno())"))
                    continue
                }
                skipped.append(ReadError(path: path, message: "skipped '\(printable(path))': a symbolic link that leads to no file (\(why))"))
            }
        }
    }

    /// What a symbolic link says, as written (at most 1 KiB of it).
    static func linkTarget(_ path: String) -> String {
        var buffer = [CChar](repeating: 0, count: 1024)
        let n = readlink(path, &buffer, buffer.count)
        guard n > 0 else { return "" }
        return String(decoding: buffer.prefix(n).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    static func isRegularFile(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
    }

    /// Reads at most `limit` + 1 bytes: a larger input is known to be too large without holding it.
    static func read(_ path: String, limit: Int = Loader.maxBytes) -> Result<[UInt8], ReadError> {
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

    static func describeErrno() -> String {
        String(cString: strerror(errno))
    }
}

extension Files {
    static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }
}
