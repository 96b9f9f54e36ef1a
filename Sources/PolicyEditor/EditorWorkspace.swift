import PolicySource
import PolicyCheck
import PolicyReport
import PolicyCodegen
import PolicySimulation
import PolicyReview
import PolicyWorkspace

/// The files an editor works on: the open documents and the policy files on disk that `lint`
/// would check with them. Checks open documents as `lint` checks files (a scenario with the
/// scenario loader, a project file with its own reader), and the rules across files as `lint` run
/// in each workspace folder without a PATH would (see `PolicySet`), an open document's text taking
/// the place of its file on disk. Pure: the caller reads the disk and hands the bytes over.
public struct EditorWorkspace: Sendable {
    /// What open policies are checked with: today for their waivers (`POLICYC_TODAY`).
    public var checkOptions = CheckOptions()
    /// An open document and what its last check found.
    public struct Open: Sendable {
        public var document: EditorDocument
        /// What the text is, decided at each check (a policy being typed may become a scenario).
        public var kind: EditorFileKind
        /// Findings of the document alone (no rule across files), nil until it is checked.
        public var checked: CheckedFile?
        /// The typed policy of the last text that could be read as YAML: hover shows a profile's
        /// figures from it while the current text does not parse.
        public var lastGoodDoc: PolicyDoc?
    }

    /// A policy file on disk: only what the rules across files need, and where its name stands in
    /// the editor's terms (the file's text is not kept).
    public struct DiskFile: Sendable {
        public var path: String
        public var policyName: Located<String>?
        var nameRanges: [PositionEncoding: EditorRange]
    }

    /// Where a file stands among the files checked together: its group (a workspace folder's
    /// policy set, or the documents in no folder), then lint's order: the root of the set that
    /// holds it, then the path.
    struct FileOrder: Comparable, Sendable {
        var group: Int
        var root: Int
        var key: String

        static func < (a: FileOrder, b: FileOrder) -> Bool {
            if a.group != b.group { return a.group < b.group }
            if a.root != b.root { return a.root < b.root }
            return utf8Precedes(a.key, b.key)
        }
    }

    /// Absolute paths of the workspace folders, in the order the editor gave them.
    public private(set) var folders: [String] = []
    /// The policy set of each folder, once the caller has read the folder (see `setPolicySets`).
    public private(set) var sets: [String: PolicySet] = [:]
    /// The roots of the sets that the caller found missing on disk.
    public private(set) var missingRoots: Set<String> = []
    public private(set) var open: [String: Open] = [:]
    /// By absolute path.
    public private(set) var disk: [String: DiskFile] = [:]

    public init(folders: [String] = []) {
        self.folders = folders.map(PolicyPaths.trimmed)
    }

    public mutating func setFolders(_ folders: [String]) {
        self.folders = folders.map(PolicyPaths.trimmed)
        sets = sets.filter { self.folders.contains($0.key) }
        placesChanged()
    }

    /// The folders' sets and the roots found missing, as the caller read them.
    public mutating func setPolicySets(_ sets: [String: PolicySet], missing: Set<String>) {
        let kept = sets.filter { folders.contains($0.key) }
        let changed = kept != self.sets
        self.sets = kept
        missingRoots = missing
        if changed { placesChanged() }
        // The project files' own findings depend on what is missing.
        for key in open.keys where open[key]!.kind == .project { open[key]!.checked = nil }
    }

    /// Names in findings follow the sets: check open documents again, forget files of no set.
    mutating func placesChanged() {
        for key in open.keys { open[key]!.checked = nil }
        disk = disk.filter { order(of: $0.key) != nil }
    }

    // MARK: paths

    /// The folder a path is in, if any.
    func folderIndex(of absolute: String) -> Int? {
        folders.firstIndex { absolute.hasPrefix($0 == "/" ? "/" : $0 + "/") }
    }

    func set(of folder: Int) -> PolicySet {
        sets[folders[folder]] ?? PolicySet.unread(folder: folders[folder])
    }

    /// The rule book a file's findings link to: its workspace folder's project file's, else the default.
    func rulePages(for absolute: String) -> RulePages {
        folderIndex(of: absolute).map { set(of: $0).rulePages } ?? .standard
    }

    /// Where a file stands for the rules across files, and the name `lint` gives it there: in the
    /// set of the first folder whose set holds it (a set may reach outside its folder), else with
    /// the other files in no folder. Nil for a file in a workspace folder but in no set: it is
    /// checked alone, as `lint FILE` would.
    func order(of absolute: String) -> (order: FileOrder, name: String)? {
        for index in folders.indices {
            if let (root, name) = set(of: index).place(of: absolute) {
                return (FileOrder(group: index, root: root, key: absolute), name)
            }
        }
        guard folderIndex(of: absolute) == nil else { return nil }
        return (FileOrder(group: folders.count, root: 0, key: absolute), absolute)
    }

