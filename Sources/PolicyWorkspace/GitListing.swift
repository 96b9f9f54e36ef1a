import PolicySource

/// The policy files of a git tree, read from `git ls-tree -r -l -z REF -- PATH…`: what a folder
/// walk of the same paths would take in a working tree (`PolicyPaths.isWanted`).
package enum GitListing {
    /// A policy file at the revision: its path (relative to the current directory) and blob id.
    package struct Entry: Sendable, Equatable {
        package var path: String
        package var object: String
        package var size: Int
    }

    /// The entries of `output` under `paths` (as given on the command line), sorted by path.
    /// Each record is "<mode> SP <type> SP <object> SP+ <size> TAB <path> NUL", paths unquoted;
    /// regular files only: a symbolic link's blob is its target, not a policy.
    package static func policies(in output: [UInt8], under paths: [String]) -> [Entry] {
        var entries: [Entry] = []
        let roots = paths.map(PolicyPaths.normalize)
        for record in output.split(separator: 0) {
            guard let tab = record.firstIndex(of: 0x09) else { continue }
            let fields = record[..<tab].split(separator: 0x20).map { String(decoding: $0, as: UTF8.self) }
            let path = String(decoding: record[record.index(after: tab)...], as: UTF8.self)
            guard fields.count == 4, fields[1] == "blob", ["100644", "100755"].contains(fields[0]),
                  PolicyPaths.isWanted(PolicyPaths.normalize(path), under: roots)
            else { continue }
            entries.append(Entry(path: path, object: fields[2], size: Int(fields[3]) ?? 0))
        }
        entries.sort { utf8Precedes($0.path, $1.path) }
        return entries
    }
}
