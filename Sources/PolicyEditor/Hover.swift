import PolicySource
import PolicyCheck
import PolicyReport
import PolicyCodegen
import PolicySimulation
import PolicyReview

/// Text for an editor, in markdown or plain text as the editor reads it. Policy text goes through
/// `Wording.markdown` (or `printable`), so it can never add markup or control characters.
struct Prose {
    var markdown: Bool
    private(set) var paragraphs: [String] = []

    init(markdown: Bool) {
        self.markdown = markdown
    }

    /// Text of our own (no policy text in it).
    func strong(_ s: String) -> String { markdown ? "**\(s)**" : s }
    /// An identifier or value of the language (`maxRetries`, `8s`).
    func code(_ s: String) -> String { markdown ? Wording.code(s) : "'\(printable(s))'" }
    /// Text of our own as code (`retry.profiles.<name>.base`): it holds no backtick.
    func ownCode(_ s: String) -> String { markdown ? "`\(s)`" : s }
    /// Policy text: escaped for markdown, made printable for plain text.
    func text(_ s: String) -> String { markdown ? Wording.markdown(s) : printable(s) }

    mutating func add(_ paragraph: String) {
        paragraphs.append(paragraph)
    }

    var rendered: String {
        paragraphs.joined(separator: "\n\n")
    }
}

/// What a key means, what a value is taken to be, and what a profile works out to: the hover of
/// `policyc lsp`.
public enum Hover {
    public struct Answer: Sendable, Hashable {
        public var text: String
        /// The byte offsets of what is described.
        public var start: Int
        public var end: Int
    }

    enum Target {
        case key(path: [PathStep], start: Int, end: Int)
        case value(path: [PathStep], text: String, plain: Bool, start: Int, end: Int)
    }

    /// The hover at `offset` of a text of `kind`; `doc` (a policy's typed text, current or last
    /// good) gives a profile's figures.
    public static func answer(lines: LineIndex, offset: Int, doc: PolicyDoc?, markdown: Bool,
                              kind: EditorFileKind = .policy) -> Answer? {
        guard lines.bytes.count <= Loader.maxBytes, let target = target(lines: lines, offset: offset, kind: kind) else { return nil }
        var prose = Prose(markdown: markdown)
        switch target {
        case .key(let path, let start, let end):
            if LanguagePath.isProfileName(path, in: kind), case .key(let name)? = path.last {
                describeProfile(name, doc: doc, into: &prose)
            } else if let field = LanguagePath.field(at: path, in: kind) {
                describeKey(field, path: path, kind: kind, into: &prose)
            } else {
                return nil
            }
            return Answer(text: prose.rendered, start: start, end: end)
        case .value(let path, let text, let plain, let start, let end):
            guard let shape = LanguagePath.shape(at: path, in: kind) else { return nil }
            if kind == .policy, path == [.key("waivers"), .item, .key("rule")] {
                describeWaivedRule(text, into: &prose)
                return Answer(text: prose.rendered, start: start, end: end)
            }
            describeValue(text, plain: plain, shape: shape, path: path, kind: kind, into: &prose)
            return Answer(text: prose.rendered, start: start, end: end)
        }
    }

    // MARK: finding what is under the cursor

    static func target(lines: LineIndex, offset: Int, kind: EditorFileKind) -> Target? {
        let loaded = Loader.load(lines.bytes)
        if let root = loaded.root {
            let mark = lines.mark(at: offset)
            return locate(root, path: [], mark: mark, lines: lines)
        }
        return heuristicTarget(lines: lines, offset: offset, kind: kind)
    }

    static func contains(_ span: Span, _ mark: Mark) -> Bool {
        span.start <= mark && mark <= span.end
    }

    /// The key or scalar of the tree at `mark`.
    static func locate(_ node: Node, path: [PathStep], mark: Mark, lines: LineIndex) -> Target? {
        switch node.kind {
        case .mapping(let entries):
            for e in entries {
                if contains(e.keySpan, mark) {
                    return .key(path: path + [.key(e.key)], start: lines.clampedOffset(of: e.keySpan.start), end: lines.clampedOffset(of: e.keySpan.end))
                }
                if contains(e.value.span, mark), let found = locate(e.value, path: path + [.key(e.key)], mark: mark, lines: lines) {
                    return found
                }
            }
            return nil
        case .sequence(let items):
            for item in items where contains(item.span, mark) {
                if let found = locate(item, path: path + [.item], mark: mark, lines: lines) { return found }
            }
            return nil
        case .scalar(let text, let style):
            guard contains(node.span, mark), !path.isEmpty else { return nil }
            return .value(path: path, text: text, plain: style.isPlain, start: lines.clampedOffset(of: node.span.start),
                          end: lines.clampedOffset(of: node.span.end))
        case .reported:
            return nil
        }
    }

