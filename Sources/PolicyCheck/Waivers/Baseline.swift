import PolicySource

/// Findings accepted as they are (`lint --write-baseline FILE`, `lint --baseline FILE`): a finding
/// recorded there is a note, so only new ones count. Entries are keyed by policy, rule, key path
/// and value, never by line, so comments and moved keys do not break them. The file is sorted,
/// stable JSON with one entry per line, which diffs well in review.
public struct Baseline: Sendable, Hashable {
    public struct Entry: Sendable, Hashable, Comparable {
        public var policy: String
        public var rule: RuleID
        /// The key path the finding points at ("" when it points at none).
        public var at: String
        /// The value found there as a policy writes it, or the message where there is no value.
        public var value: String
        /// The entry's line in the baseline file, when read from one (not part of the key).
        public var line = 0

        public init(policy: String, rule: RuleID, at: String, value: String) {
            self.policy = policy
            self.rule = rule
            self.at = at
            self.value = value
        }

        public static func == (a: Entry, b: Entry) -> Bool {
            a.policy == b.policy && a.rule == b.rule && a.at == b.at && a.value == b.value
        }

        public func hash(into hasher: inout Hasher) {
            hasher.combine(policy)
            hasher.combine(rule)
            hasher.combine(at)
            hasher.combine(value)
        }

        public static func < (a: Entry, b: Entry) -> Bool {
            (a.policy, a.rule, a.at, a.value) < (b.policy, b.rule, b.at, b.value)
        }

        var json: JSON {
            .object(["policy": .string(policy), "rule": .string(rule.rawValue), "at": .string(at), "value": .string(value)])
        }
    }

    /// The file the entries were read from, as given (stale entries name it).
    public var file: String
    public var entries: [Entry]

    public init(file: String = "", entries: [Entry]) {
        self.file = file
        self.entries = entries.sorted()
    }

    /// Every finding of `files` that counts (errors and warnings), as entries.
    public static func record(_ files: [CheckedFile]) -> Baseline {
        var entries: [Entry] = []
        for file in files {
            let keys = file.doc.map(FindingKeys.init)
            let policy = policyName(file)
            for d in file.diagnostics where d.severity != .note && d.rule != RuleID.baselineStale {
                entries.append(entry(for: d, policy: policy, keys: keys))
            }
        }
        return Baseline(entries: entries)
    }

    /// A file's policy name, or its path when it has none (a file that did not parse).
    static func policyName(_ file: CheckedFile) -> String {
        file.doc?.policy?.value ?? file.path
    }

    static func policyName(_ doc: PolicyDoc?, path: String) -> String {
        doc?.policy?.value ?? path
    }

    static func entry(for d: Diagnostic, policy: String, keys: FindingKeys?) -> Entry {
        if let key = keys?.entry(at: d.span.start) {
            return Entry(policy: policy, rule: d.rule, at: key.path, value: key.value?.description ?? d.message)
        }
        return Entry(policy: policy, rule: d.rule, at: "", value: d.message)
    }

    /// `{"version": 1, "entries": [...]}` with each entry on a line of its own, sorted.
    public var rendered: String {
        var out = "{\n  \"version\": 1,\n  \"entries\": ["
        for (i, entry) in entries.enumerated() {
            out += (i == 0 ? "\n    " : ",\n    ") + entry.json.rendered(pretty: false)
        }
        out += entries.isEmpty ? "]\n}\n" : "\n  ]\n}\n"
        return out
    }

    /// Reads a baseline file; why not, when it is not one.
    public struct Unreadable: Error, Sendable {
        public var message: String
    }

