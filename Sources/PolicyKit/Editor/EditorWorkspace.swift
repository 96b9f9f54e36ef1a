/// The policies an editor works on: the open documents and the policy files on disk under the
/// workspace folders. Checks open documents as `lint` checks files, and the rules across files as
/// `lint` over the workspace folders would, with an open document's text taking the place of its
/// file on disk. Pure: the caller reads the disk and hands the bytes over.
public struct EditorWorkspace: Sendable {
    /// An open document and what its last check found.
    public struct Open: Sendable {
        public var document: EditorDocument
        /// Findings of the document alone (no rule across files), nil until it is checked.
        public var checked: CheckedFile?
        /// The typed policy of the last text that could be read as YAML: hover shows a profile's
        /// figures from it while the current text does not parse.
        public var lastGoodDoc: PolicyDoc?
        /// Where the document stands among the workspace's files (see `order`).
        var order: Order
    }

    /// A policy file on disk: only what the rules across files need, and where its name stands in
    /// the editor's terms (the file's text is not kept).
    public struct DiskFile: Sendable {
        public var path: String
        public var policyName: Located<String>?
        var nameRanges: [PositionEncoding: EditorRange]
        var order: Order
    }

    /// Files are ordered as `lint FOLDER1 FOLDER2 …` orders them: by workspace folder, then by
    /// path; files in no folder come last.
    struct Order: Comparable, Sendable {
        var folder: Int
        var key: String

        static func < (a: Order, b: Order) -> Bool {
            a.folder != b.folder ? a.folder < b.folder : utf8Precedes(a.key, b.key)
        }
    }

    /// Absolute paths of the workspace folders, in the order the editor gave them.
    public private(set) var folders: [String] = []
    public private(set) var open: [String: Open] = [:]
    /// By absolute path.
    public private(set) var disk: [String: DiskFile] = [:]

    public init(folders: [String] = []) {
        self.folders = folders.map(Self.trimmingSlash)
    }

    public mutating func setFolders(_ folders: [String]) {
        self.folders = folders.map(Self.trimmingSlash)
        for key in open.keys {
            let absolute = open[key]!.document.path
            open[key]!.order = order(of: absolute)
        }
        disk = disk.filter { isInFolder($0.key) }
        for key in disk.keys { disk[key]!.order = order(of: key) }
    }

    static func trimmingSlash(_ path: String) -> String {
        path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
    }

    // MARK: paths

    /// The folder a path is in, if any.
    func folderIndex(of absolute: String) -> Int? {
        folders.firstIndex { absolute.hasPrefix($0 == "/" ? "/" : $0 + "/") }
    }

    func isInFolder(_ absolute: String) -> Bool { folderIndex(of: absolute) != nil }

    func order(of absolute: String) -> Order {
        Order(folder: folderIndex(of: absolute) ?? folders.count, key: absolute)
    }

    /// What messages call a file: relative to its workspace folder, as `lint` run in that folder
    /// names it; absolute outside every folder.
    public func displayPath(of absolute: String) -> String {
        guard let index = folderIndex(of: absolute) else { return absolute }
        let folder = folders[index]
        return String(absolute.dropFirst(folder == "/" ? 1 : folder.count + 1))
    }

    // MARK: documents

    /// Opens (or reopens) a document; `path` is its absolute path, or its URI when it has none.
    public mutating func openDocument(uri: String, path: String, version: Int, text: [UInt8]) {
        let document = EditorDocument(uri: uri, path: path, version: version, text: text)
        open[uri] = Open(document: document, checked: nil, lastGoodDoc: nil, order: order(of: path))
    }

    public mutating func change(uri: String, version: Int, changes: [EditorDocument.Change], encoding: PositionEncoding) {
        guard open[uri] != nil else { return }
        open[uri]!.document.apply(changes, encoding: encoding)
        open[uri]!.document.version = version
        open[uri]!.checked = nil
    }

    public mutating func close(uri: String) {
        open[uri] = nil
    }