    /// The key or value at `offset` of a text that is not YAML (yet): from its lines.
    static func heuristicTarget(lines: LineIndex, offset: Int, kind: EditorFileKind) -> Target? {
        let outline = Outline(lines)
        guard let context = CursorContext.at(offset, in: outline, kind: kind) else { return nil }
        let b = outline.bytes
        switch context.kind {
        case .key:
            guard context.tokenEnd > context.tokenStart else { return nil }
            let name = String(decoding: b[context.tokenStart..<context.tokenEnd], as: UTF8.self)
            return .key(path: context.path + [.key(name)], start: context.tokenStart, end: context.tokenEnd)
        case .value:
            guard context.tokenEnd > context.tokenStart else { return nil }
            let raw = CursorContext.unquoted(b, context.tokenStart, context.tokenEnd)
            let quoted = b[context.tokenStart] == UInt8(ascii: "\"") || b[context.tokenStart] == UInt8(ascii: "'")
            return .value(path: context.path, text: raw, plain: !quoted, start: context.tokenStart, end: context.tokenEnd)
        }
    }

    // MARK: keys

    static func describeKey(_ field: Field, path: [PathStep], kind: EditorFileKind, into prose: inout Prose) {
        prose.add(prose.strong(prose.code(field.key)) + " — " + field.title + " (" + prose.ownCode(dottedPattern(path)) + ")")
        prose.add(field.help)
        prose.add(prose.strong("Type:") + " " + spelling(of: field.shape, prose) + (field.required ? "" : " Optional."))
        // The catalog's rules judge policies only.
        for rule in (kind == .policy ? limits(for: path) : []).compactMap(Catalog.rule) {
            var line = prose.strong("Limit") + " " + prose.code(rule.id.rawValue) + " (\(rule.severity.rawValue)): \(rule.summary)."
            if let reference = rule.reference {
                // The catalog's own text, written as markdown already (`not_ready`).
                line += (prose.markdown ? "\n\n> " : "\nGuide: ") + reference.text
            }
            prose.add(line)
        }
    }

    /// `retry.profiles.<name>.timeout`.
    static func dottedPattern(_ path: [PathStep]) -> String {
        var pattern = path
        if pattern.count > 2, pattern[0] == .key("retry"), pattern[1] == .key("profiles") { pattern[2] = .key("<name>") }
        return LanguagePath.dotted(pattern)
    }

    /// The rules that judge the value at a path (profiles' names as `*`).
    static func limits(for path: [PathStep]) -> [RuleID] {
        let pattern = LanguagePath.dotted(path.enumerated().map { i, step in
            i == 2 && path.count > 2 && path[0] == .key("retry") && path[1] == .key("profiles") ? .key("*") : step
        })
        return limitsByPath[pattern] ?? []
    }

    static let limitsByPath: [String: [RuleID]] = [
        "version": [.unsupportedVersion],
        "policy": [.badName, .nameCollision],
        "retry.profiles": [.badName, .nameCollision],
        "retry.profiles.*.kind": [.interactiveRetriesMax, .interactiveDeadline],
        "retry.profiles.*.maxRetries": [.interactiveRetriesMax],
        "retry.profiles.*.base": [.backoffOrder],
        "retry.profiles.*.cap": [.backoffOrder],
        "retry.profiles.*.timeout": [.timeoutMin, .timeoutWithinDeadline],
        "retry.profiles.*.deadline": [.timeoutWithinDeadline, .interactiveDeadline],
        "retry.retryOn": [.retryStatuses, .notReadyNeverRetried],
        "retry.neverRetry": [.notReadyNeverRetried],
        "retry.backoff": [.fullJitter],
        "retry.retryAfter.honor": [.retryAfterHonored],
        "retry.retryAfter.maxJitter": [.retryAfterJitter],
        "retry.budget.ratio": [.retryBudgetMax],
        "retry.budget.minPerMinute": [.retryBudgetFloor],
        "prefetch.ahead": [.prefetchAheadMax],
        "prefetch.onlyUnlocked": [.prefetchLocked],
        "prefetch.retryRefused": [.prefetchRefusedRetry],
        "tickets.reuseKey": [.ticketReuseKey],
        "tickets.stopReuseBefore": [.ticketReuseMargin],
        "tickets.viewerRef": [.viewerRefStable],
    ]

