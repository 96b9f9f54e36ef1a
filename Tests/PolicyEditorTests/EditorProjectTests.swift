import Testing
@testable import PolicySource
@testable import PolicyCheck
@testable import PolicyReport
@testable import PolicyCodegen
@testable import PolicySimulation
@testable import PolicyReview
@testable import PolicyEditor
@testable import PolicyWorkspace
@testable import TestSupport

/// What the editor checks together and how it reads each YAML file: the policy set of a workspace
/// folder (as `lint` run there without a PATH), and policies, scenarios and project files told apart.
@Suite struct EditorProjectTests {
    static let folder = "/work/repo"

    static func set(_ project: String?, policies: Bool = true) -> PolicySet {
        PolicySet.of(folder: folder, projectFile: project.map { ("policyc.yaml", Array($0.utf8)) }, hasPoliciesFolder: policies)
    }

    // MARK: the set

    @Test func whichSet() {
        #expect(Self.set(nil).source == .policiesFolder)
        #expect(Self.set(nil).roots.map(\.path) == ["/work/repo/Policies"])
        #expect(Self.set(nil, policies: false).source == .wholeFolder)
        #expect(Self.set(nil, policies: false).roots.map(\.path) == ["/work/repo"])
        // A project file without `policies`: Policies/ beside it, whether or not it is there.
        let plain = Self.set("version: 1\ntargets: [swift]\n", policies: false)
        #expect(plain.source == .projectFile("policyc.yaml") && plain.roots.map(\.path) == ["/work/repo/Policies"])
        let listed = Self.set("version: 1\npolicies: [./defs/, ../shared/x.yaml, /abs/p, a/../b]\n")
        #expect(listed.roots.map(\.path) == ["/work/repo/defs", "/work/shared/x.yaml", "/abs/p", "/work/repo/b"])
        #expect(listed.roots.map(\.written) == ["./defs", "../shared/x.yaml", "/abs/p", "a/../b"])
        // A broken project file does not widen the set to the folder.
        #expect(Self.set("version: 1\npolicies: 3\n", policies: false).roots.map(\.path) == ["/work/repo/Policies"])
        #expect(Self.set("version: 2\npolicies: [x]\n").roots.map(\.path) == ["/work/repo/Policies"])
    }

    /// Names as `lint` run in the folder gives them, and only the files its walk takes.
    @Test func placesAndNames() throws {
        let listed = Self.set("version: 1\npolicies: [./defs/, extra/one.yml, .]\n")
        #expect(try #require(listed.place(of: "/work/repo/defs/a.yaml")) == (0, "./defs/a.yaml"))
        #expect(try #require(listed.place(of: "/work/repo/defs/sub/b.yml")) == (0, "./defs/sub/b.yml"))
        // A root that names a file takes it, whatever its name.
        #expect(try #require(listed.place(of: "/work/repo/extra/one.yml")) == (1, "extra/one.yml"))
        // `.`: lint names the files under it without `./`.
        #expect(try #require(listed.place(of: "/work/repo/other/c.yaml")) == (2, "other/c.yaml"))
        // Hidden folders, other extensions and project files are not walked.
        #expect(listed.place(of: "/work/repo/.git/x.yaml") == nil)
        #expect(listed.place(of: "/work/repo/defs/.hidden.yaml") == nil)
        #expect(listed.place(of: "/work/repo/defs/notes.txt") == nil)
        #expect(listed.place(of: "/work/repo/policyc.yaml") == nil)
        #expect(listed.place(of: "/elsewhere/a.yaml") == nil)
        #expect(Self.set(nil).place(of: "/work/repo/Policiesx/a.yaml") == nil)
    }

    // MARK: kinds

    @Test func kinds() {
        func kind(_ text: String, _ path: String = "/w/Policies/x.yaml") -> EditorFileKind {
            EditorFileKind.of(path: path, lines: LineIndex(text))
        }
        #expect(kind(Canonical.text) == .policy)
        #expect(kind("version: 1\nscenario: outage\nduration: 5m\n") == .scenario)
        // While typed, broken or without its name yet, a scenario stays one.
        #expect(kind("version: 1\nfleet:\n  clients: [1,\nserver: {") == .scenario)
        #expect(kind("# a scenario\n\"scenario\": x\n") == .scenario)
        // A key only policies have wins; nested keys do not count.
        #expect(kind("scenario: x\npolicy: y\n") == .policy)
        #expect(kind("retry:\n  server: 1\n  scenario: 2\n") == .policy)
        #expect(kind("") == .policy)
        #expect(kind("scenario: x\n", "/w/policyc.yaml") == .project)
        #expect(kind("", "/w/sub/policyc.yml") == .project)
        #expect(kind("", "/w/my-policyc.yaml") == .policy)
    }

    // MARK: the workspace

    static func workspace(project: String?, disk: [String: String]) -> EditorWorkspace {
        var w = EditorWorkspace(folders: [folder])
        w.setPolicySets([folder: set(project)], missing: [])
        for (path, text) in disk { w.setDiskFile(path: folder + "/" + path, bytes: Array(text.utf8)) }
        return w
    }

    static func codes(_ w: inout EditorWorkspace, _ uri: String) -> [RuleID] {
        w.diagnostics()[uri]?.map(\.rule) ?? []
    }

