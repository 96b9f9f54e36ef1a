import PolicySource

/// One file after `load` and `decode + check`.
public struct CheckedFile: Sendable {
    /// The path as given on the command line, or `<stdin>`.
    public var path: String
    /// Every finding of the file, in report order.
    public var diagnostics: [Diagnostic]
    /// What the file said, typed (nil when it could not be read as YAML).
    public var doc: PolicyDoc?
    /// The complete policy, when the file has no errors. Made from `doc` on each use: lint never
    /// needs it, and making it for every file would be wasted work.
    public var policy: Policy? {
        get {
            switch policySource {
            case .given(let policy): return policy
            case .doc:
                var policy = doc?.complete(file: path)
                if let inheritance { policy?.parents = Array(inheritance.files.dropFirst()) }
                return policy
            }
        }
        set { policySource = .given(newValue) }
    }
    /// The file's bytes, kept only when there are findings (reporters quote the source line).
    public var source: [UInt8] = []
    /// The index of those bytes' lines, when the checker made it: the text report takes its
    /// lines from it rather than splitting the file again.
    public var lines: LineIndex?
    /// The files the policy extends and where each value of it was written; nil without `extends`.
    public var inheritance: Inheritance?

    enum PolicyOrigin: Sendable {
        case given(Policy?)
        /// `doc` is clean: complete it when asked.
        case doc
    }

    private var policySource: PolicyOrigin

    package init(path: String, diagnostics: [Diagnostic], doc: PolicyDoc?, policy: Policy?, source: [UInt8] = []) {
        self.path = path
        self.diagnostics = diagnostics
        self.doc = doc
        self.policySource = .given(policy)
        self.source = source
    }

    /// A file whose policy is `doc` completed when `clean`, and none otherwise. Each property set
    /// once: delegating to the other initializer and then changing the file copied it whole.
    init(path: String, diagnostics: [Diagnostic], doc: PolicyDoc?, clean: Bool, source: [UInt8]) {
        self.path = path
        self.diagnostics = diagnostics
        self.doc = doc
        self.policySource = clean ? .doc : .given(nil)
        self.source = source
    }

    public var errorCount: Int { diagnostics.count { $0.severity == .error } }
    public var warningCount: Int { diagnostics.count { $0.severity == .warning } }
}

/// What a check applies besides the language: the limits (the guide's edition, tightened by the
/// project) and, for waivers, today and how far ahead a waiver may expire.
public struct CheckOptions: Sendable {
    public var limits: Limits
    /// nil: the UTC date, read when a policy has waivers.
    public var today: Day?
    /// The most days ahead a waiver may expire (`waiverMaxDays` of the project file).
    public var waiverMaxDays: Int
    /// Findings accepted as they are (`lint --baseline FILE`): they become notes.
    public var baseline: Baseline?
    /// The languages generated from the policies (the project file's `targets`): a profile name
    /// is refused as a keyword only of a language that is generated. Every language by default.
    public var targets: Set<CodeTarget> = Set(CodeTarget.allCases)
    /// Where the files a policy `extends` are read from (none by default: every parent missing).
    public var parents: ParentReader = .none

    public static let defaultWaiverMaxDays = 180

    public init(limits: Limits = .guide, today: Day? = nil, waiverMaxDays: Int = CheckOptions.defaultWaiverMaxDays) {
        self.limits = limits
        self.today = today
        self.waiverMaxDays = waiverMaxDays
    }

    /// What the catalog's examples are checked with: the guide's limits, a fixed today.
    public static let example = CheckOptions(today: Day(year: 2027, month: 1, day: 15))
}

/// The pipeline's first two stages for one file, and the checks that span files.
public enum Checker {
    /// One file, on the calling thread (a command checks many files at once, see `POLICYC_THREADS`).
    public static func check(_ bytes: [UInt8], path: String, options: CheckOptions = CheckOptions()) -> CheckedFile {
        // What the decoder never looks into is kept with its kind and span only (see `Loader.load`).
        check(bytes, path: path, reading: .object(Language.root), options: options)
    }