    /// A shape's type and how it is spelt.
    static func spelling(of shape: Shape, _ p: Prose) -> String {
        switch shape {
        case .integer(let min, _):
            return (min == 0 ? "an integer of 0 or more" : "an integer") + ", plain decimal such as \(p.code("3")) ("
                + ["0x10", "010", "1_000", "1e3", "3.0"].map(p.code).joined(separator: ", ") + " are errors)."
        case .string:
            return "text, taken as written."
        case .name:
            return "a name: a lowercase letter, then letters and digits, words joined by single dashes ("
                + ["playback", "ios-player", "ticketPlay"].map(p.code).joined(separator: ", ") + "), at most 64 characters."
        case .duration:
            return "a duration: a number and a unit, \(p.code("ms")), \(p.code("s")), \(p.code("m")) or \(p.code("h")) ("
                + ["500ms", "1.5s", "5m", "1h"].map(p.code).joined(separator: ", ")
                + "), a whole number of milliseconds. A bare number is an error: its unit would be a guess."
        case .percent:
            return "a percent: a number and \(p.code("%")) (\(p.code("10%")), \(p.code("2.5%"))), more than 0 and at most 100."
        case .boolean:
            return "\(p.code("true")) or \(p.code("false")) (YAML 1.1's "
                + ["yes", "no", "on", "off"].map(p.code).joined(separator: ", ") + " are errors)."
        case .choice(let options):
            return "one of " + options.map(p.code).joined(separator: ", ") + "."
        case .status:
            return "an HTTP status code, 100 to 599."
        case .statusOrNetwork:
            return "\(p.code("network")) or an HTTP status code."
        case .decimal(let lo, let hi):
            return "a plain decimal number from \(JSON.number(lo)) to \(JSON.number(hi)) (\(p.code("0.5")), \(p.code("3")))."
        case .statusOrNone:
            return "an HTTP status code, or \(p.code("none")) for no answer at all."
        case .either(let scalar, let container):
            return "either " + spelling(of: scalar, p).dropLast() + ", or " + spelling(of: container, p)
        case .paths:
            return "a policy file, relative to this one (\(p.code("base.yaml"))), or a list of them, applied in order."
        case .object(let fields):
            let required = fields.filter(\.required).map { p.code($0.key) }
            let optional = fields.filter { !$0.required }.map { p.code($0.key) }
            return "a mapping with the keys " + Wording.list(required)
                + (optional.isEmpty ? "" : " (optional: " + Wording.list(optional) + ")") + "."
        case .namedMap(_, let what):
            return "a mapping of \(what), at least one; each name becomes a constant in the generated code."
        case .list(let inner, let unique):
            var item = spelling(of: inner, p)
            if item.hasSuffix(".") { item.removeLast() }
            return "a list, each item " + item + (unique ? "; no item twice." : ".")
        }
    }

    // MARK: values

