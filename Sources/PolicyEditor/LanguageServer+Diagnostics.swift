import PolicySource
import PolicyCheck
import PolicyReport
import PolicyCodegen
import PolicySimulation
import PolicyReview
import PolicyWorkspace

/// Files on disk and `textDocument/publishDiagnostics`, with the positions they carry.
extension LanguageServer {
    /// The absolute paths of the workspace folders, for the caller to read.
    public var folders: [String] { workspace.folders }

    /// Whether the workspace holds the file on disk at `path` (absolute).
    public func knowsDiskFile(_ path: String) -> Bool { workspace.disk[path] != nil }

    /// What the caller read from disk after `diskScanWanted`: each workspace folder's policy set
    /// (`PolicySet.of`, from its project file) and the roots of them that are missing, when read;
    /// the policy files under the roots that are new or changed, and the files that are gone.
    /// Findings across files are worked out again at the next publish.
    public mutating func diskFilesRead(sets: [String: PolicySet]? = nil, missing: Set<String> = [],
                                       changed: [(path: String, bytes: [UInt8])], removed: [String]) {
        diskScanWanted = false
        if let sets, sets != workspace.sets || missing != workspace.missingRoots {
            workspace.setPolicySets(sets, missing: missing)
            dirty = true
        }
        for file in changed { workspace.setDiskFile(path: file.path, bytes: file.bytes) }
        for path in removed { workspace.removeDiskFile(path: path) }
        if !changed.isEmpty || !removed.isEmpty { dirty = true }
    }

    // MARK: diagnostics

    /// `textDocument/publishDiagnostics` for each open document whose findings changed, or that
    /// was opened, changed or saved since the last call.
    public mutating func publishDiagnostics() -> [JSON] {
        guard hasPendingDiagnostics else { return [] }
        if dirty {
            current = workspace.diagnostics()
            dirty = false
        }
        var out: [JSON] = []
        for uri in current.keys.sorted(by: utf8Precedes) {
            guard let open = workspace.open[uri] else { continue }
            let diagnostics = JSON.array(current[uri]!.map { lsp($0, in: uri) })
            guard announce.contains(uri) || published[uri] != diagnostics else { continue }
            published[uri] = diagnostics
            out.append(Self.notification("textDocument/publishDiagnostics", .object([
                "uri": .string(uri),
                "version": .int(open.document.version),
                "diagnostics": diagnostics,
            ])))
        }
        announce.removeAll()
        return out
    }

    /// A finding as the protocol's `Diagnostic`; a rule of the catalog links to its page
    /// (`codeDescription`, which LSP 3.16 added: every client that cannot show it ignores it).
    func lsp(_ d: Diagnostic, in uri: String) -> JSON {
        guard let document = workspace.open[uri]?.document else { return .null }
        let lines = document.lines
        var range = lines.range(of: d.span, encoding)
        if range.end.line > range.start.line {
            // A finding at a whole mapping (a missing key at the root) is underlined on its first
            // line, not over the whole file.
            range.end = lines.position(at: lines.range(ofLine: range.start.line + 1)!.upperBound, encoding)
        }
        var message = d.message
        if let help = d.help { message += "\nhelp: " + help }
        // A waived finding is information, with the waiver that accepted it.
        if let accepted = d.acceptance { message += "\n" + accepted }
        var members: [String: JSON] = [
            "range": Self.json(range),
            "severity": .int(d.severity == .error ? 1 : d.severity == .warning ? 2 : 3),
            "code": .string(d.rule.rawValue),
            "source": .string("policyc"),
        ]
        if Catalog.rule(d.rule) != nil {
            members["codeDescription"] = .object(["href": .string(workspace.rulePages(for: document.path).url(for: d.rule))])
        }
        var related: [JSON] = []
        for r in d.related {
            guard let location = workspace.location(of: r, from: uri, encoding: encoding) else { continue }
            if client.relatedInformation {
                related.append(.object([
                    "location": .object(["uri": .string(location.uri ?? FileURI.uri(location.path)), "range": Self.json(location.range)]),
                    "message": .string(r.message),
                ]))
            } else {
                message += "\n\(r.message) (\(r.file):\(r.span.start.line):\(r.span.start.column))"
            }
        }
        if !related.isEmpty { members["relatedInformation"] = .array(related) }
        members["message"] = .string(message)
        return .object(members)
    }

    static func json(_ p: EditorPosition) -> JSON {
        .object(["line": .int(p.line), "character": .int(p.character)])
    }

    static func json(_ r: EditorRange) -> JSON {
        .object(["start": json(r.start), "end": json(r.end)])
    }

    static func position(_ json: JSON?) -> EditorPosition? {
        guard let line = json?["line"]?.intValue, let character = json?["character"]?.intValue else { return nil }
        return EditorPosition(line: line, character: character)
    }

    static func range(_ json: JSON?) -> EditorRange? {
        guard let start = position(json?["start"]), let end = position(json?["end"]) else { return nil }
        return EditorRange(start: start, end: end)
    }
}