    /// Checks every open document whose text changed since its last check.
    public mutating func checkOpenDocuments() {
        for uri in open.keys where open[uri]!.checked == nil {
            let document = open[uri]!.document
            let checked = Checker.check(document.bytes, path: displayPath(of: document.path))
            open[uri]!.checked = checked
            if let doc = checked.doc { open[uri]!.lastGoodDoc = doc }
        }
    }

    // MARK: disk

    /// A policy file on disk, read by the caller (absolute path). Only its name is kept.
    public mutating func setDiskFile(path: String, bytes: [UInt8]) {
        let name = Checker.check(bytes, path: path).doc?.policy
        var ranges: [PositionEncoding: EditorRange] = [:]
        if let name {
            let lines = TextLines(bytes)
            ranges[.utf8] = lines.range(of: name.span, .utf8)
            ranges[.utf16] = lines.range(of: name.span, .utf16)
        }
        disk[path] = DiskFile(path: path, policyName: name, nameRanges: ranges, order: order(of: path))
    }

    public mutating func removeDiskFile(path: String) {
        disk[path] = nil
    }

    // MARK: findings

    /// A finding of another file, where the editor finds it.
    public struct Location: Sendable, Hashable {
        public var uri: String?
        /// The absolute path, when the file is not open.
        public var path: String
        public var range: EditorRange
    }

    /// Every open document's findings, its own and those across files, in report order. Checks
    /// what changed first.
    public mutating func diagnostics() -> [String: [Diagnostic]] {
        checkOpenDocuments()
        var result: [String: [Diagnostic]] = [:]
        for (uri, o) in open { result[uri] = o.checked?.diagnostics ?? [] }
        // Every file with a name, in lint's order, an open document in place of its file.
        var named: [(order: Order, uri: String?, file: CheckedFile)] = []
        var openPaths: Set<String> = []
        for (uri, o) in open {
            openPaths.insert(o.document.path)
            guard let name = o.checked?.doc?.policy else { continue }
            var doc = PolicyDoc()
            doc.policy = name
            named.append((o.order, uri, CheckedFile(path: displayPath(of: o.document.path), diagnostics: [], doc: doc, policy: nil)))
        }
        for (path, file) in disk where !openPaths.contains(path) {
            guard let name = file.policyName else { continue }
            var doc = PolicyDoc()
            doc.policy = name
            named.append((file.order, nil, CheckedFile(path: displayPath(of: path), diagnostics: [], doc: doc, policy: nil)))
        }
        guard named.count > 1 else { return result }
        named.sort { $0.order < $1.order }
        var files = named.map(\.file)
        Checker.checkAcrossFiles(&files)
        for (i, entry) in named.enumerated() {
            guard let uri = entry.uri, !files[i].diagnostics.isEmpty else { continue }
            result[uri, default: []] += files[i].diagnostics
            result[uri]!.sort(by: Diagnostic.inReportOrder)
        }
        return result
    }

    /// Where a finding's related position stands, for the file that `path` (a display path, as in
    /// `Diagnostic.Related.file`) names, seen from the document `uri`.
    public func location(of related: Diagnostic.Related, from uri: String, encoding: PositionEncoding) -> Location? {
        guard let from = open[uri] else { return nil }
        if related.file == displayPath(of: from.document.path) {
            return Location(uri: uri, path: from.document.path,
                            range: from.document.lines.range(of: related.span, encoding))
        }
        for (otherURI, o) in open where displayPath(of: o.document.path) == related.file {
            return Location(uri: otherURI, path: o.document.path, range: o.document.lines.range(of: related.span, encoding))
        }
        // A file on disk: only its name is ever related (a policy name shared across files).
        let candidates = disk.values.filter { displayPath(of: $0.path) == related.file }.sorted { $0.order < $1.order }
        guard let file = candidates.first, let range = file.nameRanges[encoding],
              file.policyName?.span == related.span else { return nil }
        return Location(uri: nil, path: file.path, range: range)
    }
}
