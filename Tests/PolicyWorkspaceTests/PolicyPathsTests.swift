import Testing
@testable import PolicySource
@testable import PolicyWorkspace

/// A file tree in memory: paths to kinds, links to targets, folders listed in the order given.
struct MemoryTree: FileTree {
    var kinds: [String: PathKind] = [:]
    var links: [String: String] = [:]
    var order: [String] = []
    var unlistable: Set<String> = []

    init(_ entries: [String], links: [String: String] = [:]) {
        for entry in entries {
            let path = entry.hasSuffix("/") ? String(entry.dropLast()) : entry
            kinds[path] = entry.hasSuffix("/") ? .directory : .file
            order.append(path)
            for parent in OutputPlan.parents(of: path) where kinds[parent] == nil {
                kinds[parent] = .directory
                order.append(parent)
            }
        }
        for (link, target) in links {
            kinds[link] = .link
            self.links[link] = target
            order.append(link)
        }
    }

    func resolve(_ path: String, depth: Int = 0) -> Result<String, FileProblem> {
        guard depth < 8 else { return .failure(FileProblem(.loop, "Too many levels of symbolic links")) }
        guard let kind = kinds[path] else { return .failure(FileProblem(.noEntry, "No such file or directory")) }
        guard kind == .link, let target = links[path] else { return .success(path) }
        return resolve(target, depth: depth + 1)
    }

    func status(_ path: String) -> Result<(kind: PathKind, id: FileID), FileProblem> {
        resolve(path).map { real in (kinds[real]!, FileID(device: 1, inode: UInt64(order.firstIndex(of: real) ?? 0))) }
    }

    func linkKind(_ path: String) -> Result<PathKind, FileProblem> {
        kinds[path].map { .success($0) } ?? .failure(FileProblem(.noEntry, "No such file or directory"))
    }

    func names(in folder: String) -> Result<[String], FileProblem> {
        if unlistable.contains(folder) { return .failure(FileProblem(.other, "Permission denied")) }
        let prefix = folder == "." ? "" : folder + "/"
        return .success(order.filter { $0.hasPrefix(prefix) && !$0.dropFirst(prefix.count).contains("/") }
            .map { String($0.dropFirst(prefix.count)) })
    }

    func linkTarget(_ path: String) -> String { links[path] ?? "" }
}

@Suite struct PolicyPathsTests {
    @Test func whichNamesAPolicyWalkTakes() {
        #expect(PolicyPaths.isWalkedPolicyFile("a.yaml") && PolicyPaths.isWalkedPolicyFile("a.yml"))
        #expect(!PolicyPaths.isWalkedPolicyFile("policyc.yaml") && !PolicyPaths.isWalkedPolicyFile("a.json"))
        #expect(PolicyPaths.isPolicyFile("policyc.yaml"))
        #expect(PolicyPaths.isWalked(relative: "team/a.yaml"))
        #expect(!PolicyPaths.isWalked(relative: ".hidden/a.yaml") && !PolicyPaths.isWalked(relative: "a//b.yaml"))
    }

    @Test func wantedUnderRoots() {
        // A root named outright is taken whatever its name; under a folder root, the walk's rules.
        #expect(PolicyPaths.isWanted("notes.txt", under: ["notes.txt"]))
        #expect(PolicyPaths.isWanted("Policies/a.yaml", under: ["Policies"]))
        #expect(!PolicyPaths.isWanted("Policies2/a.yaml", under: ["Policies"]))
        #expect(!PolicyPaths.isWanted("Policies/.git/a.yaml", under: ["Policies"]))
        #expect(!PolicyPaths.isWanted("Policies/policyc.yaml", under: ["Policies"]))
        #expect(PolicyPaths.isWanted("a/b.yml", under: [""]))
        #expect(PolicyPaths.isWanted("/x/a.yaml", under: ["/"]))
    }

