import PolicySource
import PolicyCheck
import PolicyReport
import PolicyCodegen
import PolicySimulation
import PolicyReview

/// What may be typed at a cursor: the keys the mapping there lacks, and the choices of a value.
/// Works on text that is not YAML yet (see `CursorContext`).
public enum Completion {
    public struct Item: Sendable, Hashable {
        public enum Kind: Sendable, Hashable {
            case key, value
        }

        public var label: String
        public var kind: Kind
        public var detail: String?
        public var documentation: String?
        /// What replaces the bytes from `start` to `end` (the word typed so far).
        public var newText: String
        public var start: Int
        public var end: Int
        /// Orders the items: required keys in the language's order, then optional ones.
        public var sortText: String
        /// The guide's own choice, when there is one.
        public var preselect = false
    }

    /// The items at `offset` of a file of `kind` (a policy, a scenario or a project file).
    public static func items(lines: LineIndex, offset: Int, markdown: Bool, kind: EditorFileKind = .policy) -> [Item] {
        guard lines.bytes.count <= Loader.maxBytes else { return [] }
        let outline = Outline(lines)
        guard let context = CursorContext.at(offset, in: outline, kind: kind) else { return [] }
        switch context.kind {
        case .key(let hasColon):
            return keys(context, hasColon: hasColon, markdown: markdown, kind: kind)
        case .value:
            return values(context, markdown: markdown, kind: kind)
        }
    }

    static func keys(_ context: CursorContext, hasColon: Bool, markdown: Bool, kind: EditorFileKind) -> [Item] {
        guard let shape = LanguagePath.shape(at: context.path, in: kind) else { return [] }
        let present = Set(context.present)
        switch shape {
        case .object(let fields):
            return fields.enumerated().compactMap { index, field in
                guard !present.contains(field.key) else { return nil }
                var prose = Prose(markdown: markdown)
                prose.add(field.help)
                prose.add(prose.strong("Type:") + " " + Hover.spelling(of: field.shape, prose))
                let opensBlock: Bool
                switch field.shape {
                case .object, .namedMap: opensBlock = true
                default: opensBlock = false
                }
                return Item(label: field.key, kind: .key,
                            detail: field.title + (field.required ? "" : " (optional)"),
                            documentation: prose.rendered,
                            newText: hasColon ? field.key : field.key + (opensBlock ? ":" : ": "),
                            start: context.tokenStart, end: context.tokenEnd,
                            sortText: rank(field.required, index))
            }
        case .namedMap:
            // A profile's name is the author's; the usual two are offered when missing.
            return Language.profileKinds.enumerated().compactMap { index, name in
                guard !present.contains(name) else { return nil }
                return Item(label: name, kind: .key, detail: "a profile name", documentation: nil,
                            newText: hasColon ? name : name + ":", start: context.tokenStart, end: context.tokenEnd,
                            sortText: rank(true, index))
            }
        default:
            return []
        }
    }

    /// `007`: first the items that come first, then by index.
    static func rank(_ first: Bool, _ index: Int) -> String {
        (first ? "0" : "1") + (index < 10 ? "0" : "") + String(index)
    }

    static func values(_ context: CursorContext, markdown: Bool, kind: EditorFileKind) -> [Item] {
        guard let shape = LanguagePath.shape(at: context.path, in: kind) else { return [] }
        let present = Set(context.present)
        var choices: [(String, String?)] = []
        // The guide's own choice, preselected.
        var preferred: String?
        switch shape {
        case .choice(let options):
            choices = options.map { ($0, Hover.choiceMeaning($0)) }
            let key = LanguagePath.dotted(context.path)
            if key == "retry.backoff" { preferred = "full-jitter" }
            if key == "tickets.viewerRef" { preferred = "per-viewer-device" }
        case .boolean:
            choices = [("true", nil), ("false", nil)]
            switch LanguagePath.dotted(context.path) {
            case "retry.retryAfter.honor", "prefetch.onlyUnlocked": preferred = "true"
            case "prefetch.retryRefused": preferred = "false"
            default: break
            }
        case .statusOrNetwork:
            choices = [("network", "network errors")] + [429, 500, 502, 503].map { ("\($0)", "HTTP \($0) " + (Hover.statusName($0) ?? "")) }
        case .status:
            choices = [("503", "HTTP 503 Service Unavailable")]
        case .statusOrNone:
            choices = [("503", "HTTP 503 Service Unavailable"), ("none", "no answer at all: the client times out")]
        case .integer where context.path == [.key("version")]:
            choices = [("1", "the only version")]
        case .string where kind == .policy && context.path.last == .key("code"):
            choices = [("not_ready", "the server is not ready for this episode: never retried with 503")]
        case .list(let inner, _) where context.isWholeValue:
            // Right after `key: `: the whole list as the guide wants it.
            switch inner {
            case .statusOrNetwork: choices = [("[network, 429, 500, 502, 503]", "what the guide retries")]
            case .choice(let options): choices = [("[" + options.joined(separator: ", ") + "]", "every part, as the guide requires")]
            case .object: choices = [("[{status: 503, code: not_ready}]", "never retry 503 not_ready")]
            default: break
            }
            preferred = choices.first?.0
        default:
            break
        }
        return choices.enumerated().compactMap { index, choice in
            let (value, meaning) = choice
            guard !present.contains(value) else { return nil }
            return Item(label: value, kind: .value, detail: meaning, documentation: nil,
                        newText: context.afterColon ? " " + value : value,
                        start: context.tokenStart, end: context.tokenEnd,
                        sortText: rank(value == preferred, index), preselect: value == preferred)
        }
    }
}
