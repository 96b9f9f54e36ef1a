import PolicySource

/// How the checker gets the parent files a policy `extends`: the command line reads them from
/// disk, tests and the catalog's examples give their texts. The checker itself reads no file.
public struct ParentReader: Sendable {
    /// The file's bytes, or one sentence saying why they cannot be had
    /// ("cannot read 'Policies/base.yaml': No such file or directory").
    public var read: @Sendable (String) -> Result<[UInt8], Failure>

    public struct Failure: Error, Sendable {
        public var message: String

        public init(_ message: String) {
            self.message = message
        }
    }

    public init(_ read: @escaping @Sendable (String) -> Result<[UInt8], Failure>) {
        self.read = read
    }

    /// Reads nothing: every parent is missing.
    public static let none = ParentReader { path in
        .failure(Failure("cannot read '\(printable(path))': no such file"))
    }

    /// Files by path, as given: the parents of tests and examples.
    public static func texts(_ files: [String: String]) -> ParentReader {
        ParentReader { path in
            files[path].map { .success(Array($0.utf8)) } ?? none.read(path)
        }
    }
}

/// Paths as `extends` names them: relative to the file that names them, joined and tidied
/// lexically (`Policies/./base.yaml` and `Policies/apps/../base.yaml` are `Policies/base.yaml`),
/// so that findings name a parent as the user would, and a cycle is seen whatever the spelling.
enum ParentPath {
    /// `path` as seen from the folder of `file` (the working folder for standard input).
    static func resolve(_ path: String, from file: String) -> String {
        if path.hasPrefix("/") { return tidy(path) }
        let folder = file.hasPrefix("<") ? "" : directory(of: file)
        return tidy(folder.isEmpty ? path : folder + "/" + path)
    }

    static func directory(of file: String) -> String {
        guard let slash = file.lastIndex(of: "/") else { return "" }
        return slash == file.startIndex ? "/" : String(file[..<slash])
    }

    /// Removes `.` and empty parts, and a `..` after a named part; keeps a leading `..`.
    static func tidy(_ path: String) -> String {
        let absolute = path.hasPrefix("/")
        var parts: [Substring] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: true) where part != "." {
            if part == "..", let last = parts.last, last != ".." {
                parts.removeLast()
            } else if part == "..", absolute, parts.isEmpty {
                continue
            } else {
                parts.append(part)
            }
        }
        let joined = parts.joined(separator: "/")
        return absolute ? "/" + joined : joined
    }
}
