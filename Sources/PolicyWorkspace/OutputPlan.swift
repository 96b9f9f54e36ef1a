#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import PolicySource

/// What a path is, as `lstat` tells it: a symbolic link is a link, never what it names.
package enum PathKind: Sendable, Equatable {
    case missing, file, directory, link, other
}

/// The output folder as a plan reads it: the command line reads the disk (never through a link),
/// tests hand over a dictionary. Paths are the folder joined with a relative path by `/`.
package protocol FolderReader {
    func kind(of path: String) -> PathKind
    /// A regular file's bytes, a link refused.
    func read(_ path: String) -> Result<[UInt8], OutputPlan.Failure>
    /// A folder's names (no `.` or `..`), sorted by UTF-8, each with its kind when the listing
    /// tells it (nil: ask `kind(of:)`); empty for what is not a folder.
    func entries(_ folder: String) -> [(name: String, kind: PathKind?)]
}

/// What writing generated files into a folder would create, change and remove, and which files
/// there policyc owns: only files with its header are ever removed, and stale files are looked
/// for only in the folders of the targets generated.
package enum OutputPlan {
    package struct Failure: Error, Equatable {
        package var message: String
        /// A file policyc did not write stands where one goes (`mayReplace` refused it).
        package var isForeignFile = false
        /// The file in the way, for a foreign file.
        package var path: String?
        package init(message: String, isForeignFile: Bool = false, path: String? = nil) {
            self.message = message
            self.isForeignFile = isForeignFile
            self.path = path
        }
    }

    package enum Change: Equatable {
        case create
        /// `old` is nil when the old entry was not a readable regular file (a symbolic link, say).
        case change(old: [UInt8]?)
        case remove(old: [UInt8])
    }

    package struct Entry: Equatable {
        /// Relative to the folder: `Swift/PlaybackPolicy.swift`.
        package var path: String
        package var change: Change
        package var contents: [UInt8]
    }

    package struct Plan: Equatable {
        package var entries: [Entry] = []
        package var unchanged = 0
        package init() {}
    }

    /// A file to write: its path relative to the folder, its bytes, and whether it was found up to
    /// date on disk as it was made (then its bytes are gone, and it counts as unchanged).
    package struct Wanted: Sendable {
        package var path: String
        package var bytes: [UInt8]
        package var isSettled: Bool
        package init(path: String, bytes: [UInt8], isSettled: Bool = false) {
            self.path = path
            self.bytes = bytes
            self.isSettled = isSettled
        }
    }

    /// A folder of one target's files and their extension: where its stale files are looked for.
    package struct StaleFolder: Sendable, Hashable {
        package var name: String
        package var fileExtension: String
        package init(name: String, fileExtension: String) {
            self.name = name
            self.fileExtension = fileExtension
        }
    }

    /// The plan for `files` in `folder`. Reads only, through `reader`. Stale files (in `stale`,
    /// for which `isOurs` holds of their bytes, and not among `files`) are removed. A file whose
    /// bytes change is replaced only when `mayReplace` holds of its old bytes (policyc wrote it),
    /// else the plan fails naming it.
    package static func plan(_ files: [Wanted], in folder: String, stale: [StaleFolder],
                             isOurs: ([UInt8]) -> Bool, mayReplace: ([UInt8]) -> Bool = { _ in true },
                             reader: some FolderReader) -> Result<Plan, Failure> {
        var plan = Plan()
        switch reader.kind(of: folder) {
        case .missing:
            // A file found in the folder while it was made, and now no folder: it went meanwhile.
            guard !files.contains(where: \.isSettled) else {
                return .failure(Failure(message: "output folder '\(printable(folder))' went away while policyc ran; run it again"))
            }
            plan.entries = files.map { Entry(path: $0.path, change: .create, contents: $0.bytes) }
            return .success(plan)
        case .link:
            return .failure(Failure(message: "output folder '\(printable(folder))' is a symbolic link; policyc does not write through links"))
        case .other, .file:
            return .failure(Failure(message: "output folder '\(printable(folder))' exists and is not a folder"))
        case .directory:
            break
        }
        if let failure = checkFolders(of: files, in: folder, stale: stale, reader: reader) { return .failure(failure) }
        for file in files {
            switch compare(file, in: folder, mayReplace: mayReplace, reader: reader) {
            case .failure(let f): return .failure(f)
            case .success(nil): plan.unchanged += 1
            case .success(let entry?): plan.entries.append(entry)
            }
        }
        let wanted = Set(files.map(\.path))
        // Generated files of policies that are gone: only those that carry policyc's header, in
        // the folders (and their subfolders) of the targets generated.
        for folderOfTarget in stale {
            for rel in filesBelow(folder, folderOfTarget.name, reader: reader) where rel.hasSuffix(folderOfTarget.fileExtension) {
                guard !wanted.contains(rel), reader.kind(of: folder + "/" + rel) == .file,
                      case .success(let old) = reader.read(folder + "/" + rel), isOurs(old)
                else { continue }
                plan.entries.append(Entry(path: rel, change: .remove(old: old), contents: []))
            }
        }
        plan.entries.sort { utf8Precedes($0.path, $1.path) }
        return .success(plan)
    }

    /// Every folder a file goes in, and every folder searched for stale files: none may be a link
    /// (it would be written through) or something else in the way.
    static func checkFolders(of files: [Wanted], in folder: String, stale: [StaleFolder], reader: some FolderReader) -> Failure? {
        var folders = Set(stale.map(\.name).filter { !$0.isEmpty })
        // Thousands of files share a few folders: each folder's parents are made once.
        var seen: Set<Substring> = []
        for file in files {
            guard let slash = file.path.utf8.lastIndex(of: UInt8(ascii: "/")),
                  seen.insert(file.path[..<slash]).inserted else { continue }
            folders.formUnion(parents(of: file.path))
        }
        for sub in folders.sorted(by: utf8Precedes) {
            switch reader.kind(of: folder + "/" + sub) {
            case .link:
                return Failure(message: "'\(printable(folder))/\(printable(sub))' is a symbolic link; policyc does not write through links")
            case .file, .other:
                return Failure(message: "'\(printable(folder))/\(printable(sub))' exists and is not a folder")
            case .missing, .directory:
                break
            }
        }
        return nil
    }

    /// One file against what is where it goes: nil when it is there already.
    static func compare(_ file: Wanted, in folder: String, mayReplace: ([UInt8]) -> Bool = { _ in true },
                        reader: some FolderReader) -> Result<Entry?, Failure> {
        if file.isSettled { return .success(nil) }
        let path = folder + "/" + file.path
        switch reader.kind(of: path) {
        case .missing:
            return .success(Entry(path: file.path, change: .create, contents: file.bytes))
        case .directory, .other:
            return .failure(Failure(message: "'\(printable(path))' is in the way: it is not a regular file"))
        case .link:
            return .success(Entry(path: file.path, change: .change(old: nil), contents: file.bytes))
        case .file:
            return reader.read(path).flatMap { old in
                if sameContents(old, file.bytes) { return .success(nil) }
                guard mayReplace(old) else {
                    return .failure(Failure(message: "'\(printable(path))' was not written by policyc (it has no policyc header); "
                                            + "move it away, or pass --force to replace it", isForeignFile: true, path: path))
                }
                return .success(Entry(path: file.path, change: .change(old: old), contents: file.bytes))
            }
        }
    }

    /// Whether a file's old bytes are its new ones, by `memcmp`: `==` on two arrays compares them
    /// a byte at a time, a large share of `generate` when every file is up to date (the everyday
    /// build step).
    package static func sameContents(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        return a.withUnsafeBufferPointer { x in
            b.withUnsafeBufferPointer { y in x.isEmpty || memcmp(x.baseAddress!, y.baseAddress!, x.count) == 0 }
        }
    }

    /// `Kotlin/com/example/A.kt` → `Kotlin`, `Kotlin/com`, `Kotlin/com/example`.
    package static func parents(of path: String) -> [String] {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false).dropLast()
        return parts.indices.map { parts[...$0].joined(separator: "/") }
    }

    /// The regular files and links below `folder/sub` (`folder` itself for a `sub` of ""), by path
    /// relative to `folder`, sorted; hidden names (temporary files) left out, links to folders not entered.
    static func filesBelow(_ folder: String, _ sub: String, reader: some FolderReader) -> [String] {
        var out: [String] = []
        // "" is the folder itself (a folder a language: its files straight in it).
        for (name, listed) in reader.entries(sub.isEmpty ? folder : folder + "/" + sub) where !name.hasPrefix(".") {
            let rel = sub.isEmpty ? name : sub + "/" + name
            switch listed ?? reader.kind(of: folder + "/" + rel) {
            case .directory: out += filesBelow(folder, rel, reader: reader)
            case .file, .link: out.append(rel)
            case .missing, .other: continue
            }
        }
        return out
    }

    /// A file to write: the temporary file beside it first, renamed to `final` once every file is
    /// written; `entry` is its index in the plan.
    package struct Write: Equatable {
        package var temp: String
        package var final: String
        package var entry: Int
    }

    /// The files of `plan` to write into `folder`, grouped by the folder each goes in (folders in
    /// UTF-8 order, plan order within each): one folder's files go one after the other, since
    /// creating a file holds its folder's lock, while folders may go side by side. A temporary
    /// file is `.<name><marker><n>`, hidden, `n` the entry's index.
    package static func writes(_ plan: Plan, in folder: String, marker: String) -> [[Write]] {
        var groups: [String: [Write]] = [:]
        for (n, entry) in plan.entries.enumerated() {
            if case .remove = entry.change { continue }
            let final = folder + "/" + entry.path
            // On the bytes: splitting by Character cost more than writing the file. `final` always
            // has a slash, the one after `folder`.
            let slash = final.utf8.lastIndex(of: UInt8(ascii: "/"))!
            let dir = String(final[..<slash])
            let temp = dir + "/." + final[final.utf8.index(after: slash)...] + marker + "\(n)"
            groups[dir, default: []].append(Write(temp: temp, final: final, entry: n))
        }
        return groups.keys.sorted(by: utf8Precedes).map { groups[$0]! }
    }
}
