import PolicySource

/// Node tree → typed values, directed by `Language`: unknown, missing and mistyped keys become
/// diagnostics; a value that does not decode is left out, so no rule sees it (no cascades).
package struct PolicyDecoder {
    package init() {}

    package var diagnostics: [Diagnostic] = []
    /// Findings past `Loader.maxFindings` for the file (the loader's count included by the caller).
    var suppressed = 0
    /// Room left for findings: the loader's findings count against the same limit.
    package var room = Loader.maxFindings
    /// The file's lines, from which fixes are made (none without them); the rules' fixes after
    /// use the same.
    var source: LineIndex?
    /// The policy name a fix writes where the file has none (`CanonicalEntry.policyName(forFile:)`);
    /// nil for the canonical `playback`.
    var policyName: String?
    private var root: Node?
    private var madeEditor: FixEditor?
    /// Whether `decodeRoot` was handed the only tree, so that once the report is full (no fix is
    /// made after that, and the caller lets the tree go as soon as decoding ends) a long list's
    /// items can be let go as each is decoded (see `decodeOwned`).
    private var ownsTree = false
    /// The items a list needs for `decodeOwned` to take it out of the tree (a policy's hold a few).
    static let ownedListMinimum = 1024
    /// The keys from the root to the mapping being decoded: a profile by its name, a list item as
    /// `-`. Read only when a finding needs it (where a key belongs, the canonical text to add).
    var path: [String] = []
    /// Keys written under another mapping than theirs, by the path of the mapping where they
    /// belong (`retry`), then the key (`budget`): that mapping does not also report them missing.
    /// With the depths of those paths, so that a mapping at any other depth is not asked (joining
    /// the path for each missing key of many profiles, after one misplaced key, is dear, and a set
    /// of the depths, hashed for each, is dear too). Bit n of the depths: a path of n keys (paths
    /// are at most `Loader.maxDepth` long).
    /// Keyed by bytes, as policy text compares (a path holds profile names as written).
    var misplaced: [ExactText: Set<ExactText>] = [:]
    var misplacedDepths: UInt64 = 0
    /// The canonical entries found so far (see `canonical(_:at:)`), nil for one that is not there,
    /// and their places in it by key and path.
    var foundCanonical: [CanonicalEntry?] = []
    var canonicalEntries: [String: Int] = [:]
    /// The last few asked for: profiles lacking the same keys ask for the same few entries in
    /// turn, and joining and hashing the path each time was a fifth of the cost of their findings.
    var recentCanonical: [(key: String, path: [String], index: Int)] = []
    /// The texts of the missing keys reported, by key and canonical entry, shared by the next
    /// profile that lacks the same key (the same few, as `recentCanonical`).
    var recentMissing: [MissingTexts] = []
    static let recent = 16

    /// `given` is the file's whole tree; with `owned`, the caller keeps no copy of it and takes it
    /// back from `releaseTree` (nil once the report filled while it was decoded).
    mutating func decodeRoot(_ given: consuming Node?, owned: Bool = false) -> Decoded? {
        self.root = copy given
        ownsTree = owned
        path.reserveCapacity(8)
        if owned, self.root.map({ !$0.isNull }) == true {
            // Taken, not bound: a binding would hold the tree until decoding ends.
            var work = (consume given) ?? Node(.reported, span: Span(.start))
            return decodeOwned(&work, as: .object(Language.root), key: .plain("the policy"), owner: .plain("the policy"),
                               keySpan: nil)
        }
        guard let root = given, !root.isNull else {
            var fix: Fix?
            if root == nil {
                // Only comments, or nothing: the canonical policy after them.
                let text = editor().text
                let lines = CanonicalEntry.wholePolicy(named: policyName)
                let edit = text.bytes.isEmpty || text.endsWithLineBreak
                    ? lines.map { $0 + text.firstLineBreak }.joined()
                    : lines.map { text.firstLineBreak + $0 }.joined()
                fix = Fix(.unsafe, "write the canonical policy", edits: [TextEdit(Span(text.mark(at: text.bytes.count)), edit)])
            }
            fail(.missingKey, at: Span(.start),
                 "the file holds no policy; a policy needs the keys version, policy, retry, prefetch and tickets",
                 help: "run 'policyc init' for a canonical policy to start from", fix: fix)
            return nil
        }
        return decode(root, as: .object(Language.root), key: .plain("the policy"), owner: .plain("the policy"), keySpan: nil)
    }

    /// A long list under an owned tree (see `ownsTree`) is decoded from a tree whose top mappings
    /// are the decoder's own copies, each value taken out while it is decoded and put back after.
    /// Once the report is full, the decoder lets go of the file's tree and its editor; the list's
    /// items are then held by nothing else, and each is let go once decoded, so a long list's
    /// nodes and its decoded values are not all held at once.
    mutating func decodeOwned(_ node: inout Node, as shape: Shape, key: Label, owner: Label, keySpan: Span?) -> Decoded? {
        // The collection is taken out of `node` (left `.reported`) and put back after: no binding
        // or temporary may hold it meanwhile, or its items would have a second holder.
        if case .object(let fields) = shape, path.count <= 1, var entries = Self.mapping(of: node) {
            node.kind = .reported
            defer { node.kind = .mapping(entries) }
            return decodeObject(&entries, fields, owned: true, span: node.span, owner: owner, keySpan: keySpan ?? node.span)
        }
        if case .namedMap(let valueShape, _) = shape, var entries = Self.mapping(of: node), entries.count >= Self.ownedListMinimum {
            node.kind = .reported
            defer { node.kind = .mapping(entries) }
            return decodeNamedMap(&entries, valueShape, owned: true, span: node.span, key: key)
        }
        if case .list(let itemShape, let unique) = shape, var items = Self.sequence(of: node), items.count >= Self.ownedListMinimum {
            node.kind = .reported
            defer { node.kind = .sequence(items) }
            return decodeList(&items, itemShape, unique: unique, owned: true, span: node.span, key: key)
        }
        return decode(node, as: shape, key: key, owner: owner, keySpan: keySpan)
    }

    static func mapping(of node: Node) -> [Entry]? {
        if case .mapping(let entries) = node.kind { return entries }
        return nil
    }

    static func sequence(of node: Node) -> [Node]? {
        if case .sequence(let items) = node.kind { return items }
        return nil
    }

    /// Lets go of the node tree and the editor once decoding is done, handing the tree back (nil
    /// when it was let go of already): the caller decides how long a large file's tree lives.
    @discardableResult
    mutating func releaseTree() -> Node? {
        defer {
            root = nil
            madeEditor = nil
        }
        return root
    }

    /// The file's editor, made on first use: only a finding with a fix needs it.
    mutating func editor() -> FixEditor {
        if let madeEditor { return madeEditor }
        let made = FixEditor(source, root: root)
        madeEditor = made
        return made
    }

    /// One entry of a `namedMap` (a profile), or nil when its value does not decode.
    private mutating func decodeNamed(_ e: Entry, as shape: Shape, in node: Node) -> DecodedEntry? {
        path.append(e.key)
        defer { path.removeLast() }
        if e.value.isNull {
            failNull(e, in: node, shape: shape, key: .quotedPrintable(e.key))
            return nil
        }
        guard let v = decode(e.value, as: shape, key: .quotedPrintable(e.key), owner: .profile(e.key), keySpan: e.keySpan)
        else { return nil }
        return DecodedEntry(key: e.key, keySpan: e.keySpan, value: v)
    }

    /// - Parameters:
    ///   - key: how the value is named in messages ("'timeout'", "an item of 'retryOn'").
    ///   - owner: for mappings, how the mapping is named when a key is missing or unknown.
    ///   - keySpan: where a missing key is reported: the key of this mapping (root: its start).
    package mutating func decode(_ node: Node, as shape: Shape, key: Label, owner: Label, keySpan: Span?) -> Decoded? {
        if case .reported = node.kind { return nil }
        if node.isNull {
            fail(.typeMismatch, at: node.span, "\(key) has no value; it must be \(shape.expectation)")
            return nil
        }
        switch shape {
        case .object(let fields):
            guard case .mapping(var entries) = node.kind else { return mismatch(node, shape, key) }
            return decodeObject(&entries, fields, span: node.span, owner: owner, keySpan: keySpan ?? node.span)
        case .namedMap(let valueShape, _):
            guard case .mapping(var entries) = node.kind else { return mismatch(node, shape, key) }
            return decodeNamedMap(&entries, valueShape, span: node.span, key: key)
        case .list(let itemShape, let unique):
            guard case .sequence(var items) = node.kind else { return notAList(node, itemShape, unique: unique, key) }
            return decodeList(&items, itemShape, unique: unique, span: node.span, key: key)
        case .either(let scalar, let container):
            switch (node.kind, container) {
            case (.scalar, _): return decode(node, as: scalar, key: key, owner: owner, keySpan: keySpan)
            case (.mapping, .object), (.mapping, .namedMap), (.sequence, .list):
                return decode(node, as: container, key: key, owner: owner, keySpan: keySpan)
            default: return mismatch(node, shape, key)
            }
        case .paths:
            // One path, or a list of them (`extends`).
            if case .sequence(var items) = node.kind {
                return decodeList(&items, .string, unique: true, span: node.span, key: key)
            }
            guard case .scalar(let text, let style) = node.kind else { return mismatch(node, shape, key) }
            return decodeScalar(text, style, .string, key: key, span: node.span)
        default:
            guard case .scalar(let text, let style) = node.kind else { return mismatch(node, shape, key) }
            return decodeScalar(text, style, shape, key: key, span: node.span)
        }
    }

    /// A mapping of profiles by name; with an owned tree and a full report, each profile is let go
    /// once decoded (see `decodeOwned`).
    mutating func decodeNamedMap(_ entries: inout [Entry], _ valueShape: Shape, owned: Bool = false, span: Span,
                                 key: Label) -> Decoded? {
        if entries.isEmpty {
            fail(.typeMismatch, at: span, "\(key) is empty; it needs at least one entry")
            return nil
        }
        var out: [DecodedEntry] = []
        out.reserveCapacity(entries.count)
        var mapping = Node(.mapping(entries), span: span)
        var j = 0
        // Whether each profile is let go once decoded: not yet, from now on, or never (see
        // `startLettingGo`).
        var lettingGo: Bool? = false
        let mayLetGo = owned && ownsTree && entries.count >= Self.ownedListMinimum
        while j < entries.count {
            if mayLetGo, lettingGo == false, diagnostics.count >= room {
                // Past the report's end the mapping is not read for a fix: an empty one stands
                // for it, so that it holds none of the profiles.
                mapping = Node(.mapping([]), span: span)
                lettingGo = startLettingGo(&entries, decoded: j) { $0.value = Node(.reported, span: $0.value.span) }
            }
            if let e = decodeNamed(entries[j], as: valueShape, in: mapping) { out.append(e) }
            if lettingGo == true { entries[j].value = Node(.reported, span: entries[j].value.span) }
            j += 1
        }
        return Decoded(value: .object(DecodedObject(out)), span: span)
    }

    /// A list's items; with an owned tree and a full report, each item is let go once decoded (see
    /// `decodeOwned`). Nothing else changes: the items left are decoded as they were.
    mutating func decodeList(_ items: inout [Node], _ itemShape: Shape, unique: Bool, owned: Bool = false, span: Span,
                             key: Label) -> Decoded? {
        path.append("-")
        defer { path.removeLast() }
        var out: [Decoded] = []
        out.reserveCapacity(items.count)
        var complete = true
        // Where each identity was first listed (see `Decoded.Value.identity`), found by its hash:
        // the index in `out` of the first item with it. The identities themselves are not kept (a
        // 1 MiB list of pairs held megabytes of them at the file's peak of memory).
        var firstByHash: [Int: Int] = [:]
        func firstListed(_ identity: ExactText) -> Span? {
            guard let i = firstByHash[identity.hashValue] else {
                firstByHash[identity.hashValue] = out.count
                return nil
            }
            if ExactText(out[i].value.identity) == identity { return out[i].span }
            // Two identities with one hash: so rare that a walk of the items is the plain answer.
            return out.first { ExactText($0.value.identity) == identity }?.span
        }
        let itemLabel = Label.itemOf(key)
        // Whether each item is let go once decoded: not yet, from now on, or never (see
        // `startLettingGo`).
        var lettingGo: Bool? = false
        let mayLetGo = owned && ownsTree && items.count >= Self.ownedListMinimum
        for i in items.indices {
            if mayLetGo, lettingGo == false, diagnostics.count >= room {
                lettingGo = startLettingGo(&items, decoded: i) { $0 = Node(.reported, span: $0.span) }
            }
            defer { if lettingGo == true { items[i] = Node(.reported, span: items[i].span) } }
            let item = items[i]
            guard let v = decode(item, as: itemShape, key: itemLabel, owner: itemLabel, keySpan: item.span)
            else {
                complete = false
                continue
            }
            if unique, let first = firstListed(ExactText(v.value.identity)) {
                fail(.typeMismatch, at: v.span,
                     "\(Self.describe(item)) is listed twice in \(key); the first is at line \(first.start.line), column \(first.start.column)",
                     help: "remove the repeated item")
                continue
            }
            out.append(v)
        }
        return Decoded(value: .list(out), span: span, complete: complete)
    }

    /// Once the report is full, under an owned tree (see `decodeOwned`): lets go of the file's tree
    /// and its editor (no fix is made from here on, and the caller drops the tree when decoding
    /// ends), then of the first `decoded` elements of `array`. True when the elements are the
    /// array's alone; nil when making it its own copied it (another holder keeps them), and then
    /// none is let go: that copy is the only cost of a mistake in who holds what.
    private mutating func startLettingGo<T>(_ array: inout [T], decoded: Int, _ letGo: (inout T) -> Void) -> Bool? {
        root = nil
        madeEditor = nil
        let before = array.withUnsafeBufferPointer { $0.baseAddress }
        array.withUnsafeMutableBufferPointer { _ in }
        guard before == array.withUnsafeBufferPointer({ $0.baseAddress }) else { return nil }
        for k in 0..<decoded { letGo(&array[k]) }
        return true
    }

    /// `owned`: the entries are the decoder's own copy under an owned tree (see `decodeOwned`):
    /// a mapping's or list's value is taken out while it is decoded, then put back.
    ///
    /// The mapping itself, for a finding's fix, is made from `entries` and `span` when needed: held
    /// the whole time, it would hold the list an owned decoding lets go of.
    mutating func decodeObject(_ entries: inout [Entry], _ fields: [Field], owned: Bool = false, span: Span, owner: Label,
                               keySpan: Span) -> Decoded? {
        // Room is made when the first value decodes: reserving it up front for a mapping whose
        // values all fail (14 000 profiles of null values) held 7 MB of empty room at the peak.
        var out: [DecodedEntry] = []
        var failed: [String] = []
        // Keys that a misspelling stands for: a misspelled key is one mistake, so the key it was
        // meant to be is not also reported missing.
        var meant: Set<String> = []
        // Which fields were written, by index (the language's mappings have far fewer than 64).
        var written: UInt64 = 0
        var unwritten: [String]?
        noteMisplacedBelow(entries, fields: fields)
        // By index, the entries and the fields: iterating either copies (and retains) every element
        // it passes, an entry's whole node with it.
        for j in entries.indices {
            let key = entries[j].key
            var index = -1
            // By bytes (see `sameText`): a key is the language's only when it is spelt as it is.
            for i in fields.indices where sameText(fields[i].key, key) {
                index = i
                break
            }
            guard index >= 0 else {
                if diagnostics.count >= room {
                    // Past the limit: count it without the cost of a suggestion.
                    suppressed += 1
                    continue
                }
                // The known keys this mapping has, found once: a hostile mapping has thousands of entries.
                if unwritten == nil { unwritten = fields.map(\.key).filter { k in !entries.contains { sameText($0.key, k) } } }
                if let meantKey = unknownKey(entries[j], unwritten: unwritten ?? [], fields: fields, owner: owner) {
                    meant.insert(meantKey)
                }
                continue
            }
            if index < 64 { written |= 1 << UInt64(index) }
            let label = Label.quoted(fields[index].key)
            path.append(key)
            defer { path.removeLast() }
            if entries[j].value.isNull {
                failNull(entries[j], in: Node(.mapping(entries), span: span), shape: fields[index].shape, key: label)
                failed.append(key)
            } else if let v = owned && Self.isCollection(entries[j].value)
                        ? decodeTaken(&entries[j], as: fields[index].shape, key: label)
                        : decode(entries[j].value, as: fields[index].shape, key: label, owner: label, keySpan: entries[j].keySpan) {
                // At most one entry a field (the loader drops a repeated key): a mapping of many
                // unknown keys reserved room for every one of them (10,000 items of 12 keys, two
                // known: 10 MB, a third of the peak).
                if out.isEmpty { out.reserveCapacity(min(entries.count - j, fields.count)) }
                out.append(DecodedEntry(key: key, keySpan: entries[j].keySpan, value: v))
            } else {
                failed.append(key)
            }
        }
        var misplacedHere: Set<ExactText>?
        for i in fields.indices where fields[i].required {
            let isWritten = i < 64 ? written & (1 << UInt64(i)) != 0 : entries.contains(where: { sameText($0.key, fields[i].key) })
            guard !isWritten, !meant.contains(fields[i].key) else { continue }
            if misplacedDepths & (1 << UInt64(min(path.count, 63))) != 0 {
                if misplacedHere == nil { misplacedHere = misplaced[ExactText(path.joined(separator: "/"))] ?? [] }
                if misplacedHere?.contains(ExactText(fields[i].key)) == true { continue }
            }
            guard diagnostics.count < room else {
                suppressed += 1
                continue
            }
            missingKey(fields[i], in: Node(.mapping(entries), span: span), entries: entries, fields: fields, owner: owner, at: keySpan)
        }
        return Decoded(value: .object(DecodedObject(out, failedKeys: failed)), span: span)
    }

    static func isCollection(_ node: Node) -> Bool {
        switch node.kind {
        case .mapping, .sequence: return true
        case .scalar, .reported: return false
        }
    }

    /// An entry's value taken out of `entry` (left `.reported`) while it is decoded as owned, then
    /// put back.
    mutating func decodeTaken(_ entry: inout Entry, as shape: Shape, key: Label) -> Decoded? {
        var value = entry.value
        entry.value = Node(.reported, span: value.span)
        defer { entry.value = value }
        return decodeOwned(&value, as: shape, key: key, owner: key, keySpan: entry.keySpan)
    }

    mutating func mismatch(_ node: Node, _ shape: Shape, _ key: Label) -> Decoded? {
        fail(.typeMismatch, at: node.span, "\(key) must be \(shape.expectation), found \(Self.describe(node))")
    }

    /// A value not among the choices. Help and fix offer only values that the guide's rules accept
    /// (`viewerRef: per-sesion` gets per-viewer-device, not per-session, itself an error).
    mutating func badChoice(_ text: String, _ options: [String], key: Label, span: Span) -> Decoded? {
        guard diagnostics.count < room else { return fail(.typeMismatch, at: span, "") }
        let message = "\(key) is '\(excerpt(text))', which is not one of \(Wording.orList(options))"
        let allowed = path.last.flatMap { Self.allowedByRules[$0] } ?? options
        let nearest = Suggest.nearest(text, in: options)
        if let nearest, allowed.contains(nearest) {
            return fail(.typeMismatch, at: span, message, help: Suggest.didYouMean(text, nearest),
                        fix: fixing(span, Values.Correction(nearest, .unsafe)))
        }
        if allowed.count == 1 {
            return fail(.typeMismatch, at: span, message, help: "write \(allowed[0]), the only value the guide allows",
                        fix: fixing(span, Values.Correction(allowed[0], .unsafe)))
        }
        return fail(.typeMismatch, at: span, message, help: "write one of \(Wording.orList(allowed))")
    }

    /// The choices that a rule narrows down, by key: the others are valid words, and errors.
    static let allowedByRules: [String: [String]] = [
        "backoff": [Backoff.fullJitter.rawValue],
        "viewerRef": [ViewerRef.perViewerDevice.rawValue],
    ]

    /// A scalar where a list belongs: most often the list written out as one text (`viewer,
    /// device`), which gets the flow list as help, and as a fix, safe when every part is a valid
    /// item and none repeats.
    mutating func notAList(_ node: Node, _ itemShape: Shape, unique: Bool, _ key: Label) -> Decoded? {
        guard diagnostics.count < room else { return fail(.typeMismatch, at: node.span, "") }
        let message = "\(key) must be a list, found \(Self.describe(node))"
        guard case .scalar(let text, let style) = node.kind, style != .literal, style != .folded else {
            return fail(.typeMismatch, at: node.span, message)
        }
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { String(Substring($0).trimmingSpaces) }
        // Parts that stand as they are in a flow list.
        let simple = parts.allSatisfy { part in
            !part.isEmpty && part.unicodeScalars.allSatisfy { $0.properties.isAlphabetic || ("0"..."9").contains($0) || "-_.%".unicodeScalars.contains($0) }
        }
        guard simple else { return fail(.typeMismatch, at: node.span, message) }
        let list = "[" + parts.joined(separator: ", ") + "]"
        var scratch = PolicyDecoder()
        var seen: Set<ExactText> = []
        let valid = parts.allSatisfy { part in
            guard let v = scratch.decodeScalar(part, .plain, itemShape, key: key, span: node.span) else { return false }
            return !unique || seen.insert(ExactText(v.value.identity)).inserted
        }
        let fix = editor().replace(node.span, with: list).map { Fix(valid ? .safe : .unsafe, "write \(excerpt(list))", edits: $0) }
        return fail(.typeMismatch, at: node.span, message, help: "write \(excerpt(list))", fix: fix)
    }

    /// The fix that writes `correction` over the scalar at `span`.
    /// Nil past the limit of findings: the finding will not be kept.
    mutating func fixing(_ span: Span, _ correction: Values.Correction?) -> Fix? {
        guard let correction, diagnostics.count < room else { return nil }
        return editor().replace(span, with: correction.text).map { Fix(correction.safety, "write \(excerpt(correction.text))", edits: $0) }
    }

    /// The safe fix that writes a quoted number or boolean without its quotes.
    mutating func unquoting(_ span: Span, _ value: String?) -> Fix? {
        guard let value, diagnostics.count < room else { return nil }
        return editor().replace(span, with: value).map { Fix(.safe, "write \(value) without quotes", edits: $0) }
    }

    /// The canonical value of the duration being decoded, which picks a bare number's unit.
    mutating func typicalDuration() -> Int? {
        guard let key = path.last,
              let entry = canonicalEntry(key, entries: [], parentPath: path.dropLast()),
              case .value(let ms) = Values.duration(entry.flow) else { return nil }
        return ms
    }

    static func describe(_ node: Node) -> String {
        switch node.kind {
        case .mapping: return "a mapping"
        case .sequence: return "a list"
        case .reported: return "an alias"
        case .scalar(let text, let style):
            let shown = excerpt(text)
            return style.isPlain ? "'\(shown)'" : "the string \"\(shown)\""
        }
    }

    /// The message and help are made only when the finding is kept: past the cap a file of tens
    /// of thousands of mistakes would otherwise build every sentence to throw it away.
    @discardableResult
    mutating func fail(_ rule: RuleID, at span: Span, _ message: @autoclosure () -> String,
                       help: @autoclosure () -> String? = nil, fix: Fix? = nil) -> Decoded? {
        guard diagnostics.count < room else {
            suppressed += 1
            return nil
        }
        diagnostics.append(Diagnostic(span: span, severity: .error, rule: rule, message: message(), help: help(), fix: fix))
        return nil
    }
}


/// How a value is named in messages ("'timeout'", "an item of 'retryOn'"), written out only when a
/// message is made: making the names of every value up front cost more than decoding most values.
package enum Label: CustomStringConvertible {
    case plain(String)
    /// A key of the language: no character to neutralise.
    case quoted(String)
    /// A key from the file, such as a profile name.
    case quotedPrintable(String)
    case profile(String)
    indirect case itemOf(Label)

    package var description: String {
        switch self {
        case .plain(let s): return s
        case .quoted(let s): return "'\(s)'"
        case .quotedPrintable(let s): return "'\(excerpt(s))'"
        case .profile(let s): return "profile '\(excerpt(s))'"
        case .itemOf(let l): return "an item of \(l)"
        }
    }
}