    static func describeValue(_ text: String, plain: Bool, shape: Shape, path: [PathStep], kind: EditorFileKind,
                              into prose: inout Prose) {
        // One scalar where a scalar or a mapping may stand (the project file's `out`): the scalar's.
        if case .either(let scalar, _) = shape {
            return describeValue(text, plain: plain, shape: scalar, path: path, kind: kind, into: &prose)
        }
        if let field = LanguagePath.field(at: path.last == .item ? Array(path.dropLast()) : path, in: kind) {
            prose.add(prose.strong(prose.code(field.key)) + (path.last == .item ? " item" : "") + " — " + field.title)
        }
        let shown = prose.code(text)
        switch shape {
        case .duration:
            switch Values.duration(text) {
            case .value(let ms): prose.add("\(shown) = \(ms) ms (\(Wording.duration(ms)))")
            case .invalid(let message, let help, _): problem(message, help, &prose)
            }
        case .percent:
            switch Values.percent(text) {
            case .value(let p): prose.add("\(shown) = the ratio \(JSON.number(p.ratio)) (\(Format.percent(p)))")
            case .invalid(let message, let help, _): problem(message, help, &prose)
            }
        case .integer, .status:
            guard plain else { return problem("\(text) is quoted: a quoted number is a string", Int(text).map { "write \($0) without quotes" }, &prose) }
            switch Values.integer(text) {
            case .value(let v):
                prose.add("\(shown) = the integer \(v)" + (statusName(v).map { " (HTTP \(v) \($0))" } ?? ""))
            case .invalid(let message, let help, _): problem(message, help, &prose)
            }
        case .boolean:
            guard plain else { return problem("'\(text)' is quoted: a quoted boolean is a string", nil, &prose) }
            switch Values.boolean(text) {
            case .value(let v): prose.add("\(shown) = \(v)")
            case .invalid(let message, let help, _): problem(message, help, &prose)
            }
        case .choice(let options):
            if options.contains(where: { sameText($0, text) }) {
                prose.add(shown + (choiceMeaning(text).map { ": " + $0 } ?? ""))
            } else {
                problem("'\(text)' is not one of \(Wording.orList(options))",
                        Suggest.nearest(text, in: options).map { Suggest.didYouMean(text, $0) }, &prose)
            }
        case .statusOrNetwork:
            if sameText(text, "network") {
                prose.add("\(shown): network errors (no answer from the server, a dropped connection), retried")
            } else if plain, case .value(let v) = Values.integer(text) {
                let allowed = [429, 500, 502, 503].contains(v)
                prose.add("\(shown) = HTTP \(v)" + (statusName(v).map { " \($0)" } ?? "")
                          + (allowed ? "" : "; the guide allows only 429, 500, 502 and 503"))
            } else {
                problem("'\(text)' is neither network nor an HTTP status code", nil, &prose)
            }
        case .name:
            if Values.isName(text) {
                if kind == .policy && path == [.key("policy")] {
                    prose.add("\(shown): generated as \(prose.code(Naming.typeName(policy: text)))")
                } else {
                    prose.add(shown)
                }
            } else {
                problem("'\(text)' is not a name: \(Values.nameProblem(text))", nil, &prose)
            }
        case .string, .paths:
            prose.add("the text " + (prose.markdown ? Wording.markdown(text) : "'\(printable(text))'"))
        case .decimal:
            switch Values.decimal(text) {
            case .value(let v): prose.add("\(shown) = the number \(JSON.number(v))")
            case .invalid(let message, let help, _): problem(message, help, &prose)
            }
        case .statusOrNone:
            if sameText(text, "none") {
                prose.add("\(shown): no answer at all (the client times out)")
            } else if plain, case .value(let v) = Values.integer(text) {
                prose.add("\(shown) = the HTTP status \(v)")
            } else {
                problem("'\(printable(text))' is neither none nor an HTTP status code", nil, &prose)
            }
        case .object, .namedMap, .list, .either:
            problem("\(shape.expectation) is expected here, not a single value", nil, &prose)
        }
    }

    /// A waiver's `rule:`: the rule it waives, as `policyc rules` lists it (its severity, what it
    /// checks, the guide's sentence), or why that rule cannot be waived.
    static func describeWaivedRule(_ text: String, into prose: inout Prose) {
        prose.add(prose.strong(prose.code("rule")) + " — Rule waived")
        guard let rule = Catalog.rule(named: text) else {
            let waivable = Catalog.rules.filter(WaiverPass.isWaivable).map(\.id.rawValue)
            return problem("'\(text)' is not a rule of policyc", Suggest.nearest(text, in: waivable).map { Suggest.didYouMean(text, $0) }, &prose)
        }
        prose.add(prose.ownCode(rule.id.rawValue) + " (\(rule.severity.rawValue)): " + prose.text(rule.summary))
        if let reference = rule.reference {
            prose.add("The guide: " + prose.text(reference.text))
        } else {
            prose.add("Not valid: a rule of the language, not a limit of the guide, cannot be waived (waiver-not-allowed)")
        }
    }