    @Test func spellings() {
        #expect(PolicyPaths.normalize("./a//b/./c/") == "a/b/c" && PolicyPaths.normalize(".") == "")
        #expect(PolicyPaths.absolute("../x/./y", in: "/w/r") == "/w/x/y" && PolicyPaths.absolute("/a/../..", in: "/w") == "/")
        #expect(PolicyPaths.trimmed("Policies/") == "Policies" && PolicyPaths.trimmed("/") == "/")
        #expect(PolicyPaths.join(".", "a") == "a" && PolicyPaths.join("/", "a") == "/a" && PolicyPaths.join("p", "a") == "p/a")
        #expect(PolicyPaths.folder(of: "a/b.yaml") == "a" && PolicyPaths.folder(of: "/b") == "/" && PolicyPaths.folder(of: "b") == "")
    }

    @Test func gitListingTakesWhatAWalkWould() {
        func record(_ mode: String, _ type: String, _ path: String) -> [UInt8] {
            Array("\(mode) \(type) 0123abcd     42\t\(path)".utf8) + [0]
        }
        let output = record("100644", "blob", "Policies/b.yaml") + record("100644", "blob", "Policies/a.yml")
            + record("120000", "blob", "Policies/link.yaml") + record("100644", "blob", "Policies/.x/c.yaml")
            + record("100755", "blob", "Policies/readme.md") + record("100644", "blob", "other/d.yaml")
            + record("100644", "blob", "named.txt")
        let entries = GitListing.policies(in: output, under: ["./Policies/", "named.txt"])
        #expect(entries.map(\.path) == ["Policies/a.yml", "Policies/b.yaml", "named.txt"])
        #expect(entries.first == GitListing.Entry(path: "Policies/a.yml", object: "0123abcd", size: 42))
    }
}

@Suite struct PolicyFilesTests {
    static let tree = MemoryTree(["P/b.yaml", "P/a.yml", "P/policyc.yaml", "P/notes.md", "P/.git/x.yaml", "P/team/c.yaml",
                                  "empty/", "one.txt"],
                                 links: ["P/ok.yaml": "one.txt", "P/gone.yaml": "nowhere", "P/loop.yaml": "P/loop.yaml", "P/dir.yaml": "empty"])

    @Test func foldersAreWalkedSortedAndFilesTakenAsNamed() {
        let expanded = PolicyFiles.expand(["P/", "one.txt", "P/a.yml"], allowStdin: false, tree: Self.tree)
        // `P/ok.yaml` links to `one.txt`: one file, taken once.
        #expect(expanded.paths == ["P/a.yml", "P/b.yaml", "P/ok.yaml", "P/team/c.yaml"])
        #expect(expanded.errors.isEmpty && expanded.empty.isEmpty)
        #expect(expanded.skipped.map(\.message) == [
            "skipped 'P/gone.yaml': a symbolic link that leads to no file (its target 'nowhere' does not exist)",
            "skipped 'P/loop.yaml': a symbolic link that leads to no file (it loops)",
        ])
    }

    @Test func problemsAreReportedNotDropped() {
        var tree = Self.tree
        tree.unlistable = ["P/team"]
        let expanded = PolicyFiles.expand(["missing", "empty", "-", "P"], allowStdin: false, tree: tree)
        #expect(expanded.errors.map(\.message) == [
            "cannot read 'missing': No such file or directory",
            "standard input ('-') is accepted by 'lint' only",
            "cannot read 'P/team': Permission denied",
        ])
        #expect(expanded.empty == ["empty"])
        #expect(PolicyFiles.expand(["-", "-"], allowStdin: true, tree: tree).paths == ["-"])
    }

    @Test func aWalkStopsWhenItsBudgetIsSpent() {
        var walked = PolicyFiles.Walked(entries: .max, files: 2)
        PolicyFiles.walk("P", tree: Self.tree, into: &walked)
        #expect(walked.found.count == 2)
        var few = PolicyFiles.Walked(entries: 3)   // names in order: .git (hidden), a.yml, b.yaml
        PolicyFiles.walk("P", tree: Self.tree, into: &few)
        #expect(few.found == ["P/a.yml"])
    }
}