    /// Names are compared within the set only; a document outside it gets no findings; scenarios
    /// and project files never take part.
    @Test func namesAcrossTheSet() {
        let scenario = "version: 1\nscenario: outage\n"
        var w = Self.workspace(project: "version: 1\npolicies: [defs]\n",
                               disk: ["defs/a.yaml": Canonical.text, "Policies/b.yaml": Canonical.text, "defs/s.yaml": scenario])
        #expect(w.disk.keys.sorted() == ["/work/repo/defs/a.yaml", "/work/repo/defs/s.yaml"])
        let inside = "file:///work/repo/defs/z.yaml", outside = "file:///work/repo/Policies/c.yaml"
        w.openDocument(uri: inside, path: "/work/repo/defs/z.yaml", version: 1, text: Array(Canonical.text.utf8))
        w.openDocument(uri: outside, path: "/work/repo/Policies/c.yaml", version: 1, text: Array(Canonical.text.utf8))
        let found = w.diagnostics()
        #expect(found[inside]?.map(\.rule) == ["name-collision"])
        #expect(found[inside]?.first?.message.contains("defs/a.yaml") == true)
        #expect(found[outside] == [])
        // The related place is the file on disk.
        let related = found[inside]!.first!.related.first!
        #expect(w.location(of: related, from: inside, encoding: .utf16)?.path == "/work/repo/defs/a.yaml")
        // A scenario open in the set: its loader's findings, no policy's, no name.
        let s = "file:///work/repo/defs/s2.yaml"
        w.openDocument(uri: s, path: "/work/repo/defs/s2.yaml", version: 1, text: Array((scenario + "bogus: 1\n").utf8))
        #expect(Self.codes(&w, s).contains("unknown-key"))
        #expect(w.open[s]?.kind == .scenario)
        #expect(!w.diagnostics()[s]!.contains { $0.message.contains("policy") })
    }

    /// Only the project's policies, its project files and scenarios get findings: other YAML in a
    /// workspace folder (a CI workflow, a compose file) gets none, with a project file, with
    /// `Policies/` alone, and before the folder is read. Outside every folder a file is a policy.
    @Test func onlyTheProjectsYAMLGetsFindings() throws {
        let workflow = "name: CI\non: [push]\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - run: make\n"
        let compose = "version: \"3\"\nservices:\n  web:\n    image: nginx\n"
        let bad = Canonical.text.replacingFirst("maxRetries: 3", with: "maxRetries: 4")
        let scenario = "version: 1\nscenario: outage\nbogus: 1\n"
        for project in ["version: 1\npolicies: [Policies]\n", nil] {
            var w = Self.workspace(project: project, disk: [:])
            let docs = ["ci": ".github/workflows/ci.yml", "compose": "docker-compose.yaml", "deploy": "deploy/values.yaml",
                        "policy": "Policies/bad.yaml", "scenario": "sims/outage.yaml", "project": "policyc.yaml"]
            let texts = ["ci": workflow, "compose": compose, "deploy": bad, "policy": bad, "scenario": scenario,
                         "project": "version: 1\npolicies: [Policies]\nextra: 1\n"]
            for (name, path) in docs {
                w.openDocument(uri: "file:///work/repo/" + path, path: "/work/repo/" + path, version: 1, text: Array(texts[name]!.utf8))
            }
            let found = w.diagnostics()
            func rules(_ name: String) -> [RuleID] { found["file:///work/repo/" + docs[name]!]?.map(\.rule) ?? ["(none)"] }
            #expect(rules("ci") == [] && rules("compose") == [] && rules("deploy") == [], "\(String(describing: project))")
            #expect(w.open["file:///work/repo/.github/workflows/ci.yml"]?.kind == .other)
            #expect(rules("policy") == ["interactive-retries-max"])
            #expect(rules("scenario").contains("unknown-key"))
            #expect(rules("project") == ["unknown-key"])
        }
        // A folder with neither: lint would check every YAML file outside hidden folders, and so
        // does the editor (a compose file there reads as a policy); hidden folders never.
        var whole = EditorWorkspace(folders: [Self.folder])
        whole.setPolicySets([Self.folder: Self.set(nil, policies: false)], missing: [])
        for path in [".github/workflows/ci.yml", "docker-compose.yaml"] {
            whole.openDocument(uri: "file:///work/repo/" + path, path: "/work/repo/" + path, version: 1, text: Array("services: {}\n".utf8))
        }
        let found = whole.diagnostics()
        #expect(found["file:///work/repo/.github/workflows/ci.yml"] == [])
        #expect(found["file:///work/repo/docker-compose.yaml"]?.isEmpty == false)
        // Outside every workspace folder, a file may be anything: a policy, as `lint FILE` reads it.
        var w = Self.workspace(project: "version: 1\npolicies: [Policies]\n", disk: [:])
        w.openDocument(uri: "file:///tmp/x.yaml", path: "/tmp/x.yaml", version: 1, text: Array(bad.utf8))
        #expect(Self.codes(&w, "file:///tmp/x.yaml") == ["interactive-retries-max"])
    }

    /// The project file open: its reader's findings, and the `policies` entries the disk lacks.
    @Test func projectFileFindings() throws {
        var w = EditorWorkspace(folders: [Self.folder])
        let text = "version: 1\npolicies: [defs, nope]\nextra: 1\n"
        w.setPolicySets([Self.folder: Self.set(text)], missing: ["/work/repo/nope"])
        let uri = "file:///work/repo/policyc.yaml"
        w.openDocument(uri: uri, path: "/work/repo/policyc.yaml", version: 1, text: Array(text.utf8))
        let found = try #require(w.diagnostics()[uri])
        #expect(found.map(\.rule) == ["unreadable-input", "unknown-key"])
        #expect(found[0].span.start == Mark(line: 2, column: 18))
        #expect(w.open[uri]?.kind == .project)
        // A project file elsewhere (not the folder's): its reader's findings only.
        let nested = "file:///work/repo/sub/policyc.yaml"
        w.openDocument(uri: nested, path: "/work/repo/sub/policyc.yaml", version: 1, text: Array(text.utf8))
        #expect(w.diagnostics()[nested]?.map(\.rule) == ["unknown-key"])
    }
}