    /// What messages call a file: as `lint` run in its workspace folder names it (relative to
    /// the folder, or as the project file spells its `policies`); absolute outside every folder.
    public func displayPath(of absolute: String) -> String {
        if let (_, name) = order(of: absolute) { return name }
        guard let index = folderIndex(of: absolute) else { return absolute }
        let folder = folders[index]
        return String(absolute.dropFirst(folder == "/" ? 1 : folder.count + 1))
    }

    // MARK: documents

    /// Opens (or reopens) a document; `path` is its absolute path, or its URI when it has none.
    public mutating func openDocument(uri: String, path: String, version: Int, text: [UInt8]) {
        let document = EditorDocument(uri: uri, path: path, version: version, text: text)
        open[uri] = Open(document: document, kind: .policy, checked: nil, lastGoodDoc: nil)
        recheckChildren(of: path)
    }

    public mutating func change(uri: String, version: Int, changes: [EditorDocument.Change], encoding: PositionEncoding) {
        guard open[uri] != nil else { return }
        open[uri]!.document.apply(changes, encoding: encoding)
        open[uri]!.document.version = version
        open[uri]!.checked = nil
        recheckChildren(of: open[uri]!.document.path)
    }

    public mutating func close(uri: String) {
        let path = open[uri]?.document.path
        open[uri] = nil
        if let path { recheckChildren(of: path) }
    }

    /// Open policies that extend the file at `path` (absolute) are checked again: they read its
    /// open text, and their effective values may have changed with it.
    mutating func recheckChildren(of path: String) {
        for uri in open.keys {
            guard let checked = open[uri]!.checked, let inheritance = checked.inheritance else { continue }
            let document = open[uri]!.document
            if inheritance.files.dropFirst().contains(where: { absolute($0, besides: document) == path }) {
                open[uri]!.checked = nil
            }
        }
    }

    /// A path as the checker shows it for `document` (relative to its workspace folder), absolute.
    func absolute(_ shown: String, besides document: EditorDocument) -> String {
        guard !shown.hasPrefix("/") else { return shown }
        let own = displayPath(of: document.path)
        return (document.path.hasSuffix(own) ? String(document.path.dropLast(own.count)) : "") + shown
    }

    /// What a document is to the editor: its kind by its text (`EditorFileKind.of`), but a policy
    /// only where `lint` run in its workspace folder would check it (`order(of:)`: the project
    /// file's `policies`, else `Policies/`, else the folder's YAML outside hidden folders); any
    /// other YAML in a workspace folder (`.github/workflows/ci.yml`, `docker-compose.yaml`) is
    /// `.other`. Project files and scenarios are what they are wherever they stand; a file outside
    /// every workspace folder may be a policy, as `lint FILE` reads it.
    public func kind(of document: EditorDocument) -> EditorFileKind {
        let kind = EditorFileKind.of(path: document.path, lines: document.lines)
        guard kind == .policy, order(of: document.path) == nil else { return kind }
        return .other
    }

    /// Checks every open document whose text changed since its last check, each with the reader
    /// of its kind.
    public mutating func checkOpenDocuments() {
        for uri in open.keys where open[uri]!.checked == nil {
            let document = open[uri]!.document
            let kind = kind(of: document)
            let path = displayPath(of: document.path)
            var checked: CheckedFile
            switch kind {
            case .policy:
                checked = Checker.check(document.bytes, path: path, options: options(for: document))
                checked.diagnostics = EditorInheritance.placed(checked.diagnostics, of: checked)
                if let doc = checked.doc { open[uri]!.lastGoodDoc = doc }
            case .scenario:
                checked = CheckedFile(path: path, diagnostics: ScenarioLoader.load(document.bytes, path: path).diagnostics,
                                      doc: nil, policy: nil)
            case .project:
                checked = CheckedFile(path: path, diagnostics: projectFindings(document, path: path), doc: nil, policy: nil)
            case .other:
                checked = CheckedFile(path: path, diagnostics: [], doc: nil, policy: nil)
            }
            open[uri]!.kind = kind
            open[uri]!.checked = checked
        }
    }

    /// The check options for a document: parents named relative to its shown path are read
    /// from its folder (the checker sees the path as the workspace shows it).
    /// An open document's text is read rather than the file on disk, as the editor shows it.
    func options(for document: EditorDocument) -> CheckOptions {
        var options = checkOptions
        let shown = displayPath(of: document.path), reader = checkOptions.parents
        let folder = document.path.hasSuffix(shown) ? String(document.path.dropLast(shown.count)) : ""
        var opened: [String: [UInt8]] = [:]
        for o in open.values { opened[o.document.path] = o.document.bytes }
        let texts = opened
        options.parents = ParentReader { path in
            let file = path.hasPrefix("/") ? path : folder + path
            return texts[file].map { .success($0) } ?? reader.read(file)
        }
        return options
    }