    /// `check` with the loader's `reading` given (tests compare it with everything kept).
    static func check(_ bytes: [UInt8], path: String, reading: Shape?,
                      options: CheckOptions = CheckOptions()) -> CheckedFile {
        var loaded = Loader.load(bytes, reading: reading)
        var found = Found(diagnostics: loaded.diagnostics, suppressed: loaded.suppressed)
        // Only a policy that names parents pays for them: the merge, and placing its findings.
        var inheritance: Inheritance?
        if loaded.decodable, ParentChain.extends(loaded.root) {
            let effective = ParentChain.effective(loaded.root.take()!, path: path, bytes: bytes,
                                                  reader: options.parents, reading: reading)
            loaded.root = effective.root
            found.diagnostics += effective.diagnostics
            inheritance = effective.inheritance
        }
        if loaded.decodable {
            decodeAndCheck(loaded.root.take(), bytes: bytes, path: path, options: options, into: &found)
        }
        // The baseline applies last, to what the rules and waivers left (see `Baseline.apply`).
        options.baseline?.apply(&found.diagnostics, doc: found.doc, path: path)
        var diagnostics = reportable(found.diagnostics, suppressed: found.suppressed, path: path)
        inheritance?.relocate(&diagnostics)
        let clean = !diagnostics.contains { $0.severity == .error }
        var file = CheckedFile(path: path, diagnostics: diagnostics, doc: found.doc, clean: clean,
                               source: diagnostics.isEmpty ? [] : bytes)
        // Kept only when the file has findings, which quote lines from it.
        if !diagnostics.isEmpty { file.lines = found.lines }
        file.inheritance = inheritance
        return file
    }

    /// What checking a file found so far.
    private struct Found {
        var diagnostics: [Diagnostic]
        var suppressed: Int
        var doc: PolicyDoc?
        /// The index of the file's lines.
        var lines: LineIndex?
    }

    /// The decoder's findings and the rules' and waivers' on the document it read.
    private static func decodeAndCheck(_ tree: consuming Node?, bytes: [UInt8], path: String, options: CheckOptions,
                                       into found: inout Found) {
        var decoder = PolicyDecoder()
        decoder.policyName = CanonicalEntry.policyName(forFile: path)
        decoder.room = max(0, Loader.maxFindings - found.diagnostics.count)
        decoder.source = LineIndex(bytes)
        // The decoder holds the only tree while it decodes, so that it can let a long list's
        // items and a long mapping's profiles go once the report is full (see
        // `PolicyDecoder.decodeOwned`), and hands it back; the document is read the same way.
        var decoded = decoder.decodeRoot(tree, owned: true)
        var root = decoder.releaseTree()
        // Each tree is let go as soon as it is no longer needed, so a large file never holds
        // all three: the decoded one once the document is read from it, the node tree before
        // that when the findings already fill the file's report (the rules' fixes are written
        // from it, and past the cap no fix is made).
        if decoder.diagnostics.count + found.diagnostics.count >= Loader.maxFindings { root = nil }
        let doc = PolicyDoc(owning: decoded.take())
        found.doc = doc
        if let version = doc.version, version.value != Language.version {
            // Another version may mean other keys: saying more would only be noise.
            found.diagnostics += findings(of: Rule.unsupportedVersion, in: doc)
            return
        }
        // A base leaves required keys to its children (see `PolicyDoc.isAbstract`), and a parent
        // that could not be read may hold the keys missing: its finding is the one mistake.
        if doc.isAbstract || found.diagnostics.contains(where: { $0.rule == .extendsParent }) {
            decoder.diagnostics.removeAll { $0.rule == .missingKey }
        }
        found.diagnostics += decoder.diagnostics
        found.suppressed += decoder.suppressed
        var findings = Findings()
        findings.limits = options.limits
        findings.targets = options.targets
        findings.source = decoder.source
        findings.root = root.take()
        for diagnostic in found.diagnostics { _ = findings.reportEnd.admits(diagnostic.span.start) }
        // The rule with a room of its own collects in a copy, from the same start.
        var ownRoom = findings
        for rule in Catalog.rules where rule.id != ownRoomRule { check(rule, doc, &findings) }
        Catalog.rule(ownRoomRule).map { check($0, doc, &ownRoom) }
        found.diagnostics += findings.diagnostics + ownRoom.diagnostics
        found.suppressed += findings.skipped + ownRoom.skipped
        // Waivers apply to what the rules found, after them (see `WaiverPass`).
        if doc.waivers != nil {
            WaiverPass.apply(&found.diagnostics, doc: doc, options: options, editor: { findings.editor() })
        }
        found.lines = findings.source
    }

