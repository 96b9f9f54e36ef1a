import PolicySource
import PolicyCheck

/// `policyc verify`: HAR bytes in, findings and a summary out.
public enum Traffic {
    /// The rules of `verify`, in the order of SPEC §7.3.
    public static let rules: [TrafficRule] = [
        .retriesMax, .deadline, .timeoutMin, .retryAfter, .retryAfterJitter, .backoff,
        .notRetryable, .prefetchRetried, .budget, .batch, .ticketReuse, .viewerRef,
    ]

    /// The catalog `policyc rules` prints: the policy rules, then those of recorded traffic.
    public static let catalog: [Rule] = Catalog.rules + rules.map(\.rule)

    public static func rule(_ id: RuleID) -> Rule? { rules.first { $0.rule.id == id }?.rule }

    /// The recording's ticket requests, read one entry at a time; an error says why and where.
    public static func read(_ bytes: [UInt8], file: String, options: TrafficOptions) -> Result<Recording, HARError> {
        var scanner = HARScanner(bytes)
        var entries: [TicketEntry] = []
        var count = 0
        do throws(HARError) {
            try scanner.scan { (index: Int, entry: JSON, mark: Mark) throws(HARError) in
                count = index + 1
                guard case .object = entry else {
                    throw HARError(message: "entry \(index) of log.entries is not an object", offset: 0, line: mark.line, column: mark.column)
                }
                switch TicketReader.read(entry, index: index, mark: mark, endpoint: options.endpoint) {
                case .success(let ticket): if let ticket { entries.append(ticket) }
                case .failure(let invalid):
                    throw HARError(message: invalid.message, offset: 0, line: mark.line, column: mark.column)
                }
            }
        } catch {
            return .failure(error)
        }
        return .success(Recording(file: file, entries: entries, entryCount: count, options: options))
    }

    /// Every rule's findings on a recording, by entry then rule.
    public static func check(_ recording: Recording, only: [TrafficRule] = rules) -> [TrafficFinding] {
        var findings = TrafficFindings(file: recording.file)
        for rule in only {
            findings.rule = (rule.rule.id, rule.rule.severity)
            rule.check(recording, &findings)
        }
        return findings.list.sorted { a, b in
            a.file != b.file ? a.file < b.file : a.entry != b.entry ? a.entry < b.entry : a.rule < b.rule
        }
    }
}

extension Traffic {
    /// The guide's own policy (SPEC §1), for a project without one.
    public static let guidePolicy: Policy? = Checker.check(Array(Canonical.text.utf8), path: "canonical.yaml").doc?.complete(file: "canonical.yaml")
}
