#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import PolicySource
import PolicyCheck
import PolicyWorkspace
import PolicyCodegen


/// The generated files' folder: what a run would change (`plan`) and changing it safely (`apply`).
/// Every file goes to a temporary file beside it and is renamed over the old one, and only when its
/// bytes differ, so build systems see new mtimes only on real changes. Symbolic links are never
/// followed: the folder and its Swift/Kotlin subfolders may not be links, and a link where a file
/// goes is replaced, not written through.
package enum OutputFolder {
    package typealias Failure = OutputPlan.Failure
    package typealias Plan = OutputPlan.Plan
    package typealias Entry = OutputPlan.Entry
    package typealias Kind = PathKind

    package static let tempMarker = ".policyc-tmp-"

    /// What writing `files` into `folder` would create, change and remove (`OutputPlan.plan`, on
    /// the disk). Stale files are looked for only in `stale` (`OutputLayout.staleFolders`).
    /// A file policyc did not write is replaced only with `force`.
    package static func plan(_ files: [GeneratedFile], in folder: String,
                             stale: [OutputPlan.StaleFolder], force: Bool = false) -> Result<Plan, Failure> {
        let wanted = files.map { OutputPlan.Wanted(path: $0.path, bytes: $0.bytes, isSettled: $0.isSettled) }
        return OutputPlan.plan(wanted, in: folder, stale: stale, isOurs: Generator.isGenerated,
                               mayReplace: force ? { _ in true } : Generator.wasWrittenByPolicyc, reader: DiskFolder())
    }

    /// The disk as `OutputPlan` reads it: never through a link.
    package struct DiskFolder: FolderReader {
        package func kind(of path: String) -> PathKind { OutputFolder.kind(of: path) }
        package func read(_ path: String) -> Result<[UInt8], Failure> { readNoFollow(path) }
        package func entries(_ folder: String) -> [(name: String, kind: PathKind?)] { OutputFolder.entries(folder) }
        package init() {}
    }

    /// Whether `path` is a regular file (not a link) of exactly `bytes`: what `plan` finds
    /// unchanged. Asked of each generated file as it is made (`Generator.files`' `settled`).
    package static func isOnDisk(_ bytes: [UInt8], at path: String) -> Bool {
        guard case .success(let old) = readNoFollow(path, regularOnly: true) else { return false }
        return OutputPlan.sameContents(old, bytes)
    }

    /// Carries out `plan`: first every new file to a temporary file, and only when all of them are
    /// written, the renames and removals; a failure (read-only or full folder) leaves old files intact.
    /// The files of each folder (Swift/, Kotlin/, the top) are written on a thread of their own:
    /// creating a file holds its folder's lock in the kernel, so one folder's files go one after
    /// the other, but the folders go side by side.
    package static func apply(_ plan: Plan, in folder: String) -> Result<Void, Failure> {
        if case .failure(let f) = makeFolders(folder, for: plan.entries.compactMap { entry in
            if case .remove = entry.change { return nil }
            return entry.path
        }) { return .failure(f) }
        removeStaleTemporaries(folder)
        let jobs = OutputPlan.writes(plan, in: folder, marker: tempMarker + "\(getpid())-")
        let entries = plan.entries
        // Per folder, in parallel: how many temporaries exist (to remove them on failure), and the
        // first failure.
        let outcomes = parallelMap(jobs.count) { g -> (written: Int, failure: Failure?) in
            for (i, job) in jobs[g].enumerated() {
                let entry = entries[job.entry]
                // Flushed to disk only when it replaces a file: a crash then must not leave a good
                // file empty. A new file needs no flush (a crash leaves it missing or short under
                // its temporary name, and the next run writes it again), and flushing each of
                // thousands of new files took seconds.
                var replaces = false
                if case .change = entry.change { replaces = true }
                if case .failure(let f) = writeNew(job.temp, entry.contents, flush: replaces) { return (i, f) }
            }
            return (jobs[g].count, nil)
        }
        if let failure = outcomes.lazy.compactMap(\.failure).first {
            for (g, job) in jobs.enumerated() { for t in job.prefix(outcomes[g].written) { unlink(t.temp) } }
            return .failure(failure)
        }
        for (g, job) in jobs.enumerated() {
            for (i, t) in job.enumerated() where rename(t.temp, t.final) != 0 {
                let failure = Failure(message: "cannot replace '\(printable(t.final))': \(Files.describeErrno())")
                // What is not renamed yet goes; what is renamed is whole, new and in place.
                for rest in job[i...] { unlink(rest.temp) }
                for later in jobs[(g + 1)...] { for rest in later { unlink(rest.temp) } }
                return .failure(failure)
            }
        }
        for entry in plan.entries {
            guard case .remove = entry.change else { continue }
            let path = folder + "/" + entry.path
            if unlink(path) != 0, errno != ENOENT {
                return .failure(Failure(message: "cannot remove '\(printable(path))': \(Files.describeErrno())"))
            }
            // Folders the removal emptied below the target's own (an old Kotlin package's): rmdir
            // removes only empty ones, and the first that is not empty ends it.
            for sub in OutputPlan.parents(of: entry.path).dropFirst().reversed() where rmdir(folder + "/" + sub) != 0 { break }
        }
        return .success(())
    }

    /// Writes `bytes` to `path` through a temporary file beside it and a rename: the file (a
    /// chart) is whole or not there, never half written. Nil, or what went wrong.
    package static func writeWhole(_ bytes: [UInt8], to path: String) -> String? {
        let temp = path + tempMarker + "\(getpid())"
        unlink(temp)
        if case .failure(let f) = writeNew(temp, bytes, flush: false) { return f.message }
        guard rename(temp, path) == 0 else {
            let message = "cannot write '\(printable(path))': \(Files.describeErrno())"
            unlink(temp)
            return message
        }
        return nil
    }

    /// Replaces one existing file with `bytes` as `apply` replaces a generated file: written to a
    /// temporary file beside it, flushed, then renamed over it, so it is always either old or new;
    /// only when the bytes differ (answers whether it wrote); the file keeps its mode. A symbolic
    /// link is written through to the file it names, which stays where it is (`lint --fix` on a
    /// linked policy changes the policy, not the link).
    package static func replaceFile(_ path: String, with bytes: [UInt8]) -> Result<Bool, Failure> {
        var target = path
        if kind(of: path) == .link {
            guard let resolved = realpath(path, nil) else {
                return .failure(Failure(message: "cannot write '\(printable(path))': \(Files.describeErrno())"))
            }
            target = String(cString: resolved)
            free(resolved)
        }
        var info = stat()
        guard lstat(target, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            return .failure(Failure(message: "cannot write '\(printable(path))': not a regular file"))
        }
        switch readNoFollow(target) {
        case .failure(let f): return .failure(f)
        case .success(let old): if OutputPlan.sameContents(old, bytes) { return .success(false) }
        }
        // Beside it: the folder with its slash (none for a file here), then `.<name>.policyc-tmp-…`.
        let slash = target.utf8.lastIndex(of: UInt8(ascii: "/"))
        let folder = slash.map { String(target[...$0]) } ?? ""
        let name = slash.map { String(target[target.utf8.index(after: $0)...]) } ?? target
        let temp = folder + "." + name + tempMarker + "\(getpid())-0"
        if case .failure(let f) = writeNew(temp, bytes, flush: true, mode: info.st_mode & 0o7777) {
            // Named by the file the user gave, not by the temporary one beside it.
            return .failure(Failure(message: f.message.replacingAll("'\(printable(temp))'", with: "'\(printable(path))'")))
        }
        guard rename(temp, target) == 0 else {
            let failure = Failure(message: "cannot replace '\(printable(path))': \(Files.describeErrno())")
            unlink(temp)
            return .failure(failure)
        }
        return .success(true)
    }

    // MARK: - helpers

    package static func kind(of path: String) -> Kind {
        var info = stat()
        guard lstat(path, &info) == 0 else { return .missing }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return .file
        case S_IFDIR: return .directory
        case S_IFLNK: return .link
        default: return .other
        }
    }

    /// The folder and the folders its files go in, made when missing (parents too); never a
    /// symbolic link.
    package static func makeFolders(_ folder: String, for paths: [String]) -> Result<Void, Failure> {
        var prefix = folder.hasPrefix("/") ? "/" : ""
        for part in folder.split(separator: "/") {
            prefix += (prefix.isEmpty || prefix.hasSuffix("/") ? "" : "/") + part
            if kind(of: prefix) == .missing, mkdir(prefix, 0o755) != 0, errno != EEXIST {
                return .failure(Failure(message: "cannot create folder '\(printable(prefix))': \(Files.describeErrno())"))
            }
        }
        guard kind(of: folder) == .directory else {
            return .failure(Failure(message: "output folder '\(printable(folder))' is not a folder (a symbolic link is refused)"))
        }
        var made: Set<String> = []
        for sub in paths.flatMap(OutputPlan.parents(of:)) where made.insert(sub).inserted {
            let path = folder + "/" + sub
            switch kind(of: path) {
            case .directory: continue
            case .missing:
                if mkdir(path, 0o755) != 0, errno != EEXIST {
                    return .failure(Failure(message: "cannot create folder '\(printable(path))': \(Files.describeErrno())"))
                }
                guard kind(of: path) == .directory else {
                    return .failure(Failure(message: "'\(printable(path))' is not a folder (a symbolic link is refused)"))
                }
            default:
                return .failure(Failure(message: "'\(printable(path))' is not a folder (a symbolic link is refused)"))
            }
        }
        return .success(())
    }

    /// Temporary files left by a run that was killed: `.<name>.policyc-tmp-<pid>-<n>`. Those of a
    /// process that is still running are another `generate` at work in the same folder: its
    /// renames would fail if they went.
    package static func removeStaleTemporaries(_ folder: String) {
        // The listing's kinds: a stat of every generated file cost more than the rest of this.
        for (name, listed) in entries(folder) {
            let path = folder + "/" + name
            let k = listed ?? kind(of: path)
            if name.hasPrefix(".") {
                if name.contains(tempMarker), !isLiveRun(name), k == .file || k == .link { unlink(path) }
            } else if k == .directory {
                // Every target's folder and its subfolders (a Kotlin package's folders, say).
                removeStaleTemporaries(path)
            }
        }
    }

    /// Whether the temporary file `name` belongs to a process that is running (not this one).
    package static func isLiveRun(_ name: String) -> Bool {
        guard let marker = name.firstRange(of: tempMarker) else { return false }
        let digits = name[marker.upperBound...].prefix { $0 >= "0" && $0 <= "9" }
        guard let pid = pid_t(digits), pid > 0, pid != getpid() else { return false }
        return kill(pid, 0) == 0 || errno == EPERM
    }

    /// `list`'s names, each with its kind as the folder's listing gives it (`d_type`), nil where
    /// it does not (then `kind(of:)` asks): looking up each of 6,000 generated files again to
    /// find the stale ones was a system call a file.
    package static func entries(_ dir: String) -> [(name: String, kind: Kind?)] {
        guard kind(of: dir) == .directory, let handle = opendir(dir) else { return [] }
        defer { closedir(handle) }
        var out: [(name: String, kind: Kind?)] = []
        while let entry = readdir(handle) {
            let name = withUnsafePointer(to: entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
            }
            guard name != "." && name != ".." else { continue }
            let kind: Kind?
            switch Int32(entry.pointee.d_type) {
            case Int32(DT_REG): kind = .file
            case Int32(DT_DIR): kind = .directory
            case Int32(DT_LNK): kind = .link
            case Int32(DT_UNKNOWN): kind = nil
            default: kind = .other
            }
            out.append((name, kind))
        }
        return out.sorted { utf8Precedes($0.name, $1.name) }
    }

    /// A regular file's bytes, refusing to follow a symbolic link; at most `limit` + 1 bytes, so a
    /// huge file in the way costs no huge allocation (it differs from anything policyc generates
    /// either way: generated files stay far below the limit, as inputs are at most 1 MiB).
    package static let readLimit = 1 << 24

    /// With `regularOnly`, anything but a regular file (a folder, a FIFO, which is opened without
    /// waiting for a writer) is a failure too: one `open` and `fstat` instead of an `lstat` first.
    package static func readNoFollow(_ path: String, regularOnly: Bool = false) -> Result<[UInt8], Failure> {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | (regularOnly ? O_NONBLOCK : 0))
        guard fd >= 0 else { return .failure(Failure(message: "cannot read '\(printable(path))': \(Files.describeErrno())")) }
        defer { close(fd) }
        // Sized by fstat, read straight into the result: zeroing a large buffer per file costs more
        // than reading the small generated files. The size is a hint; reading goes on to EOF.
        var info = stat()
        let known = fstat(fd, &info) == 0
        if regularOnly, !known || info.st_mode & S_IFMT != S_IFREG {
            return .failure(Failure(message: "cannot read '\(printable(path))': not a regular file"))
        }
        let hint = known && info.st_size > 0 ? min(Int(info.st_size), readLimit) : 0
        var out = [UInt8](repeating: 0, count: hint + 1)
        var count = 0
        while true {
            if count == out.count { out += [UInt8](repeating: 0, count: max(out.count, 4096)) }
            let n = out.withUnsafeMutableBytes { systemRead(fd, $0.baseAddress! + count, $0.count - count) }
            if n < 0 {
                if errno == EINTR { continue }
                return .failure(Failure(message: "cannot read '\(printable(path))': \(Files.describeErrno())"))
            }
            if n == 0 || count + n > readLimit {
                count += n
                out.removeLast(out.count - count)
                return .success(out)
            }
            count += n
        }
    }

    /// Writes a new file (never an existing one, never through a link), flushed to disk if `flush`;
    /// with `mode`, exactly that mode (the umask aside), as a file it replaces had.
    package static func writeNew(_ path: String, _ bytes: [UInt8], flush: Bool = true, mode: mode_t? = nil) -> Result<Void, Failure> {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return .failure(Failure(message: "cannot write '\(printable(path))': \(Files.describeErrno())")) }
        if let mode, fchmod(fd, mode) != 0 {
            let m = "cannot write '\(printable(path))': \(Files.describeErrno())"
            close(fd)
            unlink(path)
            return .failure(Failure(message: m))
        }
        var offset = 0
        var failed = false
        bytes.withUnsafeBytes { raw in
            while offset < raw.count {
                let n = systemWrite(fd, raw.baseAddress! + offset, raw.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    failed = true
                    return
                }
                offset += n
            }
        }
        let message = failed ? "cannot write '\(printable(path))': \(Files.describeErrno())" : nil
        if !failed, flush, fsync(fd) != 0, errno != EINVAL {
            let m = "cannot write '\(printable(path))': \(Files.describeErrno())"
            close(fd)
            unlink(path)
            return .failure(Failure(message: m))
        }
        if close(fd) != 0, !failed {
            let m = "cannot write '\(printable(path))': \(Files.describeErrno())"
            unlink(path)
            return .failure(Failure(message: m))
        }
        if let message {
            unlink(path)
            return .failure(Failure(message: message))
        }
        return .success(())
    }
}
