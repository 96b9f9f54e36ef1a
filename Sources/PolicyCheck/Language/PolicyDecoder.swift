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
    /// The file's bytes as the map of their lines, from which fixes are made (none without it):
    /// made by the first fix and kept so, for the rules' fixes after.
    var source: SourceMap.Builder?
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
    private var path: [String] = []
    /// Keys written under another mapping than theirs, by the path of the mapping where they
    /// belong (`retry`), then the key (`budget`): that mapping does not also report them missing.
    /// With the depths of those paths, so that a mapping at any other depth is not asked (joining
    /// the path for each missing key of many profiles, after one misplaced key, is dear, and a set
    /// of the depths, hashed for each, is dear too). Bit n of the depths: a path of n keys (paths
    /// are at most `Loader.maxDepth` long).
    /// Keyed by bytes, as policy text compares (a path holds profile names as written).
    private var misplaced: [ExactText: Set<ExactText>] = [:]
    private var misplacedDepths: UInt64 = 0
    /// The canonical entries found so far (see `canonical(_:at:)`), nil for one that is not there,
    /// and their places in it by key and path.
    private var foundCanonical: [CanonicalEntry?] = []
    private var canonicalEntries: [String: Int] = [:]
    /// The last few asked for: profiles lacking the same keys ask for the same few entries in
    /// turn, and joining and hashing the path each time was a fifth of the cost of their findings.
    private var recentCanonical: [(key: String, path: [String], index: Int)] = []
    /// The texts of the missing keys reported, by key and canonical entry, shared by the next
    /// profile that lacks the same key (the same few, as `recentCanonical`).
    private var recentMissing: [MissingTexts] = []
    private static let recent = 16

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
                    ? lines.map { $0 + text.lineBreak }.joined()
                    : lines.map { text.lineBreak + $0 }.joined()
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
    private mutating func editor() -> FixEditor {
        if let madeEditor { return madeEditor }
        let made = FixEditor(finishing: &source, root: root)
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
        // Where each identity was first listed (see `Decoded.Value.identity`).
        var firsts: [ExactText: Span] = [:]
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
            if unique {
                let identity = ExactText(v.value.identity)
                if let first = firsts[identity] {
                    fail(.typeMismatch, at: v.span,
                         "\(Self.describe(item)) is listed twice in \(key); the first is at line \(first.start.line), column \(first.start.column)",
                         help: "remove the repeated item")
                    continue
                }
                firsts[identity] = v.span
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

    /// Reports an unknown key: where it belongs when the language has it elsewhere (a key indented
    /// under the wrong parent), else the known key it most likely stands for, which it returns.
    mutating func unknownKey(_ entry: Entry, unwritten: [String], fields: [Field], owner: Label) -> String? {
        let key = entry.key
        if let home = Self.home(of: key, from: path) {
            var help = "move it into \(Self.describe(home.path))"
            if home.isAncestor {
                let levels = path.count - home.path.count
                help = "move it \(levels == 1 ? "one level" : "\(levels) levels") out, to line up with '\(excerpt(path[home.path.count]))'"
                misplaced[ExactText(home.path.joined(separator: "/")), default: []].insert(ExactText(key))
                misplacedDepths |= 1 << UInt64(min(home.path.count, 63))
            }
            fail(.unknownKey, at: entry.keySpan,
                 "key '\(key)' belongs in \(Self.describe(home.path)), not in \(owner)", help: help)
            return nil
        }
        let keys = fields.map(\.key)
        // A near spelling of any key; else a key it is built on, among those not written.
        let nearest = Suggest.nearest(key, in: keys) ?? Suggest.byParts(key, in: unwritten)
        guard let nearest else {
            fail(.unknownKey, at: entry.keySpan, "unknown key '\(excerpt(key))' in \(owner)",
                 help: "the keys of \(owner) are \(Suggest.andList(keys))")
            return nil
        }
        var fix: Fix?
        if unwritten.contains(nearest) {
            // The look-alike note too: an editor shows the fix's description without the help.
            let note = Suggest.lookAlike(key, nearest).map { " (\($0))" } ?? ""
            fix = editor().replace(entry.keySpan, with: nearest).map { Fix(.unsafe, "rename '\(excerpt(key))' to '\(nearest)'\(note)", edits: $0) }
        }
        fail(.unknownKey, at: entry.keySpan, "unknown key '\(excerpt(key))' in \(owner)", help: Suggest.didYouMean(key, nearest), fix: fix)
        return nearest
    }

    /// Reports a required key that is absent; the help and the fix hold the canonical policy's
    /// text for it, so that one round adds a whole missing section.
    mutating func missingKey(_ field: Field, in mapping: Node, entries: [Entry], fields: [Field], owner: Label, at keySpan: Span) {
        let index = canonicalIndex(field.key, entries: entries)
        guard var canonical = foundCanonical[index] else {
            fail(.missingKey, at: keySpan, "\(owner) lacks the required key '\(field.key)' (\(Self.lowercased(field.title)))",
                 help: "add '\(field.key):' with \(field.shape.expectation)")
            return
        }
        if field.key == "policy", path.isEmpty, let name = policyName {
            canonical = CanonicalEntry(lines: ["policy: \(name)"], valueLines: [name], flow: name)
        }
        let texts: MissingTexts
        if let known = recentMissing.first(where: {
            $0.key == field.key && $0.canonical == index && $0.order.elementsEqual(fields, by: { $0 == $1.key })
        }) {
            texts = known
        } else {
            let single = canonical.lines.count == 1
            texts = MissingTexts(
                key: field.key, canonical: index, order: fields.map(\.key), title: Self.lowercased(field.title),
                help: single ? "add '\(field.key): \(canonical.flow)'"
                    : "add it as the canonical policy has it:\n" + canonical.lines.joined(separator: "\n"),
                fix: single ? "add '\(field.key): \(canonical.flow)'" : "add the canonical '\(field.key)'")
            if recentMissing.count == Self.recent { recentMissing.removeFirst() }
            recentMissing.append(texts)
        }
        let fix = editor().insertEntry(field.key, lines: canonical.lines, flow: canonical.flow, into: mapping,
                                       order: texts.order, separated: path.isEmpty && canonical.lines.count > 1)
            .map { Fix(.unsafe, texts.fix, edits: $0) }
        fail(.missingKey, at: keySpan, "\(owner) lacks the required key '\(field.key)' (\(texts.title))", help: texts.help, fix: fix)
    }

    /// What a missing key's findings say, for its key and canonical entry (by its place in
    /// `foundCanonical`) in a mapping of the keys `order`.
    private struct MissingTexts {
        var key: String
        var canonical: Int
        var order: [String]
        var title: String
        var help: String
        var fix: String
    }

    /// A title as it reads inside a sentence: "Retry budget" becomes "retry budget", while
    /// "HTTP status" keeps its capitals.
    static func lowercased(_ title: String) -> String {
        title.dropFirst().first?.isUppercase == true ? title : title.prefix(1).lowercased() + title.dropFirst()
    }

    /// Reports a key written without a value; its fix writes the canonical policy's value.
    mutating func failNull(_ entry: Entry, in mapping: Node, shape: Shape, key: Label) {
        guard diagnostics.count < room else {
            suppressed += 1
            return
        }
        let message = "\(key) has no value; it must be \(shape.expectation)"
        guard case .mapping(let siblings) = mapping.kind,
              let canonical = canonicalEntry(path.last ?? entry.key, entries: siblings, parentPath: path.dropLast(),
                                              profile: entry.value) else {
            fail(.typeMismatch, at: entry.value.span, message)
            return
        }
        let help = canonical.valueLines.count == 1
            ? "for example \(canonical.flow)"
            : "for example, as the canonical policy has it:\n" + canonical.lines.joined(separator: "\n")
        let fix = editor().fillValue(of: entry, in: mapping, lines: canonical.valueLines, flow: canonical.flow)
            .map { Fix(.unsafe, "write the canonical value", edits: $0) }
        fail(.typeMismatch, at: entry.value.span, message, help: help, fix: fix)
    }

    /// The canonical policy's entry `key` for the mapping at `parentPath` (the current one by
    /// default); a profile's is that of the canonical profile of its kind. `profile` is the
    /// profile's own value when the caller has it: looking it up by name among `entries` (all
    /// the profiles) made a thousand findings on a mapping of 80,000 profiles quadratic.
    mutating func canonicalEntry(_ key: String, entries: [Entry], parentPath: ArraySlice<String>? = nil,
                                 profile: Node? = nil) -> CanonicalEntry? {
        foundCanonical[canonicalIndex(key, entries: entries, parentPath: parentPath, profile: profile)]
    }

    /// `canonicalEntry`'s place in `foundCanonical`.
    private mutating func canonicalIndex(_ key: String, entries: [Entry], parentPath: ArraySlice<String>? = nil,
                                         profile: Node? = nil) -> Int {
        var canonicalPath = Array(parentPath ?? path[...])
        if canonicalPath.count >= 3, canonicalPath[0] == "retry", canonicalPath[1] == "profiles" {
            var kind: String?
            if case .scalar(let text, _)? = entries.first(where: { sameText($0.key, "kind") })?.value.kind { kind = text }
            canonicalPath[2] = CanonicalEntry.profileName(kind: kind)
        } else if canonicalPath.count == 2, canonicalPath == ["retry", "profiles"] {
            // A profile itself: the canonical one of its kind.
            var kind: String?
            if case .mapping(let fields)? = (profile ?? entries.first(where: { sameText($0.key, key) })?.value)?.kind,
               case .scalar(let text, _)? = fields.first(where: { sameText($0.key, "kind") })?.value.kind { kind = text }
            return canonical(CanonicalEntry.profileName(kind: kind ?? key), at: canonicalPath)
        }
        return canonical(key, at: canonicalPath)
    }

    /// `CanonicalEntry.find`, once per key and path for the file: each call cuts the entry's
    /// lines out of the canonical text again, which is dear, and a file of many findings asks for
    /// the same few entries again and again. Its place in `foundCanonical`.
    private mutating func canonical(_ key: String, at path: [String]) -> Int {
        if let known = recentCanonical.first(where: { $0.key == key && $0.path == path }) { return known.index }
        let id = (path + [key]).joined(separator: "\u{0}")
        let index: Int
        if let known = canonicalEntries[id] {
            index = known
        } else {
            index = foundCanonical.count
            foundCanonical.append(CanonicalEntry.find(key, at: path))
            canonicalEntries[id] = index
        }
        if recentCanonical.count == Self.recent { recentCanonical.removeFirst() }
        recentCanonical.append((key, path, index))
        return index
    }

    // MARK: where keys belong

    /// The mappings of the language that have each key, as paths ("*" a profile, "-" a list item).
    /// Looked up by bytes: a key written with the Kelvin sign is not `reuseKey`, and is not hashed
    /// whole as Unicode (normalizing a very long key is slow).
    static let homes: [ExactText: [[String]]] = {
        var table: [ExactText: [[String]]] = [:]
        func walk(_ shape: Shape, _ path: [String]) {
            switch shape {
            case .object(let fields):
                for f in fields {
                    table[ExactText(f.key), default: []].append(path)
                    walk(f.shape, path + [f.key])
                }
            case .namedMap(let inner, _): walk(inner, path + ["*"])
            case .list(let inner, _): walk(inner, path + ["-"])
            default: break
            }
        }
        walk(.object(Language.root), [])
        return table
    }()

    /// Where a key unknown at `path` belongs, if the language has it elsewhere: the nearest
    /// mapping above (then named as written) or, failing that, the first that has it.
    static func home(of key: String, from path: [String]) -> (path: [String], isAncestor: Bool)? {
        guard let homes = homes[ExactText(key)] else { return nil }
        var best: [String]?
        for home in homes where home.count < path.count {
            let matches = zip(home, path).allSatisfy { h, p in sameText(h, p) || (h == "*" && p != "-") }
            if matches, home.count > (best?.count ?? -1) { best = Array(path.prefix(home.count)) }
        }
        if let best { return (best, true) }
        return homes.first.map { ($0, false) }
    }

    /// A mapping of the language in words: "the top level", "'retry'", "profile 'fast'", "a profile".
    static func describe(_ path: [String]) -> String {
        guard let last = path.last else { return "the top level" }
        if path.count == 3, path[1] == "profiles" { return last == "*" ? "a profile" : "profile '\(excerpt(last))'" }
        if last == "-", path.count >= 2 { return "an item of '\(path[path.count - 2])'" }
        return "'\(path.map { $0 == "*" ? "<profile>" : excerpt($0) }.joined(separator: "."))'"
    }

    mutating func mismatch(_ node: Node, _ shape: Shape, _ key: Label) -> Decoded? {
        fail(.typeMismatch, at: node.span, "\(key) must be \(shape.expectation), found \(Self.describe(node))")
    }

    /// A value not among the choices. Help and fix offer only values that the guide's rules accept
    /// (`viewerRef: per-sesion` gets per-viewer-device, not per-session, itself an error).
    mutating func badChoice(_ text: String, _ options: [String], key: Label, span: Span) -> Decoded? {
        guard diagnostics.count < room else { return fail(.typeMismatch, at: span, "") }
        let message = "\(key) is '\(excerpt(text))', which is not one of \(Suggest.orList(options))"
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
        return fail(.typeMismatch, at: span, message, help: "write one of \(Suggest.orList(allowed))")
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
