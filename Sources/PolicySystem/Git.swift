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


/// Reading policy files as they were at a git revision, by running `git` (posix_spawn, no shell,
/// no Foundation). Paths are relative to the current directory on both sides.
package enum Git {
    package struct Failure: Error {
        package var message: String
    }

    package typealias Entry = GitListing.Entry

    /// Every policy file under `paths` at `ref`, as `Files.expand` would find them in a working
    /// tree (`GitListing`).
    package static func list(ref: String, paths: [String]) -> Result<[Entry], Failure> {
        run(["ls-tree", "-r", "-l", "-z", ref, "--"] + paths).map { GitListing.policies(in: $0, under: paths) }
    }

    /// Kept for the callers in Diff.swift: the rules are `PolicyPaths`'.
    package static func isWanted(_ path: String, under roots: [String]) -> Bool { PolicyPaths.isWanted(path, under: roots) }
    package static func normalize(_ path: String) -> String { PolicyPaths.normalize(path) }

    /// A blob's bytes, at most `limit` + 1 of them (more only tells that it is too large).
    package static func blob(_ object: String, limit: Int = Loader.maxBytes) -> Result<[UInt8], Failure> {
        run(["cat-file", "blob", object], limit: limit + 1)
    }

    /// The commit `ref` names (its full id), so that a typo is a clear error rather than "no files".
    package static func verify(ref: String) -> Result<String, Failure> {
        run(["rev-parse", "--verify", "--quiet", "--end-of-options", ref + "^{commit}"])
            .map { String(decoding: $0, as: UTF8.self).filter { !$0.isWhitespace } }
            .mapError { f in
                // Quiet rev-parse says nothing about a bad ref, but does say "not a git repository".
                f.message.hasPrefix("git rev-parse") ? Failure(message: "'\(printable(ref))' is not a commit in this git repository") : f
            }
    }

    /// The best common ancestor of two commits, as `git diff A...B` compares from.
    package static func mergeBase(_ a: String, _ b: String) -> Result<String, Failure> {
        run(["merge-base", "--end-of-options", a, b]).map { String(decoding: $0, as: UTF8.self).filter { !$0.isWhitespace } }
    }

    /// The bytes of the file at `path` (relative to the current directory) at `commit`; nil when
    /// the commit has no regular file there.
    package static func file(at commit: String, path: String) -> Result<[UInt8]?, Failure> {
        run(["ls-tree", "-z", commit, "--", path]).flatMap { listing in
            let fields = listing.split(separator: 0).first.map { $0.split(separator: 0x09).first ?? [] }?.split(separator: 0x20) ?? []
            guard fields.count == 3, fields[1].elementsEqual("blob".utf8) else { return .success(nil) }
            return blob(String(decoding: fields[2], as: UTF8.self)).map { $0 }
        }
    }

    /// Runs `git ARGS` (`Subprocess.run`).
    package static func run(_ args: [String], limit: Int? = nil) -> Result<[UInt8], Failure> {
        Subprocess.run("git", args, limit: limit).mapError { f in
            // The usual cause on a machine with only the policyc binary: say what needs it.
            f.notFound ? Failure(message: "git was not found on PATH; diff --base needs git") : Failure(message: f.message)
        }
    }
}

extension Files {
    package static func exists(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0
    }
}