    /// The findings in report order, at most `Loader.maxFindings` of them, each naming `path`; when
    /// some were left out, a finding at the top says how many there were.
    private static func reportable(_ found: [Diagnostic], suppressed: Int, path: String) -> [Diagnostic] {
        var diagnostics = found
        var suppressed = suppressed
        diagnostics.sortForReport()
        if diagnostics.count > Loader.maxFindings {
            suppressed += diagnostics.count - Loader.maxFindings
            diagnostics.removeLast(diagnostics.count - Loader.maxFindings)
        }
        for i in diagnostics.indices {
            diagnostics[i].file = path
            for j in diagnostics[i].related.indices where diagnostics[i].related[j].file.isEmpty {
                diagnostics[i].related[j].file = path
            }
        }
        diagnostics.sortForReport()
        guard suppressed > 0 else { return diagnostics }
        // At the top of the file, so it reads first: what follows is not all there is. Put
        // where a stable sort would put it, after the findings that do not sort after it.
        let limit = Diagnostic(
            file: path, span: Span(.start), severity: .error, rule: .inputLimit,
            message: "the file has \(Loader.maxFindings + suppressed) findings; only the first \(Loader.maxFindings) are reported",
            help: "fix these and check again")
        diagnostics.insert(limit, at: diagnostics.firstIndex { Diagnostic.inReportOrder(limit, $0) } ?? diagnostics.endIndex)
        return diagnostics
    }

    /// The rule checked with a room of its own, after the others, from the same start: its
    /// findings (one per colliding name, possibly thousands) do not use up the room the others'
    /// fixes are made in (a fix is made only while the report has room), and the report keeps the
    /// earliest findings by their place in the file, whichever collector made them.
    static let ownRoomRule = RuleID.nameCollision

    static func check(_ rule: Rule, _ doc: PolicyDoc, _ findings: inout Findings) {
        guard let check = rule.check else { return }
        findings.rule = (rule.id, rule.severity)
        check(doc, &findings)
    }

    static func findings(of id: RuleID, in doc: PolicyDoc, limits: Limits = .guide) -> [Diagnostic] {
        Catalog.rule(id).map { findings(of: $0, in: doc, limits: limits) } ?? []
    }

    static func findings(of rule: Rule, in doc: PolicyDoc, limits: Limits = .guide) -> [Diagnostic] {
        guard let check = rule.check else { return [] }
        var findings = Findings()
        findings.limits = limits
        findings.rule = (rule.id, rule.severity)
        check(doc, &findings)
        return findings.diagnostics
    }

    /// Checks that need every file of a run: two files may not define one policy name, nor two
    /// names that become one generated type. Files are taken in the order given (sorted paths).
    public static func checkAcrossFiles(_ files: inout [CheckedFile]) {
        var seen: [ExactText: (file: String, name: Located<String>)] = [:]
        seen.reserveCapacity(files.count)
        for i in files.indices {
            // A base is no policy of its own: its name, if it has one, is its children's.
            guard let name = files[i].doc?.policy, files[i].doc?.isAbstract != true, Values.isName(name.value) else { continue }
            let type = Naming.typeName(policy: name.value)
            guard let first = seen[ExactText(type)] else {
                seen[ExactText(type)] = (files[i].path, name)
                continue
            }
            let message = sameText(first.name.value, name.value)
                ? "policy '\(name.value)' is also defined in \(first.file); each policy name belongs to one file"
                : "policy '\(name.value)' becomes the type \(type), as policy '\(first.name.value)' in \(first.file) does"
            files[i].diagnostics.append(Diagnostic(
                file: files[i].path, span: name.span, severity: .error, rule: RuleID.nameCollision,
                message: message, help: "rename one of the two policies",
                related: [.init(file: first.file, span: first.name.span, message: "'\(first.name.value)' is defined here")]))
            files[i].diagnostics.sortForReport()
            files[i].policy = nil
        }
    }
}