    /// A project file's findings: its reader's, and for the project file of a workspace folder,
    /// each `policies` entry the last read of the disk did not find (`lint` would stop there).
    func projectFindings(_ document: EditorDocument, path: String) -> [Diagnostic] {
        let loaded = ProjectConfig.load(document.bytes, path: path)
        var diagnostics = loaded.diagnostics
        guard let index = folderIndex(of: document.path),
              case .projectFile(let name) = set(of: index).source,
              document.path == folders[index] + "/" + name else { return diagnostics }
        for entry in loaded.config.policies ?? [] where missingRoots.contains(PolicySet.absolute(entry.value, in: folders[index])) {
            diagnostics.append(Diagnostic(
                file: path, span: entry.span, severity: .error, rule: RuleID(rawValue: InputNotice.Kind.unreadable.rawValue),
                message: "'\(printable(entry.value))' is not a file or folder here; 'policyc' run in this folder stops at it",
                help: "name a policy file or folder, relative to this file's folder"))
        }
        diagnostics.sortForReport()
        return diagnostics
    }

    // MARK: disk

    /// A policy file on disk, read by the caller (absolute path). Only its name is kept; a file of
    /// no set, a scenario or a project file is not kept.
    public mutating func setDiskFile(path: String, bytes: [UInt8]) {
        guard order(of: path) != nil else {
            disk[path] = nil
            return
        }
        let lines = LineIndex(bytes)
        let name = EditorFileKind.of(path: path, lines: lines) == .policy ? Checker.check(bytes, path: path).doc?.policy : nil
        var ranges: [PositionEncoding: EditorRange] = [:]
        if let name {
            ranges[.utf8] = lines.range(of: name.span, .utf8)
            ranges[.utf16] = lines.range(of: name.span, .utf16)
        }
        disk[path] = DiskFile(path: path, policyName: name, nameRanges: ranges)
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
        // Every policy with a name, by group in lint's order, an open document in place of its file.
        var named: [(order: FileOrder, uri: String?, file: CheckedFile)] = []
        var openPaths: Set<String> = []
        for (uri, o) in open {
            openPaths.insert(o.document.path)
            guard o.kind == .policy, let name = o.checked?.doc?.policy, let (order, shown) = self.order(of: o.document.path) else { continue }
            var doc = PolicyDoc()
            doc.policy = name
            named.append((order, uri, CheckedFile(path: shown, diagnostics: [], doc: doc, policy: nil)))
        }
        for (path, file) in disk where !openPaths.contains(path) {
            guard let name = file.policyName, let (order, shown) = self.order(of: path) else { continue }
            var doc = PolicyDoc()
            doc.policy = name
            named.append((order, nil, CheckedFile(path: shown, diagnostics: [], doc: doc, policy: nil)))
        }
        named.sort { $0.order < $1.order }
        var start = 0
        while start < named.count {
            var end = start + 1
            while end < named.count && named[end].order.group == named[start].order.group { end += 1 }
            if end - start > 1 {
                var files = named[start..<end].map(\.file)
                Checker.checkAcrossFiles(&files)
                for (i, entry) in named[start..<end].enumerated() {
                    guard let uri = entry.uri, !files[i].diagnostics.isEmpty else { continue }
                    result[uri, default: []] += files[i].diagnostics
                    result[uri]!.sortForReport()
                }
            }
            start = end
        }
        return result
    }

    /// Where a finding's related position stands, for the file that `related.file` (a name as
    /// `displayPath` gives it) names, seen from the document `uri`: the document itself, or a
    /// file checked together with it.
    public func location(of related: Diagnostic.Related, from uri: String, encoding: PositionEncoding) -> Location? {
        guard let from = open[uri] else { return nil }
        if related.file == displayPath(of: from.document.path) {
            return Location(uri: uri, path: from.document.path,
                            range: from.document.lines.range(of: related.span, encoding))
        }
        guard let group = order(of: from.document.path)?.order.group else { return nil }
        func together(_ path: String) -> Bool {
            guard let (order, name) = self.order(of: path) else { return false }
            return order.group == group && name == related.file
        }
        for (otherURI, o) in open.sorted(by: { utf8Precedes($0.key, $1.key) }) where together(o.document.path) {
            return Location(uri: otherURI, path: o.document.path, range: o.document.lines.range(of: related.span, encoding))
        }
        // A file on disk: only its name is ever related (a policy name shared across files).
        guard let file = disk.values.filter({ together($0.path) }).min(by: { utf8Precedes($0.path, $1.path) }),
              let range = file.nameRanges[encoding], file.policyName?.span == related.span else { return nil }
        return Location(uri: nil, path: file.path, range: range)
    }
}
