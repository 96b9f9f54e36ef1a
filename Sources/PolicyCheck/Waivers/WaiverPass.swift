import PolicySource

/// The pass after the rules that applies a policy's `waivers`: a limit finding an active waiver
/// matches becomes a note that carries the waiver (`Diagnostic.waived`); the waivers themselves
/// get the findings of the waiver rules (expired, expiring, too long, unused, not allowed). The
/// rules know nothing of waivers.
package struct WaiverPass {
    /// How many days before its expiry a waiver is said to be expiring.
    static let expiringDays = 14

    private enum State { case unusable, expired, active }

    private struct Entry {
        var waiver: PolicyDoc.Waiver
        var state: State = .unusable
        var expires: Day?
        var used = false
    }

    /// Whether findings of `rule` may be waived: the guide's limits (and the project's own),
    /// never the language's rules.
    package static func isWaivable(_ rule: Rule) -> Bool {
        rule.reference != nil
    }

    private var entries: [Entry]
    /// The waiver rules' findings.
    private var added: [Diagnostic] = []
    private let today: Day
    private let options: CheckOptions
    private let keys: FindingKeys

    static func apply(_ diagnostics: inout [Diagnostic], doc: PolicyDoc, options: CheckOptions,
                      editor: () -> FixEditor?) {
        guard let list = doc.waivers, !list.value.isEmpty else { return }
        var pass = WaiverPass(entries: list.value.map { Entry(waiver: $0) }, today: options.today ?? Day.todayUTC(),
                              options: options, keys: FindingKeys(doc))
        for i in pass.entries.indices { pass.judge(i) }
        pass.waive(&diagnostics)
        pass.reportUnused(list, editor: editor)
        diagnostics += pass.added
    }

    private init(entries: [Entry], today: Day, options: CheckOptions, keys: FindingKeys) {
        self.entries = entries
        self.today = today
        self.options = options
        self.keys = keys
    }

    private mutating func finding(_ id: RuleID, at span: Span, _ message: String, help: String? = nil, fix: Fix? = nil) {
        let severity = Catalog.rule(id)?.severity ?? .error
        added.append(Diagnostic(span: span, severity: severity, rule: id, message: message, help: help, fix: fix))
    }

    /// A waiver on its own: what it names, its texts and its dates.
    private mutating func judge(_ i: Int) {
        let w = entries[i].waiver
        // Both judged, for all their findings.
        let knownRule = judgeRule(w), texts = judgeTexts(w)
        let usable = knownRule && texts
        guard let expires = w.expires else { return }
        guard let day = Day(expires.value) else {
            finding(.typeMismatch, at: expires.span,
                    "expires is '\(excerpt(expires.value))', which is not a date of the calendar; it must be YYYY-MM-DD",
                    help: "write a day that exists, such as \(today.adding(days: 90))")
            return
        }
        entries[i].expires = day
        let ruleName = w.rule.map { "'\(excerpt($0.value))'" } ?? "a rule"
        let owner = w.owner.map { " (owner \(excerpt($0.value)))" } ?? ""
        if day < today {
            finding(.waiverExpired, at: expires.span,
                    "the waiver of \(ruleName)\(owner) expired on \(day); the findings it accepted count again",
                    help: "fix the policy, or renew the waiver with a new expiry")
            entries[i].state = usable ? .expired : .unusable
            return
        }
        let ahead = today.days(to: day)
        if ahead > options.waiverMaxDays {
            finding(.waiverTooLong, at: expires.span,
                    "the waiver of \(ruleName) expires on \(day), \(ahead) days from today (\(today)); a waiver may last at most \(options.waiverMaxDays) days",
                    help: "write an expiry on or before \(today.adding(days: options.waiverMaxDays)), and renew it when it ends")
        } else if ahead <= Self.expiringDays {
            finding(.waiverExpiring, at: expires.span,
                    "the waiver of \(ruleName)\(owner) expires on \(day), in \(Wording.count(ahead, "day"))",
                    help: "fix the policy before then, or renew the waiver")
        }
        entries[i].state = usable ? .active : .unusable
    }

    /// Whether the waiver names a rule that a waiver can accept.
    private mutating func judgeRule(_ w: PolicyDoc.Waiver) -> Bool {
        guard let rule = w.rule else { return false }
        guard let known = Catalog.rule(named: rule.value) else {
            let waivable = Catalog.rules.filter(Self.isWaivable).map(\.id.rawValue)
            finding(.typeMismatch, at: rule.span,
                    "rule is '\(excerpt(rule.value))', which is not a rule of the catalog",
                    help: Suggest.nearest(rule.value, in: waivable).map { Suggest.didYouMean(rule.value, $0) }
                        ?? "write the id of a limit rule, such as interactive-retries-max (policyc rules lists them)")
            return false
        }
        guard Self.isWaivable(known) else {
            finding(.waiverNotAllowed, at: rule.span,
                    "'\(rule.value)' is a rule of the language, which no waiver can accept; only the guide's limits can be waived",
                    help: "correct the policy instead")
            return false
        }
        return true
    }

    /// Whether the waiver has a reason and an owner.
    private mutating func judgeTexts(_ w: PolicyDoc.Waiver) -> Bool {
        var usable = true
        for (name, field) in [("reason", w.reason), ("owner", w.owner)] {
            guard let field else {
                usable = false
                continue
            }
            if field.value.allSatisfy({ $0 == " " || $0 == "\t" }) {
                finding(.typeMismatch, at: field.span, "the waiver's \(name) is empty; a waiver needs \(name == "reason" ? "a reason" : "an owner")",
                        help: name == "reason" ? "say why the exception is needed and what ends it" : "name the team or person who answers for it, such as @payments-platform")
                usable = false
            }
        }
        return usable
    }

    /// The findings of the limit rules, each against the waivers of its rule. Only the waiver that
    /// decides is used: a second one for the same finding is left over.
    private mutating func waive(_ diagnostics: inout [Diagnostic]) {
        var byRule: [RuleID: [Int]] = [:]
        for i in entries.indices where entries[i].state != .unusable {
            if let rule = entries[i].waiver.rule?.value { byRule[RuleID(rawValue: rule), default: []].append(i) }
        }
        for d in diagnostics.indices {
            guard let candidates = byRule[diagnostics[d].rule] else { continue }
            let key = keys.entry(at: diagnostics[d].span.start)
            let matching = candidates.filter { i in
                guard let at = entries[i].waiver.at?.value else { return true }
                return key.map { sameText($0.path, at) } ?? false
            }
            func allows(_ i: Int) -> Bool {
                guard let allow = entries[i].waiver.allow?.value else { return true }
                return key?.value?.matches(allow) ?? false
            }
            if let i = matching.first(where: { entries[$0].state == .active && allows($0) }) {
                entries[i].used = true
                let w = entries[i].waiver
                diagnostics[d].severity = .note
                diagnostics[d].waived = Waived(owner: w.owner?.value ?? "", reason: w.reason?.value ?? "",
                                               expires: entries[i].expires?.description ?? "", span: w.span)
                diagnostics[d].fix = nil
            } else if let i = matching.first(where: { allows($0) }) {
                entries[i].used = true
                diagnostics[d].related.append(.init(
                    file: "", span: entries[i].waiver.expires?.span ?? entries[i].waiver.span,
                    message: "the waiver of this finding expired on \(entries[i].expires?.description ?? "")"))
            } else if let i = matching.first {
                entries[i].used = true
                let allow = entries[i].waiver.allow?.value ?? ""
                let found = key?.value.map { " \($0)" } ?? " another value"
                diagnostics[d].related.append(.init(
                    file: "", span: entries[i].waiver.allow?.span ?? entries[i].waiver.span,
                    message: "the waiver here allows \(excerpt(allow)), not\(found): the finding is not waived"))
            }
        }
    }

    /// Waivers that accepted nothing: a safe fix deletes them.
    private mutating func reportUnused(_ list: Located<[PolicyDoc.Waiver]>, editor: () -> FixEditor?) {
        var made: FixEditor??
        for entry in entries where entry.state == .active && !entry.used {
            let w = entry.waiver
            guard let rule = w.rule else { continue }
            var message = "the waiver of '\(excerpt(rule.value))' matches no finding"
            var help = "delete it: the policy keeps to the limit"
            if let at = w.at {
                message = "the waiver of '\(excerpt(rule.value))' at '\(excerpt(at.value))' matches no finding"
                if !keys.knows(at.value) {
                    message += "; the policy has no key '\(excerpt(at.value))'"
                    if at.value.utf8.count <= 256, let nearest = Suggest.nearest(at.value, in: Array(Set(keys.paths)).sorted()) {
                        help = Suggest.didYouMean(at.value, nearest)
                    }
                }
            }
            if made == nil { made = .some(editor()) }
            let fix = made!.flatMap { Self.removal(of: w, in: list, editor: $0) }.map { Fix(.safe, "delete the unused waiver", edits: $0) }
            finding(.waiverUnused, at: w.span, message, help: help, fix: fix)
        }
    }

    /// The edits that delete a waiver: its lines, or the whole `waivers:` entry when it is the only one.
    private static func removal(of waiver: PolicyDoc.Waiver, in list: Located<[PolicyDoc.Waiver]>, editor: FixEditor) -> [TextEdit]? {
        guard let node = editor.node(at: ["waivers"]) else { return nil }
        if list.value.count > 1 { return editor.removeItem(at: waiver.index, of: node) }
        guard case .mapping(let top)? = editor.root?.kind, let entry = top.last(where: { sameText($0.key, "waivers") }),
              !editor.isFlow(node), entry.keySpan.start.column == 1 else { return nil }
        var first = entry.keySpan.start.line
        let last = editor.lastLine(of: node)
        if last < editor.text.lineCount {
            // The last section of the file goes with the blank line before it: the file ends as
            // `policyc fmt` ends it, with one line break.
            func isBlank(_ n: Int) -> Bool { editor.text.text(ofLine: n)?.allSatisfy { $0 == " " } ?? false }
            if first > 2, isBlank(first - 1), ((last + 1)...editor.text.lineCount).allSatisfy(isBlank) { first -= 1 }
            return [TextEdit(Span(start: Mark(line: first, column: 1), end: Mark(line: last + 1, column: 1)), "")]
        }
        guard first > 1, let previous = editor.text.range(ofLine: first - 1) else { return nil }
        let start = editor.text.mark(at: previous.upperBound)
        return [TextEdit(Span(start: start, end: editor.text.mark(at: editor.text.bytes.count)), "")]
    }
}