    static func problem(_ message: String, _ help: String?, _ prose: inout Prose) {
        prose.add("Not valid: " + prose.text(message) + (help.map { "; " + prose.text($0) } ?? ""))
    }

    static func statusName(_ status: Int) -> String? {
        switch status {
        case 400: return "Bad Request"
        case 401: return "Unauthorized"
        case 403: return "Forbidden"
        case 404: return "Not Found"
        case 408: return "Request Timeout"
        case 409: return "Conflict"
        case 429: return "Too Many Requests"
        case 500: return "Internal Server Error"
        case 501: return "Not Implemented"
        case 502: return "Bad Gateway"
        case 503: return "Service Unavailable"
        case 504: return "Gateway Timeout"
        default: return nil
        }
    }

    static func choiceMeaning(_ choice: String) -> String? {
        switch choice {
        case "interactive": return "a viewer is waiting (at most 3 retries, about 15 s before Retry shows)"
        case "background": return "a sync job, no viewer waiting"
        case "full-jitter": return "each wait is random between 0 and the backoff step (the guide's choice)"
        case "equal-jitter": return "each wait is half the step plus a random half (fails full-jitter)"
        case "exponential": return "each wait is the whole step, no randomness (fails full-jitter)"
        case "constant": return "every wait is the base step (fails full-jitter)"
        case "per-viewer-device": return "one stable viewer_ref per viewer and device (the guide's choice)"
        case "per-session": return "a new viewer_ref each session (fails viewer-ref-stable)"
        case "user-id": return "the user's id, personal data (fails viewer-ref-stable)"
        case "viewer": return "the viewer"
        case "device": return "the device"
        case "episode": return "the episode"
        case "intent": return "what the ticket is for (play, prefetch)"
        default: return nil
        }
    }

    // MARK: profiles

    static func describeProfile(_ name: String, doc: PolicyDoc?, into prose: inout Prose) {
        var head = prose.strong("Profile " + prose.code(name))
        if Values.isName(name) {
            head += " — Swift " + prose.code(Naming.swiftProfile(name)) + ", Kotlin " + prose.code(Naming.kotlinProfile(name))
        }
        prose.add(head)
        guard let profile = doc?.profiles.first(where: { $0.name.value == name }) else {
            prose.add("Its figures show once the profile has all its values.")
            return
        }
        guard let kind = profile.kind, let figures = ProfileFigures(profile, backoff: doc?.backoff?.value), let retries = profile.maxRetries,
              let base = profile.base, let cap = profile.cap, let timeout = profile.timeout, let deadline = profile.deadline
        else {
            let missing = ["kind", "maxRetries", "base", "cap", "timeout", "deadline"].filter { key in
                switch key {
                case "kind": return profile.kind == nil
                case "maxRetries": return profile.maxRetries == nil
                case "base": return profile.base == nil
                case "cap": return profile.cap == nil
                case "timeout": return profile.timeout == nil
                default: return profile.deadline == nil
                }
            }
            prose.add("Its figures show once it has a valid " + Wording.list(missing.map(prose.code)) + ".")
            return
        }
        let full = Policy.Profile(name: name, kind: kind.value, maxRetries: retries.value, baseMs: base.value, capMs: cap.value,
                                  timeoutMs: timeout.value, deadlineMs: deadline.value, line: profile.name.span.start.line)
        prose.add(prose.text(Explanation.kindWords(kind.value)))
        let sentences = Explanation.sentences(Explanation.ExplainedProfile(profile: full, figures: figures))
        prose.add(sentences.map(prose.text).joined(separator: " "))
        let rows = [
            ("Attempts at most", "\(figures.attemptsMax)", "attemptsMax"),
            ("Backoff in total at most", Wording.duration(figures.maxBackoffTotalMs), "maxBackoffTotalMs \(figures.maxBackoffTotalMs)"),
            ("Worst case, attempts started", "\(figures.worstCaseAttempts)", "worstCaseAttempts"),
            ("Worst-case wait", Wording.duration(figures.worstCaseWaitMs), "worstCaseWaitMs \(figures.worstCaseWaitMs)"),
        ]
        prose.add(rows.map { "\($0.0): \($0.1) (" + prose.ownCode($0.2) + ")" }.joined(separator: prose.markdown ? "  \n" : "\n"))
    }
}