    public static func parse(_ bytes: [UInt8], file: String) -> Result<Baseline, Unreadable> {
        guard case .success(let json) = JSONParser.parse(bytes) else {
            return .failure(Unreadable(message: "'\(printable(file))' is not a baseline: not JSON (write one with 'policyc lint --write-baseline FILE')"))
        }
        guard case .object(let root) = json, root["version"] == .int(1), case .array(let items)? = root["entries"] else {
            return .failure(Unreadable(message: "'\(printable(file))' is not a baseline of version 1: it needs \"version\": 1 and \"entries\""))
        }
        // Each entry's line, for the findings of stale ones: where its `{` stands.
        var starts: [Int] = []
        var depth = 0, inString = false, escaped = false
        for (offset, byte) in bytes.enumerated() {
            if inString {
                if escaped { escaped = false } else if byte == 0x5C { escaped = true } else if byte == 0x22 { inString = false }
                continue
            }
            switch byte {
            case 0x22: inString = true
            case 0x7B:
                depth += 1
                if depth == 2 { starts.append(offset) }
            case 0x7D: depth -= 1
            default: break
            }
        }
        let index = LineIndex(bytes)
        let lines = starts.map { index.lineNumber(containing: $0) }
        var entries: [Entry] = []
        for (i, item) in items.enumerated() {
            guard case .object(let members) = item, case .string(let policy)? = members["policy"],
                  case .string(let rule)? = members["rule"], case .string(let at)? = members["at"],
                  case .string(let value)? = members["value"] else {
                return .failure(Unreadable(message: "'\(printable(file))': entry \(i + 1) needs the strings policy, rule, at and value"))
            }
            var entry = Entry(policy: policy, rule: RuleID(rawValue: rule), at: at, value: value)
            entry.line = i < lines.count ? lines[i] : 1
            entries.append(entry)
        }
        var baseline = Baseline(file: file, entries: [])
        baseline.entries = entries
        return .success(baseline)
    }

    /// The pass after the rules and waivers: each finding an entry holds (one entry, one finding)
    /// becomes a note; each entry of this policy that holds none is `baseline-stale`.
    func apply(_ diagnostics: inout [Diagnostic], doc: PolicyDoc?, path: String) {
        let policy = Self.policyName(doc, path: path)
        var open: [Entry: [Int]] = [:]
        for (i, entry) in entries.enumerated() where entry.policy == policy { open[entry, default: []].append(i) }
        guard !open.isEmpty else { return }
        let keys = doc.map(FindingKeys.init)
        for d in diagnostics.indices where diagnostics[d].severity != .note {
            let key = Self.entry(for: diagnostics[d], policy: policy, keys: keys)
            guard var held = open[key], !held.isEmpty else { continue }
            held.removeFirst()
            open[key] = held
            diagnostics[d].severity = .note
            diagnostics[d].baselined = true
            diagnostics[d].fix = nil
        }
        let stale = open.values.flatMap { $0 }.sorted()
        for i in stale {
            let entry = entries[i]
            let at = entry.at.isEmpty ? "" : " at \(excerpt(entry.at))"
            diagnostics.append(Diagnostic(
                span: doc?.policy?.span ?? Span(.start), severity: .warning, rule: RuleID.baselineStale,
                message: "the baseline holds a finding of \(excerpt(entry.rule.rawValue))\(at) (\(excerpt(entry.value))) that is no longer found",
                help: "lint --fix removes the entry from the baseline",
                related: [.init(file: file, span: Span(start: Mark(line: entry.line, column: 5), end: Mark(line: entry.line, column: 6)),
                                message: "the stale entry")]))
        }
    }

    /// The baseline without the entries that hold nothing in `files` (what `lint --fix` writes).
    public func withoutStale(_ files: [CheckedFile]) -> Baseline {
        var stale: [Entry: Int] = [:]
        for file in files {
            for d in file.diagnostics where d.rule == RuleID.baselineStale {
                guard let related = d.related.first, related.file == self.file,
                      let entry = entries.first(where: { $0.line == related.span.start.line }) else { continue }
                stale[entry, default: 0] += 1
            }
        }
        var kept: [Entry] = []
        for entry in entries {
            if let n = stale[entry], n > 0 {
                stale[entry] = n - 1
                continue
            }
            kept.append(entry)
        }
        return Baseline(file: file, entries: kept)
    }
}
